// Calls around the session and the console shell (SPEC section 7, auth and common): login, logout,
// menu, modify-password, version-check / version-upgrade, the role editor's permission list and role
// pickers, and a record's audit history.
import { menu } from "../../../src/generated/resources.ts";
import { operationSchemas } from "../../../src/generated/operations.ts";
import { operationKeyBase } from "../../../src/schema/keys.ts";
import { operationOfPermission } from "../../../src/schema/permissions.ts";
import { can, requirePermission, sqlOf, type Ctx, type Principal } from "../../entities/context.ts";
import { hashPassword } from "../../core/passwords.ts";
import { history } from "../../entities/audit.ts";
import { models } from "../../model/model.ts";
import { q } from "../../core/sql.ts";
import { allPermissions, checkPassword, forgetIdleCounters, login, revokeAll, revokeToken } from "./auth.ts";
import { badRequest, HttpError } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { ranksBelow } from "../accounts/place.ts";
import { defineArea } from "../area.ts";

export const userOf = (p: Principal) => ({
  id: p.id,
  kind: p.kind,
  nickname: p.name,
  account: p.account,
  agent_id: p.agentId,
  is_admin: p.isAdmin,
});

export function menuFor(ctx: Ctx) {
  return menu
    .map((group) => ({
      ...group,
      title: translate(ctx.lng, group.label),
      routes: group.routes
        .filter((r) => can(ctx.principal, r.permission))
        .map((r) => ({ ...r, title: translate(ctx.lng, r.label) })),
    }))
    .filter((group) => group.routes.length > 0);
}

/** The installed version and the newest one published (version-list), as SPEC's version check wants. */
async function versions(ctx: Ctx) {
  const db = sqlOf(ctx);
  const latest = (
    await db.query<{ version_number: string }>(`select version_number from ${q("version")} order by id desc limit 1`)
  ).rows[0]?.version_number;
  const installed =
    (await db.query<{ value: string }>(`select value from sys_state where key = 'installed_version'`)).rows[0]?.value ??
    latest;
  return { latest, installed };
}

/** The label of a permission key an operation declares (the role editor shows it); entity keys have theirs. */
const OPERATION_PERMISSION_LABELS = new Map(
  Object.values(operationSchemas)
    .filter((o) => o["x-operation"].permission.includes("."))
    .map((o) => [o["x-operation"].permission, `${operationKeyBase(o)}name`]),
);

export const session = defineArea({
  name: "session",
  setup(app, db) {
    const forget = () =>
      void forgetIdleCounters(db).catch((error: unknown) => app.log.error(error, "forgetting sign-in counters"));
    let timer: NodeJS.Timeout | undefined;
    app.addHook("onReady", async () => {
      forget();
      timer = setInterval(forget, 3_600_000).unref();
    });
    app.addHook("onClose", async () => clearInterval(timer));
  },
  handlers: {
    async login({ ctx, input, request }) {
      const result = await login(ctx.db, input.account, input.password, request.ip);
      const sessionCtx = { ...ctx, principal: result.principal };
      return {
        token: result.token,
        expires_at: result.expires_at,
        user: userOf(result.principal),
        permissions: [...result.principal.permissions].sort(),
        menu: menuFor(sessionCtx),
      };
    },

    async logout({ ctx }) {
      await revokeToken(sqlOf(ctx), ctx.tokenHash!);
      return null;
    },

    async menu({ ctx }) {
      return menuFor(ctx);
    },

    async "user-info"({ ctx }) {
      return { user: userOf(ctx.principal), permissions: [...ctx.principal.permissions].sort() };
    },

    // Hashing is slow: it happens outside the transaction that stores the hash and ends the sessions.
    // Guessing the old password is throttled like signing in, on the same counters.
    async "modify-password"({ ctx, input, request }) {
      const table = ctx.principal.kind;
      const { rows } = await ctx.db.query<{ password: string }>(`select password from ${q(table)} where id = $1`, [
        ctx.principal.id,
      ]);
      if (!(await checkPassword(ctx.db, ctx.principal.account, request.ip, input.old_password, rows[0]?.password))) {
        throw badRequest([
          { field: "old_password", keyword: "wrongPassword", message: translate(ctx.lng, "errors:wrongPassword") },
        ]);
      }
      const hash = await hashPassword(input.new_password);
      await ctx.db.transaction(async (tx) => {
        await tx.query(
          `update ${q(table)} set password = $1, version = version + 1, updated_at = now() where id = $2`,
          [hash, ctx.principal.id],
        );
        // Every session of this account ends, this one included: sign in again with the new password.
        await revokeAll(tx, ctx.principal.kind, ctx.principal.id);
      });
      return null;
    },

    // The settings the login page shows before anyone signs in: the site's name and logo, and the
    // currency every screen shows amounts in; nothing else.
    async "setting-no"({ ctx }) {
      const { rows } = await sqlOf(ctx).query<Record<string, unknown>>(
        `select site_name, logo, nav_title, currency from ${q("system_setting")} where singleton_key = 'global'`,
      );
      const row = rows[0] ?? {};
      return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
    },

    async "version-check"({ ctx }) {
      const { latest, installed } = await versions(ctx);
      return {
        version: installed ?? "0.0.0",
        digits: (installed ?? "0.0.0").split(".").map(Number),
        latest: latest ?? null,
        can_update: latest && installed !== latest ? 1 : 0,
      };
    },

    async "version-upgrade"({ ctx }) {
      const { latest } = await versions(ctx);
      if (!latest) throw new HttpError(409, "stateConflict");
      await sqlOf(ctx).query(
        `insert into sys_state (key, value) values ('installed_version', $1) on conflict (key) do update set value = excluded.value`,
        [JSON.stringify(latest)],
      );
      return { version: latest };
    },

    async "manage-role-permission"() {
      return allPermissions().map((key) => ({
        key,
        entity: key.split(".")[0],
        operation: operationOfPermission(key),
        ...(OPERATION_PERMISSION_LABELS.has(key) ? { label: OPERATION_PERMISSION_LABELS.get(key) } : {}),
      }));
    },

    // Role pickers of the agent form. down: the roles the caller may grant (all their permissions are the
    // caller's; force_down=1 only those strictly below the caller's own level). up: the ranks above the caller's own.
    async "manage-role-down"({ ctx, input }) {
      return rolePicker(ctx, "down", input.force_down === 1);
    },
    async "manage-role-up"({ ctx }) {
      return rolePicker(ctx, "up", false);
    },

    async "record-history"({ ctx, input }) {
      const model = models.get(input.entity);
      if (!model) throw new HttpError(404, "notFound");
      requirePermission(ctx, `${model.name}.${model.x.calls.detail ? "detail" : "list"}`);
      return history(ctx, model, input.id);
    },
  },
});

async function rolePicker(ctx: Ctx, direction: "up" | "down", forceDown: boolean) {
  const db = sqlOf(ctx);
  const { rows } = await db.query<{ id: number; name: string; level: number; permissions: string[] | null }>(
    `select id, name, level, permissions from ${q("role")} order by level, id`,
  );
  const own =
    ctx.principal.kind === "agent" && (!ctx.principal.isAdmin || forceDown)
      ? (
          await db.query<{ level: number; id: number }>(
            `select r.id, r.level from ${q("agent")} a join ${q("role")} r on r.id = a.role_id where a.id = $1`,
            [ctx.principal.id],
          )
        ).rows[0]
      : undefined;
  // One rule of rank with the server's own check of a new agent's place (accounts/place.ts).
  const picked = rows.filter((role) =>
    direction === "up"
      ? ctx.principal.isAdmin || (own !== undefined && ranksBelow(own.level, role.level))
      : (role.permissions ?? []).every((p) => can(ctx.principal, p)) &&
        // force_down: strictly below the caller's own rank, never a peer's or its own.
        !(forceDown && (own === undefined || !ranksBelow(role.level, own.level))),
  );
  return picked.map((role) => ({ id: role.id, title: role.name, level: role.level }));
}

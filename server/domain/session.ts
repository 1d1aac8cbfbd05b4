// Calls around the session and the console shell (SPEC section 7, auth and common): login, logout,
// menu, modify-password, version-check / version-upgrade, the role editor's permission list, and a
// record's audit history.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { menu } from "../../src/generated/resources.ts";
import { can, requirePermission, type Ctx, type Principal } from "../entities/context.ts";
import { assertValid, validatorFor } from "../entities/validation.ts";
import { hashPassword, history, verifyPassword } from "../entities/engine.ts";
import { models, modelOf } from "../entities/model.ts";
import { oneId } from "../entities/query.ts";
import { ok } from "../entities/routes.ts";
import { q } from "../db/migrate.ts";
import { allPermissions, DOMAIN_PERMISSIONS, login, revokeAll, revokeToken } from "../http/auth.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { translate } from "../http/i18n.ts";

DOMAIN_PERMISSIONS.push("version.upgrade");

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
  const latest = (
    await ctx.db.query<{ version_number: string }>(
      `select version_number from ${q("version")} order by id desc limit 1`,
    )
  ).rows[0]?.version_number;
  const installed =
    (await ctx.db.query<{ value: string }>(`select value from sys_state where key = 'installed_version'`)).rows[0]
      ?.value ?? latest;
  return { latest, installed };
}

export function registerSessionRoutes(app: FastifyInstance, ctxOf: (request: FastifyRequest) => Ctx): void {
  app.post("/merchant/login", { config: { public: true } }, async (request) => {
    const ctx = ctxOf(request);
    assertValid(modelOf("login"), validatorFor(modelOf("login"), "create"), request.body ?? {}, ctx.lng);
    const { account, password } = request.body as { account: string; password: string };
    const session = await login(ctx.db, account, password, request.ip);
    const sessionCtx = { ...ctx, principal: session.principal };
    return ok({
      token: session.token,
      expires_at: session.expires_at,
      user: userOf(session.principal),
      permissions: [...session.principal.permissions].sort(),
      menu: menuFor(sessionCtx),
    });
  });

  app.post("/merchant/logout", async (request) => {
    const ctx = ctxOf(request);
    await revokeToken(ctx.db, ctx.tokenHash!);
    return ok(null);
  });

  app.get("/merchant/menu", async (request) => ok(menuFor(ctxOf(request))));

  app.get("/merchant/user-info", async (request) => {
    const ctx = ctxOf(request);
    return ok({ user: userOf(ctx.principal), permissions: [...ctx.principal.permissions].sort() });
  });

  app.post("/merchant/modify-password", async (request) => {
    const ctx = ctxOf(request);
    const model = modelOf("password_change");
    assertValid(model, validatorFor(model, "create"), request.body ?? {}, ctx.lng);
    const { old_password, new_password } = request.body as Record<string, string>;
    const table = ctx.principal.kind;
    const { rows } = await ctx.db.query<{ password: string }>(`select password from ${q(table)} where id = $1`, [
      ctx.principal.id,
    ]);
    if (!(await verifyPassword(old_password, rows[0]?.password))) {
      throw badRequest([
        { field: "old_password", keyword: "wrongPassword", message: translate(ctx.lng, "errors:wrongPassword") },
      ]);
    }
    await ctx.db.transaction(async (tx) => {
      await tx.query(`update ${q(table)} set password = $1, version = version + 1, updated_at = now() where id = $2`, [
        await hashPassword(new_password),
        ctx.principal.id,
      ]);
      // Every session of this account ends, this one included: sign in again with the new password.
      await revokeAll(tx, ctx.principal.kind, ctx.principal.id);
    });
    return ok(null);
  });

  // The settings the login page shows before anyone signs in: the site's name and logo, nothing else.
  app.get("/merchant/setting-no", { config: { public: true } }, async (request) => {
    const ctx = ctxOf(request);
    const { rows } = await ctx.db.query<Record<string, unknown>>(
      `select site_name, logo, nav_title from ${q("system_setting")} where singleton_key = 'global'`,
    );
    const row = rows[0] ?? {};
    return ok(Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)));
  });

  app.get("/merchant/version-check", { config: { public: true } }, async (request) => {
    const { latest, installed } = await versions(ctxOf(request));
    return ok({
      version: installed ?? "0.0.0",
      digits: (installed ?? "0.0.0").split(".").map(Number),
      latest: latest ?? null,
      can_update: latest && installed !== latest ? 1 : 0,
    });
  });

  app.post("/merchant/version-upgrade", async (request) => {
    const ctx = ctxOf(request);
    requirePermission(ctx, "version.upgrade");
    const { latest } = await versions(ctx);
    if (!latest) throw new HttpError(409, "stateConflict");
    await ctx.db.query(
      `insert into sys_state (key, value) values ('installed_version', $1) on conflict (key) do update set value = excluded.value`,
      [JSON.stringify(latest)],
    );
    return ok({ version: latest });
  });

  app.get("/merchant/manage-role-permission", async (request) => {
    const ctx = ctxOf(request);
    requirePermission(ctx, "role.list");
    return ok(allPermissions().map((key) => ({ key, entity: key.split(".")[0], operation: key.split(".")[1] })));
  });

  // Role pickers of the agent form. down: the roles the caller may grant (all their permissions are the
  // caller's; force_down=1 leaves out the caller's own role). up: the ranks above the caller's own.
  const rolePicker = (direction: "up" | "down") => async (request: FastifyRequest) => {
    const ctx = ctxOf(request);
    requirePermission(ctx, "role.all");
    const { rows } = await ctx.db.query<{ id: number; name: string; level: number; permissions: string[] | null }>(
      `select id, name, level, permissions from ${q("role")} order by level, id`,
    );
    const own =
      ctx.principal.kind === "agent" && !ctx.principal.isAdmin
        ? (
            await ctx.db.query<{ level: number; id: number }>(
              `select r.id, r.level from ${q("agent")} a join ${q("role")} r on r.id = a.role_id where a.id = $1`,
              [ctx.principal.id],
            )
          ).rows[0]
        : undefined;
    const forceDown = (request.query as Record<string, string>).force_down === "1";
    const picked = rows.filter((role) =>
      direction === "up"
        ? ctx.principal.isAdmin || (own !== undefined && role.level < own.level)
        : (role.permissions ?? []).every((p) => can(ctx.principal, p)) && !(forceDown && role.id === own?.id),
    );
    return ok(picked.map((role) => ({ id: role.id, title: role.name, level: role.level })));
  };
  app.get("/merchant/manage-role-down", rolePicker("down"));
  app.get("/merchant/manage-role-up", rolePicker("up"));

  app.get("/merchant/record-history", async (request) => {
    const ctx = ctxOf(request);
    const query = request.query as Record<string, string>;
    const model = models.get(query.entity ?? "");
    if (!model || model.x.storage === "input") throw new HttpError(404, "unknownCall");
    requirePermission(ctx, `${model.name}.${model.x.calls.detail ? "detail" : "list"}`);
    return ok(await history(ctx, model, oneId(query.id, ctx.lng)));
  });
}

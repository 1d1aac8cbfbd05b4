// Calls around the session and the console shell (SPEC section 7, auth and common): login, logout,
// menu, user-info, modify-password, the login page's settings and a record's audit history; the version
// check (versions.ts) and the role editor's permission list and pickers (roles.ts) join them here.
import { menu } from "../../../src/generated/resources.ts";

import { can, requirePermission, sqlOf, type Ctx, type Principal } from "../../entities/context.ts";
import { hashPassword } from "../../core/passwords.ts";
import { history } from "../../entities/audit.ts";
import { models } from "../../model/model.ts";
import { ACCOUNT_TABLES, checkPassword, forgetIdleCounters, login, revokeAll, revokeToken } from "./auth.ts";
import { badRequest, HttpError } from "../../core/errors.ts";
import { BUSINESS_TIME_ZONE } from "../../db/rollups.ts";
import { translate } from "../../core/i18n.ts";

import { defineArea } from "../area.ts";
import { roleHandlers } from "./roles.ts";
import { versionHandlers } from "./versions.ts";
import * as store from "./session-store.ts";

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
    ...versionHandlers,
    ...roleHandlers,
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
      const table = ACCOUNT_TABLES[ctx.principal.kind];
      const stored = await store.passwordOf(ctx.db, table, ctx.principal.id);
      if (!(await checkPassword(ctx.db, ctx.principal.account, request.ip, input.old_password, stored))) {
        throw badRequest([
          { field: "old_password", keyword: "wrongPassword", message: translate(ctx.lng, "errors:wrongPassword") },
        ]);
      }
      const hash = await hashPassword(input.new_password);
      await ctx.db.transaction(async (tx) => {
        await store.setPassword(tx, table, ctx.principal.id, hash);
        // Every session of this account ends, this one included: sign in again with the new password.
        await revokeAll(tx, ctx.principal.kind, ctx.principal.id);
      });
      return null;
    },

    // The settings the login page shows before anyone signs in: the site's name and logo, the currency
    // every screen shows amounts in and the business's time zone (whose days the console filters and
    // shows, as the statistics count them); nothing else.
    async "setting-no"({ ctx }) {
      const row = (await store.loginSettings(sqlOf(ctx))) ?? {};
      return {
        ...Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)),
        time_zone: BUSINESS_TIME_ZONE,
      };
    },

    async "record-history"({ ctx, input }) {
      const model = models.get(input.entity);
      if (!model) throw new HttpError(404, "notFound");
      requirePermission(ctx, `${model.name}.${model.x.calls.detail ? "detail" : "list"}`);
      return history(ctx, model, input.id);
    },
  },
});

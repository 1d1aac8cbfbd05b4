// Agents, operators and outlet managers as accounts: an agent's place in the tree (its path, fixed at creation under
// a superior the caller may see, with a role below the superior's: place.ts), and sign-in accounts
// unique across agents, operators and outlet managers.
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import type { Row } from "../../entities/repository.ts";
import { revokeAll } from "../session/auth.ts";
import { badRequest, type FieldError } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { fieldError } from "../../entities/validation.ts";
import { defineArea } from "../area.ts";
import { hierarchyHandlers, protectAgents, protectOperators, protectRoles } from "./hierarchy.ts";
import { placeErrors, roleEditRefusal } from "./place.ts";
import * as agents from "./agent-store.ts";

async function accountTaken(tx: Queryable, account: string, self?: { entity: string; id: number }): Promise<boolean> {
  for (const entity of ["agent", "operator", "shop_manager"]) {
    const rows = await agents.idsWithAccount(tx, entity, account);
    if (rows.some((r) => !(self && self.entity === entity && self.id === r.id))) return true;
  }
  return false;
}

/**
 * Nobody grants what they do not hold: a role given by a non-admin must be within their permissions. The
 * parent role grants nothing (sign-in reads the role only) and is the superior's role (place.ts).
 */
async function roleGrantErrors(ctx: Ctx, tx: Queryable, values: Row): Promise<FieldError[]> {
  const roleId = values.role_id;
  if (ctx.principal.isAdmin || roleId === undefined || roleId === null) return [];
  const role = await agents.rolePermissions(tx, roleId);
  const exceeds = (role?.permissions ?? []).some((p) => !ctx.principal.permissions.has(p));
  return !role || exceeds ? [fieldError(modelOf("agent"), "role_id", "x-relation", ctx.lng)] : [];
}

function uniqueAccount(entity: string) {
  return async (ctx: Ctx, tx: Queryable, values: Row, existing?: Row) => {
    if (typeof values.account !== "string") return;
    if (await accountTaken(tx, values.account, existing ? { entity, id: existing.id as number } : undefined)) {
      throw badRequest([fieldError(modelOf(entity), "account", "unique", ctx.lng)]);
    }
  };
}

const checkAgentAccount = uniqueAccount("agent");
const checkOperatorAccount = uniqueAccount("operator");
const checkManagerAccount = uniqueAccount("shop_manager");

/**
 * A password set through an update call ends every session of that account, in the update's transaction.
 * One's own password is changed only through modify-password, which asks for the current one: a stolen
 * session must not be enough to take the account over.
 */
async function passwordSetByUpdate(
  ctx: Ctx,
  tx: Queryable,
  kind: "agent" | "operator" | "manager",
  values: Row,
  existing?: Row,
) {
  const entity = kind === "manager" ? "shop_manager" : kind;
  if (!existing || ![...modelOf(entity).hashed].some((field) => field in values)) return;
  if (ctx.principal.kind === kind && ctx.principal.id === existing.id) {
    throw badRequest(
      [...modelOf(entity).hashed]
        .filter((field) => field in values)
        .map((field) => ({ field, keyword: "ownPassword", message: translate(ctx.lng, "errors:ownPasswordByUpdate") })),
    );
  }
  await revokeAll(tx, kind, existing.id as number);
}

export const accounts = defineArea({
  name: "accounts",
  handlers: { ...hierarchyHandlers },
  hooks: {
    agent: {
      async beforeWrite(ctx, tx, values, existing) {
        await checkAgentAccount(ctx, tx, values, existing);
        await passwordSetByUpdate(ctx, tx, "agent", values, existing);
        const refused = await roleGrantErrors(ctx, tx, values);
        // Made once: its role the next level down from its superior's and within it, its parent role the
        // superior's (place.ts).
        if (!existing)
          refused.push(
            ...(await placeErrors(
              ctx,
              tx,
              values,
              refused.map((e) => e.field),
            )),
          );
        if (refused.length) throw badRequest(refused);
        if (existing) return;
        // The superior is a relation the caller may see (checked by the engine); the new agent's path
        // extends the superior's, and never changes (pid is immutable).
        const parent = await repo.findById(tx, modelOf("agent"), scopeOf(ctx.principal), values.pid as number);
        values.agent_path = parent!.agent_path;
        values.agent_id = null;
      },
      async afterInsert(_ctx, tx, row) {
        const path = `${row.agent_path as string}${row.id as number}/`;
        return { ...(await agents.setPath(tx, row.id, path)) };
      },
      async beforeBulk(ctx, op, ids) {
        await protectAgents(ctx, op, ids);
        // Deleting an account ends its sessions for good (a recovered one does not get them back); deleting an
        // agent also ends the sessions of the operators it owns.
        if (op !== "recover") await agents.endSessions(ctx.tx, "agent", ids);
      },
    },
    operator: {
      async beforeWrite(ctx, tx, values, existing) {
        await checkOperatorAccount(ctx, tx, values, existing);
        await passwordSetByUpdate(ctx, tx, "operator", values, existing);
      },
      async beforeBulk(ctx, op, ids) {
        protectOperators(ctx, op, ids);
        if (op !== "recover") await agents.endSessions(ctx.tx, "operator", ids);
      },
    },
    shop_manager: {
      // An outlet manager belongs to the agent that makes it (the engine sets its owner), and manages that
      // agent's own outlets only: a sub-agent's or another agent's outlet is refused on the field.
      async beforeWrite(ctx, tx, values, existing) {
        await checkManagerAccount(ctx, tx, values, existing);
        await passwordSetByUpdate(ctx, tx, "manager", values, existing);
        if (Array.isArray(values.shop_ids)) {
          const owner = existing ? Number(existing.agent_id) : ctx.principal.agentId;
          if (!(await agents.outletsOwnedBy(tx, owner, values.shop_ids as number[])))
            throw badRequest([fieldError(modelOf("shop_manager"), "shop_ids", "x-relation", ctx.lng)]);
        }
      },
      async beforeBulk(ctx, op, ids) {
        if (op !== "recover") await agents.endSessions(ctx.tx, "manager", ids);
      },
    },
    role: {
      // An edit of a role that agents hold keeps each of them in its place (place.ts).
      async beforeWrite(ctx, tx, values, existing) {
        if (existing) await roleEditRefusal(ctx, tx, values, existing);
      },
      beforeBulk: (ctx, op, ids) => protectRoles(ctx, op, ids),
    },
  },
});

// The agent tree seen from an agent: its superiors (manage-up), its direct subordinates
// (manage-direct-down), its whole subtree (manage-all-down), the superiors a new agent may get
// (manage-pid-list), a superior's password reset (manage-reset-password), and the self-protection of
// accounts and roles on delete (nobody deletes themselves, the platform admin, or a role in use).
import { RESET_PASSWORD } from "../../../src/schema/constants.ts";
import { scopeOf, sqlOf, type Ctx, type TxCtx } from "../../entities/context.ts";
import { derive, listRecords } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { hashPassword } from "../../core/passwords.ts";
import { toApi } from "../../entities/answer.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import type { Row } from "../../entities/repository.ts";
import { revokeAll } from "../session/auth.ts";
import { HttpError, notFound } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";
import * as agents from "./agent-store.ts";

const agentModel = () => modelOf("agent");

/**
 * The agent a hierarchy call is about: the given one when it is live in the caller's subtree (else 404),
 * or the caller's own agent (an operator's agent is not an operator's to browse: operators lack the
 * agent permissions).
 */
async function subject(ctx: Ctx, id: number | undefined): Promise<Row> {
  const row = await repo.findById(sqlOf(ctx), agentModel(), scopeOf(ctx.principal), id ?? ctx.principal.agentId);
  if (!row) throw notFound();
  return row;
}

/** The ids on an agent's path above it, nearest first: /1/5/12/ for 12 is [5, 1]. */
export const superiorsOf = (path: string, id: number): number[] =>
  path
    .split("/")
    .filter(Boolean)
    .map(Number)
    .filter((n) => n !== id)
    .reverse();

export const hierarchyHandlers: Handlers = {
  async "manage-up"({ ctx, input }) {
    const agent = await subject(ctx, input.id);
    const chain = superiorsOf(agent.agent_path as string, agent.id as number);
    if (chain.length === 0) return [];
    // Cards, not records: an agent sees who its superiors are (SPEC section 1), never their money.
    const rows = await agents.superiorCards(sqlOf(ctx), chain);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return chain
      .filter((id) => byId.has(id))
      .map((id, i) => {
        const r = byId.get(id)!;
        return {
          id,
          nickname: r.nickname,
          account: r.account,
          phone: r.phone ?? null,
          pid: r.pid === null ? null : Number(r.pid),
          role: r.role ?? null,
          depth: i + 1,
        };
      });
  },

  async "manage-direct-down"({ ctx, input }) {
    const agent = await subject(ctx, input.id);
    const model = agentModel();
    const { list } = await repo.list(sqlOf(ctx), model, scopeOf(ctx.principal), {
      page: 1,
      limit: 500,
      sort: "id",
      order: "asc",
      where: [{ field: "pid", op: "eq", value: agent.id }],
    });
    await derive(ctx, model, list);
    return list.map((row) => toApi(model, row));
  },

  async "manage-all-down"({ ctx, input, list }) {
    const agent = await subject(ctx, input.id);
    return listRecords(ctx, agentModel(), list, false, { below: agent.agent_path as string });
  },

  async "manage-pid-list"({ ctx, input }) {
    return repo.options(sqlOf(ctx), agentModel(), scopeOf(ctx.principal), {
      ...(input.keyword ? { search: input.keyword } : {}),
    });
  },

  async "manage-reset-password"({ ctx, input }) {
    const agent = await subject(ctx, input.id);
    // Only a superior resets: one's own password changes under Change password, with the current one.
    if (ctx.principal.kind === "agent" && Number(agent.id) === ctx.principal.id)
      throw new HttpError(409, "resetOwnPassword");
    // Hashing is slow: outside the transaction that stores the hash and ends the sessions.
    const hash = await hashPassword(RESET_PASSWORD);
    await ctx.db.transaction(async (tx) => {
      if (!(await agents.setPassword(tx, agent.id, hash))) throw notFound();
      // Every session of that agent ends; its operators keep theirs (their own passwords did not change).
      await revokeAll(tx, "agent", agent.id as number);
      await audit(tx, ctx, "agent", agent.id as number, "reset_password", null);
    });
    return null;
  },
};

/**
 * Deleting agents: nobody deletes their own account or the platform admin (the agent without a
 * superior). Only the agents the caller sees are looked at, so an id outside the subtree stays a 404.
 */
export async function protectAgents(ctx: TxCtx, op: string, ids: number[]): Promise<void> {
  if (op === "recover") return;
  const rows = await agents.agentsInScope(ctx.tx, scopeOf(ctx.principal), ids);
  const own = ctx.principal.kind === "agent" ? rows.find((r) => Number(r.id) === ctx.principal.id) : undefined;
  if (own) throw new HttpError(409, "deleteSelf");
  const root = rows.find((r) => r.pid === null);
  if (root) throw new HttpError(409, "deletePlatformAdmin", { agent: root.nickname });
}

/** An operator never deletes its own account. */
export function protectOperators(ctx: Ctx, op: string, ids: number[]): void {
  if (op !== "recover" && ctx.principal.kind === "operator" && ids.includes(ctx.principal.id))
    throw new HttpError(409, "deleteSelf");
}

/**
 * A role is deleted only when no agent holds it, as its role or parent role, live or in the recycle bin
 * (a recovered agent must find its role): the refusal names the role and how many agents use it.
 */
export async function protectRoles(ctx: TxCtx, op: string, ids: number[]): Promise<void> {
  if (op === "recover") return;
  const inUse = await agents.roleInUse(ctx.tx, ids);
  if (inUse) throw new HttpError(409, "roleInUse", { role: inUse.name, count: inUse.n });
}

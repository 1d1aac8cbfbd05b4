// Profit settings: what an agent earns from the orders that come through each page (see orders.ts for
// how a payment uses them). Set by the agent's superiors, or the admin, for the pages they see; every
// selected page needs its percentage or amount, and a fixed share may not exceed the page's maximum
// profit or the agent's per-order limit.
import { scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, notFound, type FieldError } from "../../core/errors.ts";
import { amountText } from "../../core/money.ts";
import { currencyOf } from "../../db/settings.ts";
import * as store from "./money-store.ts";

export interface ProfitSettingInput {
  page_id: number;
  profit_type: "percent" | "fixed";
  percent?: number;
  amount?: number;
}

/** The agent, when the caller sees it; a 404 otherwise. */
async function agentInScope(ctx: Ctx, id: number) {
  const agent = await repo.findById(sqlOf(ctx), modelOf("agent"), scopeOf(ctx.principal), id);
  if (!agent) throw notFound();
  return agent as { id: number; agent_path: string; pid: number | null };
}

export async function settingsOf(ctx: Ctx, agentId: number) {
  await agentInScope(ctx, agentId);
  const rows = await store.profitSettings(sqlOf(ctx), agentId);
  return {
    id: agentId,
    settings: rows.map((r) => ({
      page_id: Number(r.page_id),
      profit_type: r.profit_type,
      ...(r.percent !== null && r.percent !== undefined ? { percent: Number(r.percent) } : {}),
      ...(r.amount !== null && r.amount !== undefined ? { amount: Number(r.amount) } : {}),
    })),
  };
}

export async function pagesFor(ctx: Ctx, agentId: number) {
  await agentInScope(ctx, agentId);
  const rows = await store.profitPages(sqlOf(ctx), scopeOf(ctx.principal));
  return rows.map((r) => ({ ...r, id: Number(r.id), max_profit: Number(r.max_profit ?? 0) }));
}

/** Replaces the agent's profit settings; answers how many it now has. */
export async function saveSettings(
  ctx: Ctx & { tx: NonNullable<Ctx["tx"]> },
  agentId: number,
  settings: ProfitSettingInput[],
) {
  const { tx } = ctx;
  const agent = await agentInScope(ctx, agentId);
  // Only a superior sets them: never one's own, never the platform admin's (it earns no shares).
  if (agent.pid === null || Number(agent.id) === ctx.principal.agentId)
    throw badRequest([fieldMessage("id", "profitNotYours", ctx.lng)]);
  const pageIds = settings.map((s) => s.page_id);
  const pages = await store.pageMaxProfits(tx, pageIds);
  const maxOf = new Map(pages.map((p) => [Number(p.id), Number(p.max_profit ?? 0)]));
  const perOrder = Number((await store.perOrderAmount(tx, agent.agent_path)) ?? 0);
  const currency = await currencyOf(tx);
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  settings.forEach((s, i) => {
    const at = `settings/${i}`;
    if (seen.has(s.page_id)) errors.push(fieldMessage(`${at}/page_id`, "profitPageTwice", ctx.lng));
    seen.add(s.page_id);
    const value = s.profit_type === "percent" ? s.percent : s.amount;
    if (!value) {
      errors.push(
        fieldMessage(`${at}/${s.profit_type === "percent" ? "percent" : "amount"}`, "noProfitSettings", ctx.lng),
      );
      return;
    }
    if (s.profit_type !== "fixed") return;
    const limit = Math.min(...[maxOf.get(s.page_id) ?? 0, perOrder].filter((v) => v > 0));
    if (Number.isFinite(limit) && value > limit)
      errors.push(
        fieldMessage(`${at}/amount`, "shareExceedsMax", ctx.lng, { limit: amountText(limit, ctx.lng, currency) }),
      );
  });
  if (errors.length) throw badRequest(errors);
  await store.replaceProfitSettings(
    tx,
    { id: agentId, agent_path: agent.agent_path },
    settings.map((s) => ({
      page_id: s.page_id,
      profit_type: s.profit_type,
      percent: s.profit_type === "percent" ? (s.percent ?? null) : null,
      amount: s.profit_type === "fixed" ? (s.amount ?? null) : null,
    })),
  );
  return { count: settings.length };
}

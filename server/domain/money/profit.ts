// Profit settings: what an agent earns from the orders that come through each page (see orders.ts for
// how a payment uses them). Set by the agent's superiors, or the admin, for the pages they see; every
// selected page needs its percentage or amount, and a fixed share may not exceed the page's maximum
// profit or the agent's per-order limit.
import { q } from "../../core/sql.ts";
import { scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, notFound, type FieldError } from "../../core/errors.ts";
import { amountText } from "../../core/money.ts";
import { currencyOf } from "../../db/settings.ts";

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
  const { rows } = await sqlOf(ctx).query<ProfitSettingInput & { page_id: number }>(
    `select page_id, profit_type, percent, amount from ${q("profit_setting")} where agent_id = $1 order by id`,
    [agentId],
  );
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
  const page = modelOf("page");
  const scope = repo.scopeClause(page, scopeOf(ctx.principal), 0);
  const { rows } = await sqlOf(ctx).query<{
    id: number;
    title: string;
    profit_model: string;
    profit_type: string;
    max_profit: number | null;
  }>(
    `select id, name as title, profit_model, profit_type, max_profit from ${q("page")}
      where deleted_at is null${scope.sql} order by sort, id limit 500`,
    scope.values,
  );
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
  const { rows: pages } = await tx.query<{ id: number; max_profit: number | null }>(
    `select id, max_profit from ${q("page")} where id = any($1)`,
    [pageIds],
  );
  const maxOf = new Map(pages.map((p) => [Number(p.id), Number(p.max_profit ?? 0)]));
  const { rows: plugin } = await tx.query<{ per_order_amount: number | null }>(
    `select per_order_amount from ${q("plugin_setting")} where singleton_key = $1`,
    [agent.agent_path],
  );
  const perOrder = Number(plugin[0]?.per_order_amount ?? 0);
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
  await tx.query(`delete from ${q("profit_setting")} where agent_id = $1`, [agentId]);
  if (settings.length)
    await tx.query(
      `insert into ${q("profit_setting")} (agent_id, agent_path, page_id, profit_type, percent, amount)
       select $1, $2, p, t, pc, a from unnest($3::bigint[], $4::text[], $5::float8[], $6::bigint[]) as s(p, t, pc, a)`,
      [
        agentId,
        agent.agent_path,
        settings.map((s) => s.page_id),
        settings.map((s) => s.profit_type),
        settings.map((s) => (s.profit_type === "percent" ? s.percent : null)),
        settings.map((s) => (s.profit_type === "fixed" ? s.amount : null)),
      ],
    );
  return { count: settings.length };
}

// The money calls' statements besides the ledger (ledger.ts) and the orders (orders.ts, order-store.ts)
// (issue 28, step 4: a handler reads validate → store → answer): profit settings and what they are checked
// against, withdrawals and their fee, and delivery orders. A rule on an amount or a state is part of the
// statement that changes the record (a delivery's review), so two clicks at once cannot both pass it.
import type { EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A withdrawal as stored, with its owner. */
export type StoredWithdrawal = EntityRecord<"withdrawal"> & { agent_id: number; agent_path: string };

/** A profit setting as stored: per page, a percentage or an amount. */
export interface StoredProfitSetting {
  page_id: number;
  profit_type: "percent" | "fixed";
  percent?: number | null;
  amount?: number | null;
}

/** A page as the profit settings offer it. */
export interface ProfitPage {
  id: number;
  title: string;
  profit_model: string;
  profit_type: string;
  max_profit: number | null;
}

/** A new withdrawal's columns (money in minor units). */
export interface NewWithdrawal {
  agentId: number;
  agentPath: string;
  legal_name: string;
  amount: number;
  fee: number;
  at: string;
  payout_method: string;
  account_number: string;
  bank_name: string | null;
  province: string | null;
  city: string | null;
  branch: string | null;
  remark: string | null;
  source: string;
}

/** An agent's profit settings, in the order they were made. */
export async function profitSettings(db: Queryable, agentId: number): Promise<StoredProfitSetting[]> {
  const { rows } = await db.query<StoredProfitSetting>(
    `select page_id, profit_type, percent, amount from ${q("profit_setting")} where agent_id = $1 order by id`,
    [agentId],
  );
  return rows;
}

/** The live pages in the scope, as the profit settings offer them (at most 500). */
export async function profitPages(db: Queryable, scope: Scope): Promise<ProfitPage[]> {
  const where = scopeClause(modelOf("page"), scope, 0);
  const { rows } = await db.query<ProfitPage>(
    `select id, name as title, profit_model, profit_type, max_profit from ${q("page")}
      where deleted_at is null${where.sql} order by sort, id limit 500`,
    where.values,
  );
  return rows;
}

/** The maximum profit of these pages. */
export async function pageMaxProfits(
  tx: Queryable,
  ids: number[],
): Promise<{ id: number; max_profit: number | null }[]> {
  const { rows } = await tx.query<{ id: number; max_profit: number | null }>(
    `select id, max_profit from ${q("page")} where id = any($1)`,
    [ids],
  );
  return rows;
}

/** The per-order limit of an agent's plugin settings (keyed by its path), or nothing when unset. */
export async function perOrderAmount(tx: Queryable, agentPath: string): Promise<number | null | undefined> {
  const { rows } = await tx.query<{ per_order_amount: number | null }>(
    `select per_order_amount from ${q("plugin_setting")} where singleton_key = $1`,
    [agentPath],
  );
  return rows[0]?.per_order_amount;
}

/** Replaces an agent's profit settings with these (percent for a percentage, amount for a fixed share). */
export async function replaceProfitSettings(
  tx: Queryable,
  agent: { id: number; agent_path: string },
  settings: { page_id: number; profit_type: string; percent: number | null; amount: number | null }[],
): Promise<void> {
  await tx.query(`delete from ${q("profit_setting")} where agent_id = $1`, [agent.id]);
  if (settings.length)
    await tx.query(
      `insert into ${q("profit_setting")} (agent_id, agent_path, page_id, profit_type, percent, amount)
       select $1, $2, p, t, pc, a from unnest($3::bigint[], $4::text[], $5::float8[], $6::bigint[]) as s(p, t, pc, a)`,
      [
        agent.id,
        agent.agent_path,
        settings.map((s) => s.page_id),
        settings.map((s) => s.profit_type),
        settings.map((s) => s.percent),
        settings.map((s) => s.amount),
      ],
    );
}

/** The system settings that act on a payment's profit shares (0 when unset: no days, no maximum). */
export interface MoneyRules {
  profitDays: number;
  maxDailyProfit: number;
}

export async function moneyRules(tx: Queryable): Promise<MoneyRules> {
  const { rows } = await tx.query<{ profit_days: number | null; max_daily_profit: number | null }>(
    `select profit_days, max_daily_profit from ${q("system_setting")} where singleton_key = 'global'`,
  );
  return { profitDays: Number(rows[0]?.profit_days ?? 0), maxDailyProfit: Number(rows[0]?.max_daily_profit ?? 0) };
}

/** The system settings' withdraw fee (a fraction), or nothing when unset. */
export async function withdrawFee(tx: Queryable): Promise<number | null | undefined> {
  const { rows } = await tx.query<{ withdraw_fee: number | null }>(
    `select withdraw_fee from ${q("system_setting")} where singleton_key = 'global'`,
  );
  return rows[0]?.withdraw_fee;
}

/** Stores a new withdrawal, pending review, made at `at`; answers it as stored. */
export async function insertWithdrawal(tx: Queryable, w: NewWithdrawal): Promise<StoredWithdrawal> {
  const { rows } = await tx.query<StoredWithdrawal>(
    `insert into ${q("withdrawal")} (agent_id, agent_path, legal_name, amount, fee, final_amount, request_time, payout_method,
                                     bank_name, province, city, account_number, branch, remark, status, source, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'pending', $15, $7, $7) returning *`,
    [
      w.agentId,
      w.agentPath,
      w.legal_name,
      w.amount,
      w.fee,
      w.amount - w.fee,
      w.at,
      w.payout_method,
      w.bank_name,
      w.province,
      w.city,
      w.account_number,
      w.branch,
      w.remark,
      w.source,
    ],
  );
  return rows[0];
}

/** Records a withdrawal's payout: now, and the amount paid; answers it as stored. */
export async function markPaid(tx: Queryable, id: unknown, paid: number): Promise<StoredWithdrawal | undefined> {
  const { rows } = await tx.query<StoredWithdrawal>(
    `update ${q("withdrawal")} set paid_time = now(), final_amount = $2 where id = $1 returning *`,
    [id, paid],
  );
  return rows[0];
}

/** The deliveries among these ids whose estimated income is not pending yet. */
export async function unrecordedDeliveries(
  tx: Queryable,
  ids: number[],
): Promise<{ id: number; agent_id: number; estimated_income: number; delivery_time: string }[]> {
  const { rows } = await tx.query<{ id: number; agent_id: number; estimated_income: number; delivery_time: string }>(
    `select d.id, d.agent_id, d.estimated_income, d.delivery_time from ${q("delivery_order")} d
      where d.id = any($1)
        and not exists (select 1 from ${q("payment_record")} r where r.delivery_order_id = d.id and r.kind = 'delivery_pending')`,
    [ids],
  );
  return rows;
}

/**
 * Reviews deliveries in the scope in one statement: only pending ones not of agent `own` change, and an
 * income (null for a deduction) never above the estimate. Answers the ones changed.
 */
export async function review(
  tx: Queryable,
  scope: Scope,
  r: { ids: number[]; income: number | null; remark: string | null; at: string; own: number | null },
): Promise<{ id: number; agent_id: number; estimated_income: number }[]> {
  const where = scopeClause(modelOf("delivery_order"), scope, 5);
  const { rows } = await tx.query<{ id: number; agent_id: number; estimated_income: number }>(
    `update ${q("delivery_order")}
        set status = 'processed', review_time = $4,
            actual_income = coalesce($2, 0), deduction = case when $2::bigint is null then estimated_income else 0 end,
            remark = $3, version = version + 1, updated_at = now()
      where id = any($1) and status = 'pending' and ($2::bigint is null or $2 <= estimated_income)
        and ($5::bigint is null or agent_id <> $5)${where.sql}
      returning id, agent_id, estimated_income`,
    [r.ids, r.income, r.remark, r.at, r.own, ...where.values],
  );
  return rows;
}

/** Why a review changed nothing: the deliveries among these ids in the scope, as they are. */
export async function deliveriesInScope(
  tx: Queryable,
  scope: Scope,
  ids: number[],
): Promise<{ id: number; agent_id: number; status: string; estimated_income: number }[]> {
  const where = scopeClause(modelOf("delivery_order"), scope, 1);
  const { rows } = await tx.query<{ id: number; agent_id: number; status: string; estimated_income: number }>(
    `select id, agent_id, status, estimated_income from ${q("delivery_order")} where id = any($1)${where.sql}`,
    [ids, ...where.values],
  );
  return rows;
}

/** The withdrawable balance of each of the agents, by id (for a withdrawal's reviewer). */
export async function balancesOf(db: Queryable, agentIds: number[]): Promise<Map<number, number>> {
  const { rows } = await db.query<{ id: number; withdrawable: number | null }>(
    `select id, withdrawable from ${q("agent")} where id = any($1)`,
    [agentIds],
  );
  return new Map(rows.map((a) => [Number(a.id), Number(a.withdrawable ?? 0)]));
}

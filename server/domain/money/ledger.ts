// The ledger (DESIGN §10): every movement of money is an append-only entry in payment_record, written in
// the same statement that moves the agent's balances, inside the transaction of its cause. An agent has
// three figures, each always the sum of its entries: withdrawable (the balance), frozen (pending:
// withdrawals awaiting payout, deliveries awaiting review) and total revenue. No figure goes below zero:
// the update that would take it there matches no row, and the whole posting is refused. An operator's
// share of a device's income is an entry of the device's owner (an expense, naming the operator) that
// raises the operator's earnings in the same statement; its reversal lowers them. An operator's earnings
// are always the sum of its entries too (an operator destroyed since keeps its entries, named).
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { HttpError } from "../../core/errors.ts";
import type { PaymentRecord } from "../../../src/generated/types.ts";
import { moneyText } from "../../core/money.ts";
import { ledgerPostings } from "../../core/metrics.ts";

/** The entry kinds: payment_record's `kind` enum in its schema, the one source. */
export type LedgerKind = PaymentRecord["kind"];

/** Money coming in, or going out, as the agent sees it. */
const DIRECTION: Record<LedgerKind, "income" | "expense"> = {
  order_income: "income",
  refund: "expense",
  profit_share: "income",
  profit_reversal: "expense",
  profit_release: "income",
  withdrawal_request: "expense",
  withdrawal_refused: "income",
  withdrawal_payout: "expense",
  withdrawal_fee: "expense",
  delivery_pending: "income",
  delivery_income: "income",
  delivery_deduction: "expense",
  operator_share: "expense",
  operator_share_reversal: "income",
};

/** The kinds that name an operator: a share raises its earnings by the amount, a reversal lowers them. */
const OPERATOR_KINDS = new Set<LedgerKind>(["operator_share", "operator_share_reversal"]);

export interface Movement {
  agentId: number;
  kind: LedgerKind;
  /** What moved, as a positive amount in minor units (shown on the payment records screen). */
  amount: number;
  /** Signed changes of the three figures, in minor units. */
  balance?: number;
  frozen?: number;
  revenue?: number;
  orderId?: number;
  orderNo?: string;
  withdrawalId?: number;
  deliveryOrderId?: number;
  payType?: number;
  /** The operator whose earnings an operator_share (or its reversal) moves by its amount, and its name. */
  operator?: { id: number; name: string };
  /** When it happened (default: now). */
  at?: string;
  remark?: string;
}

export interface LedgerEntry {
  id: number;
  agent_id: number;
  kind: LedgerKind;
  amount: number;
  balance_change: number;
  frozen_change: number;
  revenue_change: number;
  balance_after: number;
  frozen_after: number;
}

const COLUMNS = [
  ["agent_id", "bigint"],
  ["kind", "text"],
  ["amount", "bigint"],
  ["direction", "text"],
  ["balance_change", "bigint"],
  ["frozen_change", "bigint"],
  ["revenue_change", "bigint"],
  ["order_id", "bigint"],
  ["order_no", "text"],
  ["withdrawal_id", "bigint"],
  ["delivery_order_id", "bigint"],
  ["pay_type", "bigint"],
  ["operator_id", "bigint"],
  ["operator_name", "text"],
  ["paid_at", "timestamptz"],
  ["remark", "text"],
] as const;

/** Locks these agents' rows, in id order (one order for every caller, so two transactions never deadlock). */
export async function lockAgents(tx: Queryable, ids: number[]): Promise<void> {
  if (ids.length)
    await tx.query(`select id from ${q("agent")} where id = any($1) order by id for update`, [[...new Set(ids)]]);
}

/**
 * Posts movements: each agent's figures change by the sum of its movements and one entry per movement is
 * written, with the balances after it, in one statement. When any figure of any agent would go below
 * zero, nothing is written and a 409 names the shortfall (the caller's transaction rolls back).
 */
export async function post(tx: Queryable, movements: Movement[]): Promise<LedgerEntry[]> {
  const moving = movements.filter((m) => m.amount !== 0 || m.balance || m.frozen || m.revenue);
  if (moving.length === 0) return [];
  for (const m of moving)
    if (OPERATOR_KINDS.has(m.kind) !== Boolean(m.operator)) throw new Error(`${m.kind} names an operator or not`);
  await lockAgents(
    tx,
    moving.map((m) => m.agentId),
  );
  const now = new Date().toISOString();
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const m of moving) {
    const values = [
      m.agentId,
      m.kind,
      m.amount,
      DIRECTION[m.kind],
      m.balance ?? 0,
      m.frozen ?? 0,
      m.revenue ?? 0,
      m.orderId ?? null,
      m.orderNo ?? null,
      m.withdrawalId ?? null,
      m.deliveryOrderId ?? null,
      m.payType ?? null,
      m.operator?.id ?? null,
      m.operator?.name ?? null,
      m.at ?? now,
      m.remark ?? null,
    ];
    values.forEach((value, i) => columns[i].push(value));
  }
  const unnest = COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  const names = COLUMNS.map(([name]) => name).join(", ");
  const { rows } = await tx.query<LedgerEntry>(
    `with m as (
       select * from unnest(${unnest}) with ordinality as m(${names}, seq)
     ), d as (
       select agent_id, sum(balance_change) as b, sum(frozen_change) as f, sum(revenue_change) as r
         from m group by agent_id
     ), a as (
       update ${q("agent")} t
          set withdrawable = coalesce(t.withdrawable, 0) + d.b,
              frozen = coalesce(t.frozen, 0) + d.f,
              total_revenue = coalesce(t.total_revenue, 0) + d.r
         from d
        where t.id = d.agent_id
          and coalesce(t.withdrawable, 0) + d.b >= 0
          and coalesce(t.frozen, 0) + d.f >= 0
          and coalesce(t.total_revenue, 0) + d.r >= 0
       returning t.id, t.agent_path, t.withdrawable, t.frozen
     ), o as (
       update ${q("operator")} t
          set earnings = coalesce(t.earnings, 0) + e.change
         from (select operator_id, sum(case when kind = 'operator_share' then amount else -amount end) as change
                 from m where operator_id is not null group by operator_id) e
        where t.id = e.operator_id
     )
     insert into ${q("payment_record")} (${names}, agent_path, balance_after, frozen_after)
     select ${COLUMNS.map(([name]) => `m.${name}`).join(", ")}, a.agent_path,
            a.withdrawable - coalesce(sum(m.balance_change) over later, 0),
            a.frozen - coalesce(sum(m.frozen_change) over later, 0)
       from m join a on a.id = m.agent_id
     window later as (partition by m.agent_id order by m.seq rows between 1 following and unbounded following)
     order by m.seq
     returning id, agent_id, kind, amount, balance_change, frozen_change, revenue_change, balance_after, frozen_after`,
    columns,
  );
  if (rows.length !== moving.length) {
    const written = new Set(rows.map((r) => Number(r.agent_id)));
    const short = [...new Set(moving.map((m) => m.agentId))].filter((id) => !written.has(id));
    throw await shortfall(tx, short[0], moving);
  }
  for (const r of rows) ledgerPostings.inc({ kind: r.kind });
  return rows.map((r) => ({ ...r, id: Number(r.id), agent_id: Number(r.agent_id) }));
}

/** The 409 for an agent whose balance cannot cover a movement: who, what it has, what was asked. */
async function shortfall(tx: Queryable, agentId: number, moving: Movement[]): Promise<HttpError> {
  const { rows } = await tx.query<{ nickname: string; withdrawable: number | null; frozen: number | null }>(
    `select coalesce(nickname, account) as nickname, withdrawable, frozen from ${q("agent")} where id = $1`,
    [agentId],
  );
  // An agent the ledger names is never destroyed (references.ts, agentKeepsLedger); one destroyed before its
  // first entry is refused in words.
  if (!rows[0]) return new HttpError(409, "agentGone");
  const mine = moving.filter((m) => m.agentId === agentId);
  const frozenShort = mine.reduce((s, m) => s + (m.frozen ?? 0), 0) + Number(rows[0].frozen ?? 0) < 0;
  const needed = -mine.reduce((s, m) => s + (frozenShort ? (m.frozen ?? 0) : (m.balance ?? 0)), 0);
  return new HttpError(409, "insufficientBalance", {
    agent: rows[0].nickname,
    available: moneyText(Number((frozenShort ? rows[0].frozen : rows[0].withdrawable) ?? 0)),
    needed: moneyText(needed),
  });
}

export interface BalanceDifference {
  /** An agent's figures, or an operator's earnings. */
  who: "agent" | "operator";
  id: number;
  nickname: string;
  figure: "withdrawable" | "frozen" | "total_revenue" | "earnings";
  stored: number;
  ledger: number;
}

/**
 * Every agent's figures and every operator's earnings recomputed from the ledger: the differences from
 * the stored ones (none, normally).
 */
export async function differences(db: Queryable): Promise<BalanceDifference[]> {
  const { rows } = await db.query<{
    id: number;
    nickname: string;
    withdrawable: number;
    frozen: number;
    total_revenue: number;
    l_withdrawable: number;
    l_frozen: number;
    l_revenue: number;
  }>(
    `select a.id, a.nickname,
            coalesce(a.withdrawable, 0) as withdrawable, coalesce(a.frozen, 0) as frozen,
            coalesce(a.total_revenue, 0) as total_revenue,
            coalesce(l.b, 0) as l_withdrawable, coalesce(l.f, 0) as l_frozen, coalesce(l.r, 0) as l_revenue
       from ${q("agent")} a
       left join (select agent_id, sum(balance_change) as b, sum(frozen_change) as f, sum(revenue_change) as r
                    from ${q("payment_record")} group by agent_id) l on l.agent_id = a.id
      order by a.id`,
  );
  const { rows: operators } = await db.query<{ id: number; nickname: string; earnings: number; ledger: number }>(
    `select o.id, o.nickname, coalesce(o.earnings, 0) as earnings, coalesce(l.e, 0) as ledger
       from ${q("operator")} o
       left join (select operator_id, sum(case when kind = 'operator_share' then amount else -amount end) as e
                    from ${q("payment_record")} where operator_id is not null group by operator_id) l
         on l.operator_id = o.id
      order by o.id`,
  );
  const out: BalanceDifference[] = [];
  const check = (
    who: BalanceDifference["who"],
    r: { id: number; nickname: string },
    figure: BalanceDifference["figure"],
    stored: number,
    ledger: number,
  ) => {
    if (Number(stored) !== Number(ledger))
      out.push({ who, id: Number(r.id), nickname: r.nickname, figure, stored: Number(stored), ledger: Number(ledger) });
  };
  for (const r of rows) {
    check("agent", r, "withdrawable", r.withdrawable, r.l_withdrawable);
    check("agent", r, "frozen", r.frozen, r.l_frozen);
    check("agent", r, "total_revenue", r.total_revenue, r.l_revenue);
  }
  for (const r of operators) check("operator", r, "earnings", r.earnings, r.ledger);
  return out;
}

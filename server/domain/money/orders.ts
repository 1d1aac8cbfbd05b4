// Order money: a payment credits the device's owner and the profit shares of its superiors; a refund
// reverses them in proportion. One definition each, used alike for one order (a device's payment, a
// refund in the console) and for many (the demo seed's history).
//
// Profit shares: every agent (not the platform admin, not the order's owner) with a profit setting for
// the order's page earns a percentage of the order (price model) or of its profit (money less cost), or
// a fixed amount; each share is capped by the page's maximum profit and the earner's per-order limit,
// and skipped for applications outside the earner's plugin settings. A share that would take the earner
// past its daily maximum (by UTC day: the lower of its plugin settings' and the system settings' maximum
// daily profit), or past what is left of the order, is recorded as not shared and credits nothing. The
// earners' rows are locked (in id order) before their day's shares are summed, so concurrent payments
// are counted one after the other and never pass the cap together. A share is pending (the earner's
// pending figure) until the order's payment time plus the system settings' profit days, then released
// to the withdrawable balance (`releaseDue`); a refund reverses it from where it is. The owner is
// credited the order less the shares credited to others. Settings are made by a superior who sees both
// the agent and the page (profit.ts), so shares stay inside one subtree.
//
// Operators' shares: an operator bound to the order's device with a profit type (operator_binding) earns
// that share of what the device's owner keeps of the order (the order less the superiors' shares): a
// percentage of it (the percentages of one device's operators add up to at most 100 %, operators.ts) or
// a fixed amount, bindings in the order they were made, never more than what is left of the owner's
// income (a fixed amount cut to what is left says so in the entry's remark: "asked → paid"). It is an
// expense of the owner naming the operator, posted with the order's income, never pending; the
// operator's earnings rise in the same statement (ledger.ts). An operator in the recycle bin earns
// nothing. A refund takes back the same proportion of each share from its entries, so it works the same
// once the operator is unbound or destroyed.
import type { Db, Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { lockAgents, post, type Movement } from "./ledger.ts";
import { PAID_STATES } from "../../../src/schema/groups.ts";
import { moneyRules, type MoneyRules } from "./money-store.ts";
import { moneyText } from "../../core/money.ts";

const DAY_MS = 86_400_000;

interface OrderRow {
  id: number;
  order_no: string;
  agent_id: number;
  money: number;
  cost_money: number | null;
  pay_time: string | Date;
  pay_type: number | null;
  page_id: number | null;
  application_id: number | null;
  machine_id: number;
}

interface Setting {
  agent_id: number;
  agent_path: string;
  page_id: number;
  profit_type: "percent" | "fixed";
  percent: number | null;
  amount: number | null;
  per_order_amount: number | null;
  daily_max_amount: number | null;
  application_ids: number[] | null;
}

interface Share {
  earner: number;
  earnerPath: string;
  amount: number;
  shared: boolean;
}

const dayOf = (at: string | Date) => new Date(at).toISOString().slice(0, 10);

/** A device's binding to an operator with a profit share. */
export interface OperatorShareSetting {
  machine_id: number;
  operator_id: number;
  nickname: string;
  profit_type: "percent" | "fixed";
  profit_percent: number | null;
  profit_amount: number | null;
  /** 1: the share may go above the page's maximum profit (the binding's "share excess"). */
  share_excess: number | null;
}

/** An operator's share of an order: what its binding asked and what was left to pay it. */
export interface OperatorShare {
  operator: { id: number; name: string };
  asked: number;
  paid: number;
}

/**
 * The operators' shares of what a device's owner keeps of an order (`income`), bindings in order: each what
 * its binding asks, at most the order's page's maximum profit (0: none) unless the binding shares the excess,
 * and never more than is left.
 */
export function operatorSharesOf(income: number, bindings: OperatorShareSetting[], maxProfit = 0): OperatorShare[] {
  const shares: OperatorShare[] = [];
  let left = income;
  for (const b of bindings) {
    const asked =
      b.profit_type === "percent" ? Math.round(Number(b.profit_percent ?? 0) * income) : Number(b.profit_amount ?? 0);
    const capped = maxProfit > 0 && Number(b.share_excess) !== 1 ? Math.min(asked, maxProfit) : asked;
    const paid = Math.min(capped, left);
    if (paid <= 0) continue;
    left -= paid;
    shares.push({ operator: { id: Number(b.operator_id), name: b.nickname }, asked, paid });
  }
  return shares;
}

/** What of a page the shares of its orders read: the profit model and the maximum profit, and its excess. */
export interface PageRules {
  profit_model: string | null;
  max_profit: number | null;
  /** 1: the agents' shares may go above the maximum profit ("share excess"). */
  share_excess: number | null;
}

/** The shares of one order, nearest superior first, given each earner's shares already made that day. */
export function sharesOf(
  order: OrderRow,
  ownerPath: string,
  page: PageRules | undefined,
  settings: Setting[],
  sharedToday: (earner: number, day: string) => number,
  systemDailyMax = 0,
): Share[] {
  if (!page) return [];
  const base =
    page.profit_model === "profit" ? Math.max(0, order.money - Number(order.cost_money ?? 0)) : Number(order.money);
  // Deepest agents first (the ones closest to the customer), then by id: a stable order for the caps.
  const earners = settings
    .filter((s) => s.page_id === order.page_id && s.agent_path !== ownerPath)
    .sort((a, b) => b.agent_path.length - a.agent_path.length || Number(a.agent_id) - Number(b.agent_id));
  const shares: Share[] = [];
  let left = Number(order.money);
  for (const s of earners) {
    const apps = s.application_ids ?? [];
    if (apps.length && (order.application_id === null || !apps.includes(Number(order.application_id)))) continue;
    let amount = s.profit_type === "percent" ? Math.round(Number(s.percent ?? 0) * base) : Number(s.amount ?? 0);
    if (Number(page.max_profit) > 0 && Number(page.share_excess) !== 1)
      amount = Math.min(amount, Number(page.max_profit));
    if (Number(s.per_order_amount) > 0) amount = Math.min(amount, Number(s.per_order_amount));
    if (amount <= 0) continue;
    // Both daily maximums hold (0 or none is no maximum): the lower one binds.
    const dailyMax = Math.min(
      ...[Number(s.daily_max_amount ?? 0), Number(systemDailyMax)].filter((v) => v > 0),
      Number.POSITIVE_INFINITY,
    );
    const withinDay = sharedToday(s.agent_id, dayOf(order.pay_time)) + amount <= dailyMax;
    const shared = withinDay && amount <= left;
    if (shared) left -= amount;
    shares.push({ earner: Number(s.agent_id), earnerPath: s.agent_path, amount, shared });
  }
  return shares;
}

/** When a share of an order paid at `at` becomes withdrawable: `profitDays` days later. */
export const availableAt = (at: string | Date, profitDays: number): Date =>
  new Date(new Date(at).getTime() + profitDays * DAY_MS);

/**
 * Records the payments of the given paid orders (those not recorded yet, checked under the orders' locks,
 * so an order is recorded once however many recorders race): the owners' income, the
 * superiors' profit records and shares, all through the ledger. A share is pending until its profit days
 * have passed by `now` (a payment recorded later than that is withdrawable at once). Answers how many
 * orders it recorded.
 */
export async function recordPayments(tx: Queryable, orderIds: number[], now = new Date()): Promise<number> {
  if (orderIds.length === 0) return 0;
  // The orders' rows are locked (in id order) before the check that they are not recorded yet, in a
  // statement of its own: a second recorder of the same order waits here, then sees the first one's
  // income entry and records nothing.
  await tx.query(`select id from ${q("order")} where id = any($1) order by id for update`, [orderIds]);
  const { rows: orders } = await tx.query<OrderRow>(
    `select id, order_no, agent_id, money, cost_money, pay_time, pay_type, page_id, application_id, machine_id
       from ${q("order")} o
      where id = any($1) and pay_status = any($2) and pay_time is not null
        and not exists (select 1 from ${q("payment_record")} r where r.order_id = o.id and r.kind = 'order_income')
      order by pay_time, id`,
    [orderIds, PAID_STATES],
  );
  if (orders.length === 0) return 0;
  const owners = await tx.query<{ id: number; agent_path: string }>(
    `select id, agent_path from ${q("agent")} where id = any($1)`,
    [[...new Set(orders.map((o) => Number(o.agent_id)))]],
  );
  const pathOf = new Map(owners.rows.map((r) => [Number(r.id), r.agent_path]));
  const pageIds = [...new Set(orders.map((o) => o.page_id).filter((p): p is number => p !== null))].map(Number);
  const pages = new Map(
    (
      await tx.query<PageRules & { id: number }>(
        `select id, profit_model, max_profit, share_excess from ${q("page")} where id = any($1)`,
        [pageIds],
      )
    ).rows.map((p) => [Number(p.id), p]),
  );
  const { rows: settings } = await tx.query<Setting>(
    `select s.agent_id, a.agent_path, s.page_id, s.profit_type, s.percent, s.amount,
            ps.per_order_amount, ps.daily_max_amount, ps.application_ids
       from ${q("profit_setting")} s
       join ${q("agent")} a on a.id = s.agent_id and a.deleted_at is null and a.pid is not null
       left join ${q("plugin_setting")} ps on ps.singleton_key = a.agent_path
      where s.page_id = any($1)`,
    [pageIds],
  );
  for (const s of settings) s.page_id = Number(s.page_id);
  const { rows: bindings } = await tx.query<OperatorShareSetting>(
    `select b.machine_id, b.operator_id, o.nickname, b.profit_type, b.profit_percent, b.profit_amount, b.share_excess
       from ${q("operator_binding")} b
       join ${q("operator")} o on o.id = b.operator_id and o.deleted_at is null
      where b.machine_id = any($1) order by b.id`,
    [[...new Set(orders.map((o) => Number(o.machine_id)))]],
  );
  const bindingsOf = new Map<number, OperatorShareSetting[]>();
  for (const b of bindings) bindingsOf.set(Number(b.machine_id), [...(bindingsOf.get(Number(b.machine_id)) ?? []), b]);
  const rules: MoneyRules = await moneyRules(tx);
  // What each earner was already credited on the days these orders fall on (daily maximum), summed once
  // the earners (and owners) are locked: a concurrent payment to one of them waits for this one.
  const days = [...new Set(orders.map((o) => dayOf(o.pay_time)))];
  const earnerIds = [...new Set(settings.map((s) => Number(s.agent_id)))];
  await lockAgents(tx, [...earnerIds, ...owners.rows.map((r) => Number(r.id))]);
  const today = new Map<string, number>();
  if (earnerIds.length) {
    const { rows } = await tx.query<{ agent_id: number; day: string; total: number }>(
      `select agent_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(amount)::bigint as total
         from ${q("profit_record")}
        where agent_id = any($1) and status = 'shared' and type = 'normal'
          and to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') = any($2)
        group by 1, 2`,
      [earnerIds, days],
    );
    for (const r of rows) today.set(`${r.agent_id}:${r.day}`, Number(r.total));
  }
  const movements: Movement[] = [];
  const records: unknown[][] = [[], [], [], [], [], [], [], [], [], [], [], []];
  const profited: number[] = [];
  for (const order of orders) {
    const at = new Date(order.pay_time).toISOString();
    const shares = sharesOf(
      order,
      pathOf.get(Number(order.agent_id)) ?? "/",
      pages.get(Number(order.page_id)),
      settings,
      (e, d) => today.get(`${e}:${d}`) ?? 0,
      rules.maxDailyProfit,
    );
    const available = availableAt(at, rules.profitDays);
    const pending = available.getTime() > now.getTime();
    let credited = 0;
    for (const share of shares) {
      const key = `${share.earner}:${dayOf(at)}`;
      [
        order.order_no,
        order.id,
        share.earner,
        share.earnerPath,
        order.page_id,
        order.machine_id,
        order.application_id,
        share.amount,
        share.shared ? "shared" : "not_shared",
        at,
        share.shared ? available.toISOString() : null,
        share.shared && !pending ? at : null,
      ].forEach((v, i) => records[i].push(v));
      if (!share.shared) continue;
      credited += share.amount;
      today.set(key, (today.get(key) ?? 0) + share.amount);
      movements.push({
        agentId: share.earner,
        kind: "profit_share",
        amount: share.amount,
        ...(pending ? { frozen: share.amount } : { balance: share.amount }),
        revenue: share.amount,
        orderId: order.id,
        orderNo: order.order_no,
        payType: order.pay_type ?? undefined,
        at,
      });
    }
    if (credited > 0) profited.push(order.id);
    const net = Number(order.money) - credited;
    movements.push({
      agentId: Number(order.agent_id),
      kind: "order_income",
      amount: net,
      balance: net,
      revenue: net,
      orderId: order.id,
      orderNo: order.order_no,
      payType: order.pay_type ?? undefined,
      at,
    });
    const maxProfit = Number(pages.get(Number(order.page_id))?.max_profit ?? 0);
    for (const share of operatorSharesOf(net, bindingsOf.get(Number(order.machine_id)) ?? [], maxProfit))
      movements.push({
        agentId: Number(order.agent_id),
        kind: "operator_share",
        amount: share.paid,
        balance: -share.paid,
        revenue: -share.paid,
        orderId: order.id,
        orderNo: order.order_no,
        operator: share.operator,
        at,
        ...(share.paid < share.asked ? { remark: `${moneyText(share.asked)} → ${moneyText(share.paid)}` } : {}),
      });
  }
  if (records[0].length) {
    await tx.query(
      `insert into ${q("profit_record")} (order_no, order_id, agent_id, agent_path, page_id, page_name, machine_id, mac_name, application_id, application_name, amount, status, type, refunded_amount, created_at, updated_at, available_at, released_at)
       select o, oi, a, ap, p, (select name from ${q("page")} where id = p), m, (select mac_name from ${q("machine")} where id = m),
              ap2, (select name from ${q("application")} where id = ap2), amt, st, 'normal', 0, at, at, av, rel
         from unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])
           as r(o, oi, a, ap, p, m, ap2, amt, st, at, av, rel)`,
      records,
    );
  }
  if (profited.length) await tx.query(`update ${q("order")} set is_profit = 1 where id = any($1)`, [profited]);
  await post(tx, movements);
  return orders.length;
}

export interface RefundStep {
  orderId: number;
  /** The order's refunded total before and after this refund, in minor units. */
  before: number;
  after: number;
  at?: string;
}

/**
 * Reverses, for each refund step, what the order's payment credited, in proportion to the refunded part
 * of the order: each shared profit share is reversed to round(share × refunded / paid), the owner bears
 * the rest of the refund. A share still pending is reversed from the pending figure, a released one
 * from the balance: the profit records are locked first, so a release at the same moment goes before or
 * after, never between. A full refund marks every profit record of the order refunded. Each operator's
 * share is taken back to round(share × refunded / paid) from its entries, into the owner's balance. Called
 * in the refund's transaction after the order's row was changed (and so locked): two refunds of one order
 * read its entries one after the other.
 */
export async function recordRefunds(tx: Queryable, steps: RefundStep[]): Promise<void> {
  const effective = steps.filter((s) => s.after > s.before);
  if (effective.length === 0) return;
  const ids = effective.map((s) => s.orderId);
  const { rows: orders } = await tx.query<{
    id: number;
    order_no: string;
    agent_id: number;
    money: number;
    pay_type: number | null;
  }>(`select id, order_no, agent_id, money, pay_type from ${q("order")} where id = any($1)`, [ids]);
  const orderOf = new Map(orders.map((o) => [Number(o.id), o]));
  const { rows: shares } = await tx.query<{
    id: number;
    order_id: number;
    agent_id: number;
    amount: number;
    refunded_amount: number | null;
    status: string;
    pending: boolean;
  }>(
    `select id, order_id, agent_id, amount, refunded_amount, status,
            (released_at is null and available_at is not null) as pending
       from ${q("profit_record")}
      where order_id = any($1) and type = 'normal' order by id for update`,
    [ids],
  );
  const { rows: operatorShares } = await tx.query<{
    order_id: number;
    agent_id: number;
    operator_id: number;
    operator_name: string;
    shared: number;
    reversed: number;
  }>(
    `select order_id, agent_id, operator_id, max(operator_name) as operator_name,
            sum(case when kind = 'operator_share' then amount else 0 end)::bigint as shared,
            sum(case when kind = 'operator_share_reversal' then amount else 0 end)::bigint as reversed
       from ${q("payment_record")}
      where order_id = any($1) and kind in ('operator_share', 'operator_share_reversal')
      group by order_id, agent_id, operator_id order by min(id)`,
    [ids],
  );
  const movements: Movement[] = [];
  const updates: [number[], number[], string[]] = [[], [], []];
  for (const step of effective) {
    const order = orderOf.get(step.orderId)!;
    const money = Number(order.money);
    const full = step.after >= money;
    const at = step.at ?? new Date().toISOString();
    let reversed = 0;
    for (const share of shares.filter((s) => Number(s.order_id) === step.orderId)) {
      const done = Number(share.refunded_amount ?? 0);
      const target =
        share.status === "not_shared"
          ? 0
          : full
            ? Number(share.amount)
            : Math.round((Number(share.amount) * step.after) / money);
      const delta = Math.max(0, target - done);
      updates[0].push(Number(share.id));
      updates[1].push(done + delta);
      updates[2].push(full ? "refunded" : share.status);
      if (delta === 0) continue;
      reversed += delta;
      movements.push({
        agentId: Number(share.agent_id),
        kind: "profit_reversal",
        amount: delta,
        ...(share.pending ? { frozen: -delta } : { balance: -delta }),
        revenue: -delta,
        orderId: step.orderId,
        orderNo: order.order_no,
        at,
      });
    }
    const owner = step.after - step.before - reversed;
    movements.push({
      agentId: Number(order.agent_id),
      kind: "refund",
      amount: owner,
      balance: -owner,
      revenue: -owner,
      orderId: step.orderId,
      orderNo: order.order_no,
      payType: order.pay_type ?? undefined,
      at,
    });
    for (const share of operatorShares.filter((s) => Number(s.order_id) === step.orderId)) {
      const target = full ? Number(share.shared) : Math.round((Number(share.shared) * step.after) / money);
      const delta = Math.max(0, target - Number(share.reversed));
      if (delta === 0) continue;
      movements.push({
        agentId: Number(share.agent_id),
        kind: "operator_share_reversal",
        amount: delta,
        balance: delta,
        revenue: delta,
        orderId: step.orderId,
        orderNo: order.order_no,
        operator: { id: Number(share.operator_id), name: share.operator_name },
        at,
      });
    }
  }
  if (updates[0].length)
    await tx.query(
      `update ${q("profit_record")} p set refunded_amount = u.done, status = u.status, updated_at = now(), version = version + 1
         from unnest($1::bigint[], $2::bigint[], $3::text[]) as u(id, done, status) where p.id = u.id`,
      updates,
    );
  await post(tx, movements);
}

/**
 * Releases the shares whose profit days have passed by `now` (of these agents, or of all): what is left
 * of each (its amount less what refunds reversed) moves from pending to withdrawable. The update that
 * marks a share released is the one that picks it, so two releases at once move each share once.
 * Answers how many shares it released.
 */
export async function releaseDue(tx: Queryable, options: { agentIds?: number[]; now?: Date } = {}): Promise<number> {
  const now = (options.now ?? new Date()).toISOString();
  const { rows } = await tx.query<{ agent_id: number; order_id: number; order_no: string; left: number }>(
    `update ${q("profit_record")}
        set released_at = $1, updated_at = now(), version = version + 1
      where released_at is null and available_at <= $1 and status <> 'not_shared'
        and ($2::bigint[] is null or agent_id = any($2))
      returning agent_id, order_id, order_no, amount - coalesce(refunded_amount, 0) as left`,
    [now, options.agentIds ?? null],
  );
  if (rows.length === 0) return 0;
  await post(
    tx,
    rows.map((r) => ({
      agentId: Number(r.agent_id),
      kind: "profit_release" as const,
      amount: Number(r.left),
      frozen: -Number(r.left),
      balance: Number(r.left),
      orderId: Number(r.order_id),
      orderNo: r.order_no,
      at: now,
    })),
  );
  return rows.length;
}

/** How often the running server releases the shares that came due (a withdrawal request releases its own first). */
export const RELEASE_EVERY_MS = 60_000;

/** Releases due shares now and every minute while the server runs; answers how to stop. */
export function startReleasing(db: Db): () => void {
  const run = () =>
    void db
      .transaction((tx) => releaseDue(tx))
      .catch((error: unknown) => console.error("Releasing due profit shares failed:", error));
  run();
  const timer = setInterval(run, RELEASE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

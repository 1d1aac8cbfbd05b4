// The ledger's promise under any sequence of work: random payments, refunds, withdrawals (requested,
// approved, refused, paid out) and deliveries (made, credited or deducted), and after every step each
// agent's figures equal the sums of its ledger entries and none is below zero. fast-check, a fixed seed,
// bounded in time; a step the rules refuse (a refund above what is left, a withdrawal above the balance)
// must be refused and change nothing, which the same check proves. The system settings' profit days (7) and
// maximum daily profit (500) act throughout: payments are made now or days ago, shares wait pending and
// are released at random later times, and after every step agent_a1's pending figure is exactly its
// shares not released yet (less what refunds reversed), and no day's shares pass the maximum. operator_a is
// bound to agent_a's device at 20 % and a second operator at a fixed 150: after every step each operator's
// earnings equal its entries, and the agents' revenue plus the operators' earnings is what the orders kept.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences } from "../../server/domain/money/ledger.ts";
import { recordDeliveries } from "../../server/domain/money/deliveries.ts";
import { recordPayments, releaseDue } from "../../server/domain/money/orders.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

const PROFIT_DAYS = 7;
const DAILY_MAX = 500;
const DAY = 86_400_000;

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agents: Record<"agent_a" | "agent_b", Client>;
let pageId: number;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  admin = await fx.client("admin");
  agents = { agent_a: await fx.client("agent_a"), agent_b: await fx.client("agent_b") };
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, withdraw_fee, profit_days, max_daily_profit)
     values ('global', 'Test', 0.06, ${PROFIT_DAYS}, ${DAILY_MAX})`,
  );
  // agent_a1 earns 10 % of agent_a's orders through this page.
  pageId = Number((await fx.createRecord("page", "agent_a")).id);
  await fx.setColumn("page", pageId, "profit_model", "price");
  await fx.setColumn("page", pageId, "max_profit", 0);
  const saved = await agents.agent_a.post("/merchant/manage-profit-save", {
    id: t.ids.agent_a1,
    settings: [{ page_id: pageId, profit_type: "percent", percent: 0.1 }],
  });
  expect(saved.status, saved.raw).toBe(200);
  const machine = Number(await fx.relatedId("machine", "agent_a"));
  const second = Number((await fx.insertRecord("operator", "agent_a")).id);
  for (const [operator, share] of [
    [t.ids.operator_a, { profit_type: "percent", profit_percent: 0.2 }],
    [second, { profit_type: "fixed", profit_amount: 150 }],
  ] as const) {
    const bound = await agents.agent_a.post("/merchant/operator-bind-machine", {
      operator_id: operator,
      machine_id: machine,
      ...share,
    });
    expect(bound.status, bound.raw).toBe(200);
  }
});
afterAll(() => t?.close());

type Who = "agent_a" | "agent_b";
type Step =
  | { kind: "pay"; who: Who; money: number; daysAgo: number; late: boolean }
  | { kind: "release"; days: number }
  | { kind: "refund"; pick: number; amount: number }
  | { kind: "withdraw"; who: Who; amount: number }
  | { kind: "review_withdrawal"; pick: number; action: "approve" | "confirm" | "refuse" }
  | { kind: "deliver"; who: Who; estimate: number }
  | { kind: "review_delivery"; pick: number; income: number | null };

const who = fc.constantFrom<Who>("agent_a", "agent_b");
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("pay" as const),
    who,
    money: fc.integer({ min: 1, max: 20_000 }),
    daysAgo: fc.integer({ min: 0, max: 10 }),
    // Recorded now (late) or when it was paid (then its share may be pending past its days, until a release).
    late: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("release" as const), days: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 20_000 }) }),
  fc.record({ kind: fc.constant("withdraw" as const), who, amount: fc.integer({ min: 100, max: 30_000 }) }),
  fc.record({
    kind: fc.constant("review_withdrawal" as const),
    pick: fc.nat(),
    action: fc.constantFrom<"approve" | "confirm" | "refuse">("approve", "confirm", "refuse"),
  }),
  fc.record({ kind: fc.constant("deliver" as const), who, estimate: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({
    kind: fc.constant("review_delivery" as const),
    pick: fc.nat(),
    income: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
  }),
);

const pickFrom = async (sql: string, pick: number): Promise<number | undefined> => {
  const { rows } = await t.db.query<{ id: number }>(sql);
  return rows.length ? Number(rows[pick % rows.length].id) : undefined;
};

let seq = 0;
async function apply(s: Step): Promise<number> {
  switch (s.kind) {
    case "pay": {
      const paidAt = new Date(Date.now() - s.daysAgo * DAY);
      const machine = Number(await fx.relatedId("machine", s.who));
      const { id, path } = await fx.owner(s.who);
      const { rows } = await t.db.query<{ id: number }>(
        `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money,
                              refund_money, page_id, device_kind, cost_money)
         values ($1, 'VM-P', $2, $3, $4, $7, $7, 'paid', $5, 0, $6, 'vending', 0) returning id`,
        [`P${++seq}`, machine, id, path, s.money, pageId, paidAt.toISOString()],
      );
      await t.db.transaction((tx) => recordPayments(tx, [Number(rows[0].id)], s.late ? new Date() : paidAt));
      return 200;
    }
    case "release":
      await t.db.transaction((tx) => releaseDue(tx, { now: new Date(Date.now() + s.days * DAY) }));
      return 200;
    case "refund": {
      const id = await pickFrom(`select id from "order" where order_no like 'P%' order by id`, s.pick);
      if (id === undefined) return 0;
      return (await admin.post("/merchant/order-refund", { id, refund_money: s.amount })).status;
    }
    case "withdraw":
      return (
        await agents[s.who].post("/merchant/data-withdraw-apply", {
          amount: s.amount,
          legal_name: "Test",
          payout_method: "social_wallet",
          account_number: "wxid_p",
        })
      ).status;
    case "review_withdrawal": {
      const id = await pickFrom(
        `select id from "withdrawal" where status in ('pending', 'approved') order by id`,
        s.pick,
      );
      if (id === undefined) return 0;
      const body = { id, action: s.action, ...(s.action === "refuse" ? { refuse_reason: "No" } : {}) };
      return (await admin.post("/merchant/data-withdraw-action", body)).status;
    }
    case "deliver": {
      const { id } = await fx.insertRecord("delivery_order", s.who, {
        estimated_income: s.estimate,
        status: "pending",
        actual_income: null,
        deduction: null,
        review_time: null,
      });
      await t.db.transaction((tx) => recordDeliveries(tx, [Number(id)]));
      return 200;
    }
    case "review_delivery": {
      const id = await pickFrom(`select id from "delivery_order" where status = 'pending' order by id`, s.pick);
      if (id === undefined) return 0;
      const body =
        s.income === null ? { id, outcome: "deduction" } : { id, outcome: "income", actual_income: s.income };
      return (await admin.post("/merchant/order-recycle-review", body)).status;
    }
  }
}

/**
 * Money is neither made nor lost, by the business's own records (orders, deliveries, withdrawals), not by
 * the ledger's: each order's entries (the agents' revenue and the operators' shares less their reversals)
 * add up to what it kept (paid less refunded); all revenue and earnings are that plus the credited
 * deliveries; and what the agents hold is their revenue less what was paid out, plus the estimates of
 * deliveries still under review.
 */
async function conservation() {
  const { rows: orders } = await t.db.query<{ id: number; kept: number; entries: number }>(
    `select o.id, (o.money - o.refund_money)::bigint as kept, coalesce(sum(r.revenue_change), 0)::bigint as entries
       from "order" o left join "payment_record" r on r.order_id = o.id
      where o.pay_status in ('paid', 'refund_requested', 'partial_refund', 'refund_success')
      group by o.id
      having (o.money - o.refund_money) <> coalesce(sum(r.revenue_change + case r.kind when 'operator_share' then r.amount
                                                        when 'operator_share_reversal' then -r.amount else 0 end), 0)`,
  );
  expect(orders, "orders whose entries do not add up to what they kept").toEqual([]);
  const { rows } = await t.db.query<Record<string, number>>(
    `select (select coalesce(sum(total_revenue), 0) from "agent")::bigint as revenue,
            (select coalesce(sum(withdrawable + frozen), 0) from "agent")::bigint as held,
            (select coalesce(sum(earnings), 0) from "operator")::bigint as earnings,
            (select coalesce(sum(money - refund_money), 0) from "order"
              where pay_status in ('paid', 'refund_requested', 'partial_refund', 'refund_success'))::bigint as kept,
            (select coalesce(sum(actual_income), 0) from "delivery_order" where status = 'processed')::bigint as credited,
            (select coalesce(sum(estimated_income), 0) from "delivery_order" where status = 'pending')::bigint as waiting,
            (select coalesce(sum(amount), 0) from "withdrawal" where status = 'paid')::bigint as paid_out`,
  );
  const f = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  expect(f.revenue + f.earnings).toBe(f.kept + f.credited);
  expect(f.earnings).toBeGreaterThanOrEqual(0);
  expect(f.held).toBe(f.revenue - f.paid_out + f.waiting);
  // agent_a1 neither withdraws nor delivers: its pending figure is its shares waiting for their days.
  const { rows: pending } = await t.db.query<{ frozen: number; waiting: number }>(
    `select coalesce(a.frozen, 0)::bigint as frozen,
            (select coalesce(sum(p.amount - p.refunded_amount), 0) from "profit_record" p
              where p.agent_id = a.id and p.status <> 'not_shared' and p.released_at is null
                and p.available_at is not null)::bigint as waiting
       from "agent" a where a.id = $1`,
    [t.ids.agent_a1],
  );
  expect(Number(pending[0].frozen)).toBe(Number(pending[0].waiting));
  const { rows: days } = await t.db.query(
    `select agent_id, (created_at at time zone 'UTC')::date, sum(amount)::bigint as shared from "profit_record"
      where status = 'shared' group by 1, 2 having sum(amount) > $1`,
    [DAILY_MAX],
  );
  expect(days, "days whose shares pass the system's maximum daily profit").toEqual([]);
}

describe("the ledger under random work", () => {
  it("keeps every figure equal to its entries and never below zero, after every step", async () => {
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        for (const s of steps) {
          const status = await apply(s);
          // Refused steps are fine (a refund above what is left, a withdrawal above the balance); a 5xx is not.
          expect([0, 200, 400, 409], `${JSON.stringify(s)} answered ${status}`).toContain(status);
          outcomes.set(`${s.kind} ${status}`, (outcomes.get(`${s.kind} ${status}`) ?? 0) + 1);
          expect(await differences(t.db)).toEqual([]);
          const { rows } = await t.db.query<{ n: number }>(
            `select count(*)::int as n from "agent" where withdrawable < 0 or frozen < 0 or total_revenue < 0`,
          );
          expect(rows[0].n).toBe(0);
          await conservation();
        }
      }),
      { seed: 20261122, numRuns: 12, interruptAfterTimeLimit: 60_000, markInterruptAsFailure: false },
    );
    // The sequences exercised the rules both ways: money moved, and some steps were refused.
    expect(outcomes.get("pay 200")).toBeGreaterThan(0);
    const { rows: shared } = await t.db.query<{ kind: string; n: number }>(
      `select kind, count(*)::int as n from "payment_record" where kind like 'operator_share%' group by kind order by kind`,
    );
    expect(shared.map((r) => r.kind)).toEqual(["operator_share", "operator_share_reversal"]);
    expect(outcomes.get("refund 200")).toBeGreaterThan(0);
    expect(outcomes.get("release 200")).toBeGreaterThan(0);
    expect(outcomes.get("withdraw 200")).toBeGreaterThan(0);
    expect((outcomes.get("withdraw 409") ?? 0) + (outcomes.get("refund 400") ?? 0)).toBeGreaterThan(0);
  });
});

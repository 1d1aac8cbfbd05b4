// The system settings that act on money: profit days (a share is pending until its order's payment time
// plus the days, then withdrawable; a refund within them reverses it from pending) and the maximum daily
// profit (beside each agent's own daily maximum: the lower one binds). Every figure is worked out by hand
// from the fixtures written here: agent_a1 earns 10 % of the orders through agent_a's page. Time is moved
// by giving the release its `now`, never by waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { differences } from "../../server/domain/money/ledger.ts";
import { recordPayments, releaseDue } from "../../server/domain/money/orders.ts";
import { requestWithdrawal } from "../../server/domain/money/withdrawals.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";

const DAY = 86_400_000;

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let pageId: number;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA] = await Promise.all(["admin", "agent_a"].map((a) => fx.client(a)));
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, withdraw_fee) values ('global', 'Test', 0)
     on conflict (singleton_key) do update set withdraw_fee = 0`,
  );
  const { id } = await fx.createRecord("page", "agent_a");
  pageId = Number(id);
  await fx.setColumn("page", pageId, "profit_model", "price");
  await fx.setColumn("page", pageId, "max_profit", 0);
  const reply = await agentA.post("/merchant/manage-profit-save", {
    id: t.ids.agent_a1,
    settings: [{ page_id: pageId, profit_type: "percent", percent: 0.1 }],
  });
  expect(reply.status, reply.raw).toBe(200);
});
afterAll(() => t?.close());

/** The system settings' profit days and maximum daily profit (null: none). */
async function rules(profitDays: number, maxDailyProfit: number | null) {
  await t.db.query(
    `update "system_setting" set profit_days = $1, max_daily_profit = $2 where singleton_key = 'global'`,
    [profitDays, maxDailyProfit],
  );
}

/** agent_a1's own daily maximum (its plugin settings), or none. */
async function agentCap(amount: number | null) {
  const { id, path } = await fx.owner("agent_a1");
  await t.db.query(`delete from "plugin_setting" where singleton_key = $1`, [path]);
  if (amount !== null)
    await t.db.query(
      `insert into "plugin_setting" (singleton_key, agent_id, agent_path, daily_max_amount, per_order_amount) values ($1, $2, $1, $3, 0)`,
      [path, id, amount],
    );
}

beforeEach(async () => {
  await rules(0, null);
  await agentCap(null);
});

interface Figures {
  withdrawable: number;
  frozen: number;
  total_revenue: number;
}

async function figures(account: string): Promise<Figures> {
  const { rows } = await t.db.query<Figures>(
    `select coalesce(withdrawable, 0)::int as withdrawable, coalesce(frozen, 0)::int as frozen,
            coalesce(total_revenue, 0)::int as total_revenue from "agent" where account = $1`,
    [account],
  );
  return rows[0];
}

let orderSeq = 0;

/** An order of agent_a's through the page, unpaid in the ledger yet. */
async function order(money: number, payTime: Date): Promise<number> {
  const machine = Number(await fx.relatedId("machine", "agent_a"));
  const { id, path } = await fx.owner("agent_a");
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money,
                          refund_money, page_id, device_kind, cost_money, pay_type)
     values ($1, 'VM-S', $2, $3, $4, $5, $5, 'paid', $6, 0, $7, 'vending', 0, 1) returning id`,
    [`S${Date.now()}${++orderSeq}`, machine, id, path, payTime.toISOString(), money, pageId],
  );
  return Number(rows[0].id);
}

/** A paid order, its payment recorded at `now` (a device's payment: now). */
async function paidOrder(money: number, payTime = new Date(), now = new Date()): Promise<number> {
  const id = await order(money, payTime);
  await t.db.transaction((tx) => recordPayments(tx, [id], now));
  return id;
}

async function shareOf(orderId: number): Promise<Row> {
  const { rows } = await t.db.query<Row>(
    `select amount::int, refunded_amount::int, status, available_at, released_at from "profit_record" where order_id = $1`,
    [orderId],
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function entries(orderId: number): Promise<Row[]> {
  const { rows } = await t.db.query<Row>(
    `select kind, agent_id::int, amount::int, balance_change::int, frozen_change::int, revenue_change::int
       from "payment_record" where order_id = $1 and agent_id = $2 order by id`,
    [orderId, t.ids.agent_a1],
  );
  return rows;
}

const release = (now: Date) => t.db.transaction((tx) => releaseDue(tx, { now }));
const expectLedgerAgrees = async () => expect(await differences(t.db)).toEqual([]);

describe("profit days", () => {
  it("keeps a share pending until the profit days have passed, then makes it withdrawable", async () => {
    await rules(7, null);
    const paidAt = new Date(Date.now() - 60_000);
    const [a1, a] = [await figures("agent_a1"), await figures("agent_a")];
    const orderId = await paidOrder(400, paidAt);
    const share = await shareOf(orderId);
    expect(share).toMatchObject({ amount: 40, refunded_amount: 0, status: "shared", released_at: null });
    expect(new Date(share.available_at as string).getTime()).toBe(paidAt.getTime() + 7 * DAY);
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable,
      frozen: a1.frozen + 40,
      total_revenue: a1.total_revenue + 40,
    });
    // The owner's income is not a profit share: withdrawable at once.
    expect(await figures("agent_a")).toEqual({
      ...a,
      withdrawable: a.withdrawable + 360,
      total_revenue: a.total_revenue + 360,
    });
    // The balance answer shows it pending.
    const team = await agentA.get<Row[]>("/merchant/statistics-manage");
    expect(team.status, team.raw).toBe(200);
    expect(team.body.data.find((r) => r.id === t.ids.agent_a1)).toMatchObject({
      withdrawable: a1.withdrawable,
      pending: a1.frozen + 40,
    });

    // A minute before the days have passed: nothing moves.
    expect(await release(new Date(paidAt.getTime() + 7 * DAY - 60_000))).toBe(0);
    expect((await figures("agent_a1")).frozen).toBe(a1.frozen + 40);
    // Once they have: withdrawable, once.
    const later = new Date(paidAt.getTime() + 7 * DAY + 60_000);
    expect(await release(later)).toBe(1);
    expect(await release(later)).toBe(0);
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable + 40,
      frozen: a1.frozen,
      total_revenue: a1.total_revenue + 40,
    });
    expect((await shareOf(orderId)).released_at).not.toBeNull();
    expect(await entries(orderId)).toEqual([
      {
        kind: "profit_share",
        agent_id: t.ids.agent_a1,
        amount: 40,
        balance_change: 0,
        frozen_change: 40,
        revenue_change: 40,
      },
      {
        kind: "profit_release",
        agent_id: t.ids.agent_a1,
        amount: 40,
        balance_change: 40,
        frozen_change: -40,
        revenue_change: 0,
      },
    ]);
    await expectLedgerAgrees();
  });

  it("reverses a refund within the window from pending, and releases only what is left", async () => {
    await rules(7, null);
    const paidAt = new Date(Date.now() - 60_000);
    const orderId = await paidOrder(400, paidAt);
    const [a1, a] = [await figures("agent_a1"), await figures("agent_a")];
    const refund = await admin.post<Row>("/merchant/order-refund", { id: orderId, refund_money: 100 });
    expect(refund.status, refund.raw).toBe(200);
    expect(await shareOf(orderId)).toMatchObject({ amount: 40, refunded_amount: 10, status: "shared" });
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable,
      frozen: a1.frozen - 10,
      total_revenue: a1.total_revenue - 10,
    });
    expect(await figures("agent_a")).toMatchObject({ withdrawable: a.withdrawable - 90 });

    expect(await release(new Date(paidAt.getTime() + 8 * DAY))).toBe(1);
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable + 30,
      frozen: a1.frozen - 40,
      total_revenue: a1.total_revenue - 10,
    });
    // After the window, the rest of the refund takes the released share back from the balance.
    const rest = await admin.post<Row>("/merchant/order-refund", { id: orderId, refund_money: 300 });
    expect(rest.status, rest.raw).toBe(200);
    expect(await shareOf(orderId)).toMatchObject({ refunded_amount: 40, status: "refunded" });
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable,
      frozen: a1.frozen - 40,
      total_revenue: a1.total_revenue - 40,
    });
    expect((await entries(orderId)).map((e) => [e.kind, e.balance_change, e.frozen_change])).toEqual([
      ["profit_share", 0, 40],
      ["profit_reversal", 0, -10],
      ["profit_release", 30, -30],
      ["profit_reversal", -30, 0],
    ]);
    await expectLedgerAgrees();
  });

  it("releases nothing of a share refunded in full within the window", async () => {
    await rules(7, null);
    const orderId = await paidOrder(400);
    const a1 = await figures("agent_a1");
    expect((await admin.post("/merchant/order-refund", { id: orderId, refund_money: 400 })).status).toBe(200);
    expect(await figures("agent_a1")).toEqual({ ...a1, frozen: a1.frozen - 40, total_revenue: a1.total_revenue - 40 });
    await release(new Date(Date.now() + 8 * DAY));
    expect((await figures("agent_a1")).withdrawable).toBe(a1.withdrawable);
    expect((await entries(orderId)).map((e) => e.kind)).toEqual(["profit_share", "profit_reversal"]);
    await expectLedgerAgrees();
  });

  it("credits a payment recorded after its profit days as withdrawable at once", async () => {
    await rules(7, null);
    const a1 = await figures("agent_a1");
    const orderId = await paidOrder(400, new Date(Date.now() - 8 * DAY));
    expect(await figures("agent_a1")).toEqual({
      withdrawable: a1.withdrawable + 40,
      frozen: a1.frozen,
      total_revenue: a1.total_revenue + 40,
    });
    expect((await shareOf(orderId)).released_at).not.toBeNull();
    await expectLedgerAgrees();
  });

  it("with no profit days, a share is withdrawable at once", async () => {
    const a1 = await figures("agent_a1");
    await paidOrder(400);
    expect(await figures("agent_a1")).toEqual({
      ...a1,
      withdrawable: a1.withdrawable + 40,
      total_revenue: a1.total_revenue + 40,
    });
  });

  it("a withdrawal request releases the shares that came due first, and draws on them", async () => {
    await rules(7, null);
    // Paid 8 days ago, recorded then: pending, due a day ago, not released yet.
    const paidAt = new Date(Date.now() - 8 * DAY);
    await paidOrder(400, paidAt, paidAt);
    const a1 = await figures("agent_a1");
    expect(a1.frozen).toBeGreaterThanOrEqual(40);
    // agent_a1's role may not withdraw through the console: the request as data-withdraw-apply makes it.
    const { id, path } = await fx.owner("agent_a1");
    await t.db.transaction((tx) =>
      requestWithdrawal(
        tx,
        { id, path },
        {
          amount: a1.withdrawable + 40,
          legal_name: "Sok Dara",
          payout_method: "social_wallet",
          account_number: "wxid_days",
        },
      ),
    );
    expect(await figures("agent_a1")).toEqual({
      withdrawable: 0,
      frozen: a1.frozen - 40 + a1.withdrawable + 40,
      total_revenue: a1.total_revenue,
    });
    await expectLedgerAgrees();
  });
});

describe("the system's maximum daily profit", () => {
  /** Three orders of 400 on one day (a share of 40 each): the statuses of their shares. */
  async function day(date: string): Promise<string[]> {
    const out: string[] = [];
    for (const hour of ["01", "02", "03"])
      out.push(String((await shareOf(await paidOrder(400, new Date(`${date}T${hour}:00:00Z`)))).status));
    return out;
  }

  it("holds back a share past it, with no maximum of the agent's own", async () => {
    await rules(0, 100);
    const a = await figures("agent_a");
    expect(await day("2026-06-10")).toEqual(["shared", "shared", "not_shared"]);
    // The owner is credited the order in full when the share is held back.
    expect((await figures("agent_a")).withdrawable).toBe(a.withdrawable + 360 + 360 + 400);
    await expectLedgerAgrees();
  });

  it("binds below the agent's own maximum", async () => {
    await rules(0, 50);
    await agentCap(100);
    expect(await day("2026-06-11")).toEqual(["shared", "not_shared", "not_shared"]);
  });

  it("lets the agent's own maximum bind below it", async () => {
    await rules(0, 100);
    await agentCap(50);
    expect(await day("2026-06-12")).toEqual(["shared", "not_shared", "not_shared"]);
  });

  it("counts each day apart, and no maximum when neither is set", async () => {
    await rules(0, 80);
    expect(await day("2026-06-13")).toEqual(["shared", "shared", "not_shared"]);
    expect(await day("2026-06-14")).toEqual(["shared", "shared", "not_shared"]);
    await rules(0, null);
    expect(await day("2026-06-15")).toEqual(["shared", "shared", "shared"]);
  });
});

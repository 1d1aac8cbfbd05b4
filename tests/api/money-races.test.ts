// Thirty clicks at the same moment: every state change that moves money happens exactly once, with one
// ledger entry, and no balance goes below zero. On PGlite the calls queue on its one connection; run with
// DATABASE_URL (npm run test:pg, and CI) the same tests race on PostgreSQL's connection pool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences, post } from "../../server/domain/money/ledger.ts";
import { recordDeliveries } from "../../server/domain/money/deliveries.ts";
import { recordPayments, releaseDue } from "../../server/domain/money/orders.ts";
import { createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";

const CLICKS = 30;

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  admin = await fx.client("admin");
  agentA = await fx.client("agent_a");
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, withdraw_fee) values ('global', 'Test', 0.06)`,
  );
});
afterAll(() => t?.close());

const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
const ok = (replies: Reply[]) => replies.filter((r) => r.status === 200).length;

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await t.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).rows[0].n);
}

async function credit(agentId: number, amount: number) {
  await t.db.transaction((tx) =>
    post(tx, [{ agentId, kind: "order_income", amount, balance: amount, revenue: amount }]),
  );
}

async function withdrawal(amount: number): Promise<Row> {
  await credit(t.ids.agent_a, amount);
  const reply = await agentA.post<Row>("/merchant/data-withdraw-apply", {
    amount,
    legal_name: "Race",
    payout_method: "social_wallet",
    account_number: "wxid_race",
  });
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
}

describe(`${CLICKS} concurrent clicks`, () => {
  it("refund the whole order once", async () => {
    const machine = Number(await fx.relatedId("machine", "agent_a"));
    const { id, path } = await fx.owner("agent_a");
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, device_kind)
       values ('RACE-1', 'VM', $1, $2, $3, now(), now(), 'paid', 700, 0, 'vending') returning id`,
      [machine, id, path],
    );
    const orderId = Number(rows[0].id);
    await t.db.transaction((tx) => recordPayments(tx, [orderId]));
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () => admin.post("/merchant/order-refund", { id: orderId, refund_money: 700 })),
    );
    expect(ok(replies), JSON.stringify(statuses(replies))).toBe(1);
    expect(replies.filter((r) => r.status !== 200).every((r) => r.status === 409 || r.status === 400)).toBe(true);
    expect(await count(`"payment_record" where order_id = $1 and kind = 'refund'`, [orderId])).toBe(1);
    expect((await fx.row("order", orderId))!.refund_money).toBe(700);
    expect(await differences(t.db)).toEqual([]);
  });

  it("approve once", async () => {
    const { id } = await withdrawal(1000);
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () => admin.post("/merchant/data-withdraw-action", { id, action: "approve" })),
    );
    expect(ok(replies)).toBe(1);
    expect(replies.filter((r) => r.status !== 200).map((r) => r.status)).toEqual(Array(CLICKS - 1).fill(409));
    expect(await count(`sys_audit where entity = 'withdrawal' and record_id = $1 and action = 'approve'`, [id])).toBe(
      1,
    );
  });

  it("refuse once, returning the amount once", async () => {
    const { id } = await withdrawal(1500);
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () =>
        admin.post("/merchant/data-withdraw-action", { id, action: "refuse", refuse_reason: "Race" }),
      ),
    );
    expect(ok(replies)).toBe(1);
    expect(await count(`"payment_record" where withdrawal_id = $1 and kind = 'withdrawal_refused'`, [id])).toBe(1);
    expect(await differences(t.db)).toEqual([]);
  });

  it("pay out once, with one payout and one fee entry", async () => {
    const { id } = await withdrawal(2000);
    await admin.post("/merchant/data-withdraw-action", { id, action: "approve" });
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () => admin.post("/merchant/data-withdraw-action", { id, action: "confirm" })),
    );
    expect(ok(replies)).toBe(1);
    expect(
      await count(`"payment_record" where withdrawal_id = $1 and kind in ('withdrawal_payout', 'withdrawal_fee')`, [
        id,
      ]),
    ).toBe(2);
    expect(await differences(t.db)).toEqual([]);
  });

  it("withdraw no more than the balance, however many ask at once", async () => {
    const { withdrawable } = (
      await t.db.query<{ withdrawable: number }>(
        `select coalesce(withdrawable, 0)::int as withdrawable from "agent" where id = $1`,
        [t.ids.agent_a],
      )
    ).rows[0];
    await credit(t.ids.agent_a, 10_000 - withdrawable);
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () =>
        agentA.post("/merchant/data-withdraw-apply", {
          amount: 3000,
          legal_name: "Race",
          payout_method: "social_wallet",
          account_number: "wxid_race",
        }),
      ),
    );
    // 10,000 covers three requests of 3,000; the other 27 find the balance short.
    expect(ok(replies)).toBe(3);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(CLICKS - 3);
    const { rows } = await t.db.query<{ withdrawable: number }>(`select withdrawable::int from "agent" where id = $1`, [
      t.ids.agent_a,
    ]);
    expect(rows[0].withdrawable).toBe(1000);
    expect(await differences(t.db)).toEqual([]);
  });

  it("review a delivery once", async () => {
    const { id } = await fx.insertRecord("delivery_order", "agent_a", {
      estimated_income: 900,
      status: "pending",
      actual_income: null,
      deduction: null,
      review_time: null,
    });
    await t.db.transaction((tx) => recordDeliveries(tx, [Number(id)]));
    const replies = await Promise.all(
      Array.from({ length: CLICKS }, () =>
        admin.post("/merchant/order-recycle-review", { id, outcome: "income", actual_income: 900 }),
      ),
    );
    expect(ok(replies)).toBe(1);
    expect(await count(`"payment_record" where delivery_order_id = $1 and kind = 'delivery_income'`, [id])).toBe(1);
    expect(await differences(t.db)).toEqual([]);
  });
  /** 30 orders of 400 of agent_a's through a page where agent_a1 earns 10 % (40 each), paid at `payTime`. */
  async function sharedOrders(payTime: string): Promise<number[]> {
    const { id: page } = await fx.createRecord("page", "agent_a");
    await fx.setColumn("page", page, "profit_model", "price");
    await fx.setColumn("page", page, "max_profit", 0);
    const saved = await agentA.post("/merchant/manage-profit-save", {
      id: t.ids.agent_a1,
      settings: [{ page_id: Number(page), profit_type: "percent", percent: 0.1 }],
    });
    expect(saved.status, saved.raw).toBe(200);
    const machine = Number(await fx.relatedId("machine", "agent_a"));
    const { id, path } = await fx.owner("agent_a");
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, page_id, device_kind)
       select 'CAP-' || $5 || '-' || g, 'VM', $1, $2, $3, $4, $4, 'paid', 400, 0, $6, 'vending' from generate_series(1, ${CLICKS}) g
       returning id`,
      [machine, id, path, payTime, payTime.slice(0, 10), page],
    );
    return rows.map((r) => Number(r.id));
  }

  it("pay orders against the system's daily maximum: the shares credited never pass it", async () => {
    await t.db.query(
      `update "system_setting" set max_daily_profit = 100, profit_days = 0 where singleton_key = 'global'`,
    );
    try {
      const ids = await sharedOrders("2026-05-20T04:00:00.000Z");
      await Promise.all(ids.map((id) => t.db.transaction((tx) => recordPayments(tx, [id]))));
      // 100 covers two shares of 40; the other 28 are held back and their owner keeps the order.
      const { rows } = await t.db.query<{ status: string; n: number; total: number }>(
        `select status, count(*)::int as n, sum(amount)::int as total from "profit_record"
          where order_id = any($1) group by status order by status`,
        [ids],
      );
      expect(rows).toEqual([
        { status: "not_shared", n: CLICKS - 2, total: 40 * (CLICKS - 2) },
        { status: "shared", n: 2, total: 80 },
      ]);
      expect(await count(`"payment_record" where order_id = any($1) and kind = 'order_income'`, [ids])).toBe(CLICKS);
      expect(await differences(t.db)).toEqual([]);
    } finally {
      await t.db.query(`update "system_setting" set max_daily_profit = null where singleton_key = 'global'`);
    }
  });

  it("pay and refund one device's orders at once: each operator earns its share of each once, and gives back what refunds take", async () => {
    // A device of agent_a's, two operators: operator_a at 10 %, a second at a fixed 30.
    const machine = Number((await fx.insertRecord("machine", "agent_a")).id);
    const second = Number((await fx.insertRecord("operator", "agent_a")).id);
    await t.db.query(
      `insert into "operator_binding" (operator_id, machine_id, profit_type, profit_percent, profit_amount, agent_id, agent_path)
       values ($1, $3, 'percent', 0.1, null, $4, $5), ($2, $3, 'fixed', null, 30, $4, $5)`,
      [t.ids.operator_a, second, machine, t.ids.agent_a, (await fx.owner("agent_a")).path],
    );
    const earnings = async () =>
      (
        await t.db.query<{ id: number; e: number }>(
          `select id::int, coalesce(earnings, 0)::int as e from "operator" where id = any($1) order by id`,
          [[t.ids.operator_a, second]],
        )
      ).rows.map((r) => r.e);
    const [a0, b0] = await earnings();
    const { id, path } = await fx.owner("agent_a");
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, device_kind)
       select 'OPR-' || g, 'VM', $1, $2, $3, now(), now(), 'paid', 500, 0, 'vending' from generate_series(1, ${CLICKS}) g
       returning id`,
      [machine, id, path],
    );
    const ids = rows.map((r) => Number(r.id));
    // Each order recorded by two payments at once: the second waits for the first's lock on the order,
    // then finds it recorded.
    const recorded = await Promise.all(
      ids.flatMap((orderId) => [0, 1].map(() => t.db.transaction((tx) => recordPayments(tx, [orderId])))),
    );
    expect(recorded.reduce((x, y) => x + y, 0)).toBe(CLICKS);
    expect(await count(`"payment_record" where order_id = any($1) and kind = 'order_income'`, [ids])).toBe(CLICKS);
    expect(await earnings()).toEqual([a0 + 50 * CLICKS, b0 + 30 * CLICKS]);
    // Then every order refunded by 200 twice at once (one of each pair may find it refunded past its money:
    // 400 of 500 is fine, so both pass) and the first ten in full.
    const refunds = await Promise.all(
      ids.flatMap((orderId) =>
        [0, 1].map(() => admin.post("/merchant/order-refund", { id: orderId, refund_money: 200 })),
      ),
    );
    expect(ok(refunds)).toBe(2 * CLICKS);
    await Promise.all(
      ids.slice(0, 10).map((orderId) => admin.post("/merchant/order-refund", { id: orderId, refund_money: 100 })),
    );
    // 400 of 500 refunded: 40 of operator_a's 50 and 24 of the second's 30 come back; in full, all of them.
    expect(await earnings()).toEqual([a0 + 10 * (CLICKS - 10), b0 + 6 * (CLICKS - 10)]);
    expect(await count(`"payment_record" where order_id = any($1) and kind = 'operator_share_reversal'`, [ids])).toBe(
      2 * (2 * CLICKS + 10),
    );
    expect(await differences(t.db)).toEqual([]);
  });

  it("release a share that came due once, however many releases run at once", async () => {
    await t.db.query(`update "system_setting" set profit_days = 7 where singleton_key = 'global'`);
    try {
      const ids = (await sharedOrders(new Date().toISOString())).slice(0, 3);
      for (const id of ids) await t.db.transaction((tx) => recordPayments(tx, [id]));
      const due = new Date(Date.now() + 8 * 86_400_000);
      const released = await Promise.all(
        Array.from({ length: CLICKS }, () =>
          t.db.transaction((tx) => releaseDue(tx, { agentIds: [t.ids.agent_a1], now: due })),
        ),
      );
      expect(released.reduce((a, b) => a + b, 0)).toBe(3);
      expect(await count(`"payment_record" where order_id = any($1) and kind = 'profit_release'`, [ids])).toBe(3);
      expect(await differences(t.db)).toEqual([]);
    } finally {
      await t.db.query(`update "system_setting" set profit_days = 0 where singleton_key = 'global'`);
    }
  });
});

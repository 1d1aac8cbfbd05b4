// Money that moves: refunds (partial and full, profit shares reversed in proportion), refused refund
// requests, withdrawals (apply, refuse, confirm with the fee), delivery reviews (single and batch, never of
// one's own), profit settings and the shares a payment makes from them. Every figure below is worked out
// by hand from the fixtures written here; after each case the ledger and the agents' stored figures must
// agree.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences, post } from "../../server/domain/money/ledger.ts";
import { recordDeliveries } from "../../server/domain/money/deliveries.ts";
import { recordPayments } from "../../server/domain/money/orders.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type FieldErrors, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "agent_b"].map((a) => fx.client(a)),
  );
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, withdraw_fee) values ('global', 'Test', 0.06)
     on conflict (singleton_key) do update set withdraw_fee = excluded.withdraw_fee`,
  );
});
afterAll(() => t?.close());

type Owner = "admin" | "agent_a" | "agent_a1" | "agent_b";

interface Figures {
  withdrawable: number;
  frozen: number;
  total_revenue: number;
}

async function figures(account: Owner): Promise<Figures> {
  const { rows } = await t.db.query<Figures>(
    `select coalesce(withdrawable, 0)::int as withdrawable, coalesce(frozen, 0)::int as frozen,
            coalesce(total_revenue, 0)::int as total_revenue from "agent" where account = $1`,
    [account],
  );
  return rows[0];
}

/** A page of the owner's, with the given profit model and maximum profit. */
async function page(owner: Owner, profitModel: "price" | "profit", maxProfit: number): Promise<number> {
  const { id } = await fx.createRecord("page", owner);
  await fx.setColumn("page", id, "profit_model", profitModel);
  await fx.setColumn("page", id, "max_profit", maxProfit);
  return Number(id);
}

let orderSeq = 0;

/** A paid order on the owner's device, through the page, recorded as a device's payment would be. */
async function paidOrder(owner: Owner, pageId: number, money: number, extra: Row = {}): Promise<number> {
  const machine = Number(await fx.relatedId("machine", owner));
  const { id, path } = await fx.owner(owner);
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money,
                          refund_money, page_id, device_kind, cost_money, pay_type)
     values ($1, 'VM-T', $2, $3, $4, $5, $5, 'paid', $6, 0, $7, 'vending', $8, 1) returning id`,
    [
      `T${Date.now()}${++orderSeq}`,
      machine,
      id,
      path,
      (extra.pay_time as string) ?? new Date().toISOString(),
      money,
      pageId,
      (extra.cost_money as number) ?? 0,
    ],
  );
  const orderId = Number(rows[0].id);
  await t.db.transaction((tx) => recordPayments(tx, [orderId]));
  return orderId;
}

async function profitOf(orderId: number): Promise<Row[]> {
  const { rows } = await t.db.query<Row>(
    `select agent_id, amount::int, refunded_amount::int, status from "profit_record" where order_id = $1 order by id`,
    [orderId],
  );
  return rows;
}

async function entries(filter: string, params: unknown[]): Promise<Row[]> {
  const { rows } = await t.db.query<Row>(
    `select kind, agent_id, amount::int, balance_change::int, frozen_change::int, revenue_change::int
       from "payment_record" where ${filter} order by id`,
    params,
  );
  return rows;
}

const expectLedgerAgrees = async () => expect(await differences(t.db)).toEqual([]);

/** agent_a1 earns 10 % of the orders through agent_a's page (no cap), as agent_a set it. */
async function shareSetup(): Promise<number> {
  const pageId = await page("agent_a", "price", 0);
  const reply = await agentA.post("/merchant/manage-profit-save", {
    id: t.ids.agent_a1,
    settings: [{ page_id: pageId, profit_type: "percent", percent: 0.1 }],
  });
  expect(reply.status, reply.raw).toBe(200);
  return pageId;
}

describe("payments and profit shares", () => {
  it("credits the owner the order less the earner's share, and the earner its share", async () => {
    const pageId = await shareSetup();
    const [a1, a] = [await figures("agent_a1"), await figures("agent_a")];
    const orderId = await paidOrder("agent_a", pageId, 400);
    expect(await profitOf(orderId)).toEqual([
      { agent_id: t.ids.agent_a1, amount: 40, refunded_amount: 0, status: "shared" },
    ]);
    expect(await figures("agent_a")).toEqual({
      ...a,
      withdrawable: a.withdrawable + 360,
      total_revenue: a.total_revenue + 360,
    });
    expect(await figures("agent_a1")).toEqual({
      ...a1,
      withdrawable: a1.withdrawable + 40,
      total_revenue: a1.total_revenue + 40,
    });
    // Recording the same payment again changes nothing.
    await t.db.transaction((tx) => recordPayments(tx, [orderId]));
    expect((await figures("agent_a")).withdrawable).toBe(a.withdrawable + 360);
    await expectLedgerAgrees();
  });

  it("shares a percentage of the profit (order less cost) on a profit-model page, capped by its maximum", async () => {
    const pageId = await page("agent_a", "profit", 25);
    await agentA.post("/merchant/manage-profit-save", {
      id: t.ids.agent_a1,
      settings: [{ page_id: pageId, profit_type: "percent", percent: 0.2 }],
    });
    // 20 % of (1000 - 600) = 80, capped at the page's 25.
    const capped = await paidOrder("agent_a", pageId, 1000, { cost_money: 600 });
    expect((await profitOf(capped)).map((p) => p.amount)).toEqual([25]);
    // 20 % of (300 - 250) = 10, under the cap.
    const small = await paidOrder("agent_a", pageId, 300, { cost_money: 250 });
    expect((await profitOf(small)).map((p) => p.amount)).toEqual([10]);
    // The page set to share the excess: the same order's share goes above the maximum.
    await fx.setColumn("page", pageId, "share_excess", 1);
    const excess = await paidOrder("agent_a", pageId, 1000, { cost_money: 600 });
    expect((await profitOf(excess)).map((p) => p.amount)).toEqual([80]);
    const { rows } = await t.db.query<{ amount: number }>(
      `select amount::int from "payment_record" where order_id = $1 and kind = 'order_income'`,
      [excess],
    );
    expect(rows).toEqual([{ amount: 920 }]);
    await expectLedgerAgrees();
  });

  it("holds back a share past the earner's daily maximum, and pays the owner in full for that order", async () => {
    const pageId = await shareSetup();
    const { id, path } = await fx.owner("agent_a1");
    await t.db.query(
      `insert into "plugin_setting" (singleton_key, agent_id, agent_path, daily_max_amount, per_order_amount) values ($1, $2, $1, 50, 0)`,
      [path, id],
    );
    try {
      const day = "2026-06-01T03:00:00.000Z";
      const first = await paidOrder("agent_a", pageId, 400, { pay_time: day });
      const before = await figures("agent_a");
      const second = await paidOrder("agent_a", pageId, 400, { pay_time: "2026-06-01T05:00:00.000Z" });
      expect((await profitOf(first)).map((p) => p.status)).toEqual(["shared"]);
      expect(await profitOf(second)).toEqual([
        { agent_id: t.ids.agent_a1, amount: 40, refunded_amount: 0, status: "not_shared" },
      ]);
      expect((await figures("agent_a")).withdrawable).toBe(before.withdrawable + 400);
    } finally {
      await t.db.query(`delete from "plugin_setting" where singleton_key = $1`, [path]);
    }
    await expectLedgerAgrees();
  });
});

describe("order-refund", () => {
  it("adds partial refunds up, reverses the shares in proportion, and ends in refund_success", async () => {
    const pageId = await shareSetup();
    const orderId = await paidOrder("agent_a", pageId, 400);
    const [a1, a] = [await figures("agent_a1"), await figures("agent_a")];

    const partial = await admin.post<Row>("/merchant/order-refund", { id: orderId, refund_money: 100 });
    expect(partial.status, partial.raw).toBe(200);
    expect(partial.body.data).toMatchObject({ pay_status: "partial_refund", refund_money: 100, refundable_money: 300 });
    expect(partial.body.data.refund_time).toBeTypeOf("string");
    expect(partial.body.data.refund_request_time).toBeTypeOf("string");
    expect(await profitOf(orderId)).toEqual([
      { agent_id: t.ids.agent_a1, amount: 40, refunded_amount: 10, status: "shared" },
    ]);
    expect((await figures("agent_a")).withdrawable).toBe(a.withdrawable - 90);
    expect((await figures("agent_a1")).withdrawable).toBe(a1.withdrawable - 10);

    const rest = await admin.post<Row>("/merchant/order-refund", { id: orderId, refund_money: 300 });
    expect(rest.status, rest.raw).toBe(200);
    expect(rest.body.data).toMatchObject({ pay_status: "refund_success", refund_money: 400, refundable_money: 0 });
    expect(await profitOf(orderId)).toEqual([
      { agent_id: t.ids.agent_a1, amount: 40, refunded_amount: 40, status: "refunded" },
    ]);
    expect(await figures("agent_a")).toMatchObject({
      withdrawable: a.withdrawable - 360,
      total_revenue: a.total_revenue - 360,
    });
    expect(await figures("agent_a1")).toMatchObject({
      withdrawable: a1.withdrawable - 40,
      total_revenue: a1.total_revenue - 40,
    });
    expect(await entries("order_id = $1 and kind in ('refund', 'profit_reversal')", [orderId])).toEqual([
      {
        kind: "profit_reversal",
        agent_id: t.ids.agent_a1,
        amount: 10,
        balance_change: -10,
        frozen_change: 0,
        revenue_change: -10,
      },
      {
        kind: "refund",
        agent_id: t.ids.agent_a,
        amount: 90,
        balance_change: -90,
        frozen_change: 0,
        revenue_change: -90,
      },
      {
        kind: "profit_reversal",
        agent_id: t.ids.agent_a1,
        amount: 30,
        balance_change: -30,
        frozen_change: 0,
        revenue_change: -30,
      },
      {
        kind: "refund",
        agent_id: t.ids.agent_a,
        amount: 270,
        balance_change: -270,
        frozen_change: 0,
        revenue_change: -270,
      },
    ]);

    const again = await admin.post("/merchant/order-refund", { id: orderId, refund_money: 1 });
    expect(again.status).toBe(409);
    await expectLedgerAgrees();
  });

  it("refuses more than can still be refunded, in the caller's language, and changes nothing", async () => {
    const orderId = await paidOrder("agent_a1", await page("agent_a1", "price", 0), 300);
    const before = await figures("agent_a1");
    const en = await admin.post("/merchant/order-refund", { id: orderId, refund_money: 301 });
    expect(en.status).toBe(400);
    expect((en.body.data as FieldErrors).errors).toEqual([
      {
        field: "refund_money",
        keyword: "refundAboveRefundable",
        message: "The refund is more than the 3.00 that can still be refunded",
      },
    ]);
    const zh = await (
      await fx.clientIn("admin", "zh")
    ).post("/merchant/order-refund", { id: orderId, refund_money: 0 });
    expect(zh.status).toBe(400);
    expect((zh.body.data as FieldErrors).errors[0]).toMatchObject({
      field: "refund_money",
      message: "退款金额不能小于 0.01",
    });
    expect(await figures("agent_a1")).toEqual(before);
    expect((await fx.row("order", orderId))!.pay_status).toBe("paid");
  });

  it("names amounts in the settings' currency, as the reader's language writes it", async () => {
    const orderId = await paidOrder("agent_a1", await page("agent_a1", "price", 0), 123456);
    await t.db.query(`update "system_setting" set currency = 'USD' where singleton_key = 'global'`);
    try {
      const en = await admin.post("/merchant/order-refund", { id: orderId, refund_money: 123457 });
      expect((en.body.data as FieldErrors).errors[0].message).toBe(
        "The refund is more than the $1,234.56 that can still be refunded",
      );
      const zh = await (
        await fx.clientIn("admin", "zh")
      ).post("/merchant/order-refund", { id: orderId, refund_money: 0 });
      expect((zh.body.data as FieldErrors).errors[0].message).toBe("退款金额不能小于 US$0.01");
    } finally {
      await t.db.query(`update "system_setting" set currency = null where singleton_key = 'global'`);
    }
  });

  it("refuses a refund the owner's balance cannot cover, and changes nothing", async () => {
    const orderId = await paidOrder("agent_b", await page("agent_b", "price", 0), 500);
    const { withdrawable } = await figures("agent_b");
    await t.db.transaction((tx) =>
      post(tx, [
        {
          agentId: t.ids.agent_b,
          kind: "withdrawal_request",
          amount: withdrawable,
          balance: -withdrawable,
          frozen: withdrawable,
        },
      ]),
    );
    const reply = await admin.post("/merchant/order-refund", { id: orderId, refund_money: 200 });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe("agent b has 0.00 available, less than the 2.00 this needs");
    expect((await fx.row("order", orderId))!.refund_money).toBe(0);
    await expectLedgerAgrees();
  });

  it("keeps another agent's orders out of reach, and refuses a role without the permission", async () => {
    const orderId = await paidOrder("agent_a1", await page("agent_a1", "price", 0), 200);
    expect((await agentB.post("/merchant/order-refund", { id: orderId, refund_money: 100 })).status).toBe(404);
    expect((await agentA1.post("/merchant/order-refund", { id: orderId, refund_money: 100 })).status).toBe(403);
    expect((await agentA.post("/merchant/order-refund", { id: orderId, refund_money: 100 })).status).toBe(200);
  });
});

describe("order-check", () => {
  it("refuses a refund request: back to paid, or to partial_refund after an earlier refund", async () => {
    const pageId = await page("agent_a1", "price", 0);
    const fresh = await paidOrder("agent_a1", pageId, 200);
    await fx.setColumn("order", fresh, "pay_status", "refund_requested");
    const back = await agentA.post<Row>("/merchant/order-check", { id: fresh });
    expect(back.status, back.raw).toBe(200);
    expect(back.body.data.pay_status).toBe("paid");

    const partly = await paidOrder("agent_a1", pageId, 200);
    await admin.post("/merchant/order-refund", { id: partly, refund_money: 50 });
    await fx.setColumn("order", partly, "pay_status", "refund_requested");
    const kept = await admin.post<Row>("/merchant/order-check", { id: partly });
    expect(kept.body.data).toMatchObject({ pay_status: "partial_refund", refund_money: 50 });

    expect((await admin.post("/merchant/order-check", { id: partly })).status).toBe(409);
    expect((await agentB.post("/merchant/order-check", { id: fresh })).status).toBe(404);
    expect((await agentA1.post("/merchant/order-check", { id: fresh })).status).toBe(403);
    expect((await admin.post("/merchant/order-check", {})).status).toBe(400);
  });
});

describe("withdrawals", () => {
  /** Credits the agent an income, so it has something to withdraw. */
  const credit = (agentId: number, amount: number) =>
    t.db.transaction((tx) => post(tx, [{ agentId, kind: "order_income", amount, balance: amount, revenue: amount }]));
  const apply = (client: Client, amount: number) =>
    client.post<Row>("/merchant/data-withdraw-apply", {
      amount,
      legal_name: "Sok Dara",
      payout_method: "social_wallet",
      account_number: "wxid_test",
    });

  it("moves the amount to pending on request, works out the fee, and refuses more than the balance", async () => {
    await credit(t.ids.agent_a, 5000);
    const before = await figures("agent_a");
    const reply = await apply(agentA, 3000);
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toMatchObject({
      status: "pending",
      amount: 3000,
      fee: 180,
      final_amount: 2820,
      agent_id: t.ids.agent_a,
    });
    expect(await figures("agent_a")).toEqual({
      ...before,
      withdrawable: before.withdrawable - 3000,
      frozen: before.frozen + 3000,
    });
    const tooMuch = await apply(agentA, before.withdrawable - 3000 + 100);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toMatch(/^agent a has [\d.]+ available, less than the [\d.]+ this needs$/);
    const bank = await agentA.post("/merchant/data-withdraw-apply", {
      amount: 100,
      legal_name: "Sok Dara",
      payout_method: "bank_transfer",
      account_number: "0001",
    });
    expect(bank.status).toBe(400);
    expect(errorFields(bank).sort()).toEqual(["bank_name", "branch", "city", "province"]);
    await expectLedgerAgrees();
  });

  it("returns the amount when refused, once; records the payout and the fee when paid, once", async () => {
    await credit(t.ids.agent_a, 10_000);
    const refused = (await apply(agentA, 2000)).body.data;
    const before = await figures("agent_a");
    const refuse = await admin.post<Row>("/merchant/data-withdraw-action", {
      id: refused.id,
      action: "refuse",
      refuse_reason: "Name mismatch",
    });
    expect(refuse.status, refuse.raw).toBe(200);
    expect(await figures("agent_a")).toEqual({
      ...before,
      withdrawable: before.withdrawable + 2000,
      frozen: before.frozen - 2000,
    });
    expect(
      (await admin.post("/merchant/data-withdraw-action", { id: refused.id, action: "refuse", refuse_reason: "x" }))
        .status,
    ).toBe(409);

    const paid = (await apply(agentA, 5000)).body.data;
    // Nobody reviews their own request, whatever the role allows; a role without review may not either.
    expect((await agentA.post("/merchant/data-withdraw-action", { id: paid.id, action: "approve" })).status).toBe(403);
    expect((await agentA1.post("/merchant/data-withdraw-action", { id: paid.id, action: "approve" })).status).toBe(403);
    expect((await admin.post("/merchant/data-withdraw-action", { id: paid.id, action: "confirm" })).status).toBe(409);
    expect((await admin.post("/merchant/data-withdraw-action", { id: paid.id, action: "approve" })).status).toBe(200);
    const mid = await figures("agent_a");
    const confirm = await admin.post<Row>("/merchant/data-withdraw-action", { id: paid.id, action: "confirm" });
    expect(confirm.status, confirm.raw).toBe(200);
    expect(confirm.body.data).toMatchObject({ status: "paid", final_amount: 4700 });
    expect(confirm.body.data.paid_time).toBeTypeOf("string");
    expect(await figures("agent_a")).toEqual({ ...mid, frozen: mid.frozen - 5000 });
    expect(await entries("withdrawal_id = $1", [paid.id])).toEqual([
      {
        kind: "withdrawal_request",
        agent_id: t.ids.agent_a,
        amount: 5000,
        balance_change: -5000,
        frozen_change: 5000,
        revenue_change: 0,
      },
      {
        kind: "withdrawal_payout",
        agent_id: t.ids.agent_a,
        amount: 4700,
        balance_change: 0,
        frozen_change: -4700,
        revenue_change: 0,
      },
      {
        kind: "withdrawal_fee",
        agent_id: t.ids.agent_a,
        amount: 300,
        balance_change: 0,
        frozen_change: -300,
        revenue_change: 0,
      },
    ]);
    await expectLedgerAgrees();
  });

  it("lists a review queue in the order asked: pending before approved, each oldest first", async () => {
    await credit(t.ids.agent_a, 4000);
    const made = [];
    for (let i = 0; i < 4; i++) made.push((await apply(agentA, 500)).body.data);
    await fx.setColumn("withdrawal", made[0].id, "status", "approved");
    await fx.setColumn("withdrawal", made[2].id, "status", "approved");
    for (const [i, w] of made.entries())
      await fx.setColumn("withdrawal", w.id, "request_time", `2026-01-0${5 - i}T00:00:00Z`);
    const reply = await admin.get<{ list: Row[] }>(
      `/merchant/data-withdraw-list?id=${made.map((w) => w.id).join(",")}&sort=status,request_time&order=desc,asc`,
    );
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.list.map((w) => w.id)).toEqual([made[3].id, made[1].id, made[2].id, made[0].id]);
    const bad = await admin.get("/merchant/data-withdraw-list?sort=status,legal_name,amount,fee");
    expect(bad.status).toBe(400);
  });

  it("shows the agent's balance beside each request", async () => {
    await credit(t.ids.agent_a, 1000);
    const request = (await apply(agentA, 500)).body.data;
    const { withdrawable } = await figures("agent_a");
    const listed = await admin.get<{ list: Row[] }>(`/merchant/data-withdraw-list?id=${request.id}`);
    expect(listed.body.data.list[0]).toMatchObject({ id: request.id, agent_withdrawable: withdrawable });
  });

  it("serves recycling withdrawals apart, with the same review", async () => {
    await credit(t.ids.agent_a, 3000);
    const earnings = (await apply(agentA, 1000)).body.data;
    const recycling = (
      await agentA.post<Row>("/merchant/data-withdraw-apply", {
        amount: 1000,
        legal_name: "Sok Dara",
        payout_method: "online_wallet",
        account_number: "sok@wallet.example",
        source: "recycling",
      })
    ).body.data;
    const listed = await admin.get<{ list: Row[] }>(
      `/merchant/recycle-withdraw-list?id=${earnings.id},${recycling.id}`,
    );
    expect(listed.body.data.list.map((r) => r.id)).toEqual([recycling.id]);
    expect((await admin.post("/merchant/recycle-withdraw-action", { id: earnings.id, action: "approve" })).status).toBe(
      404,
    );
    const approve = await admin.post<Row>("/merchant/recycle-withdraw-action", { id: recycling.id, action: "approve" });
    expect(approve.body.data.status).toBe("approved");
    expect((await agentB.get(`/merchant/recycle-withdraw-list?id=${recycling.id}`)).body.data).toMatchObject({
      total: 0,
    });
  });
});

describe("delivery review", () => {
  async function delivery(owner: Owner, estimated: number): Promise<number> {
    const { id } = await fx.insertRecord("delivery_order", owner, {
      estimated_income: estimated,
      status: "pending",
      actual_income: null,
      deduction: null,
      remark: null,
      review_time: null,
    });
    await t.db.transaction((tx) => recordDeliveries(tx, [Number(id)]));
    return Number(id);
  }

  it("credits the actual income or deducts in full, for a batch, and sets the review time", async () => {
    // agent_a reviews its sub-agent's deliveries (never its own: see below).
    const before = await figures("agent_a1");
    const [one, two] = [await delivery("agent_a1", 1500), await delivery("agent_a1", 800)];
    expect(await figures("agent_a1")).toEqual({ ...before, frozen: before.frozen + 2300 });
    const income = await agentA.post("/merchant/order-recycle-review", {
      id: [one],
      outcome: "income",
      actual_income: 1200,
      remark: "Wet",
    });
    expect(income.status, income.raw).toBe(200);
    const deduction = await agentA.post("/merchant/order-recycle-review", {
      id: two,
      outcome: "deduction",
      remark: "Mixed waste",
    });
    expect(deduction.status, deduction.raw).toBe(200);
    expect(await figures("agent_a1")).toEqual({
      withdrawable: before.withdrawable + 1200,
      frozen: before.frozen,
      total_revenue: before.total_revenue + 1200,
    });
    expect(await fx.row("delivery_order", one)).toMatchObject({
      status: "processed",
      actual_income: 1200,
      deduction: 0,
      remark: "Wet",
    });
    expect(await fx.row("delivery_order", two)).toMatchObject({
      status: "processed",
      actual_income: 0,
      deduction: 800,
    });
    expect((await fx.row("delivery_order", one))!.review_time).not.toBeNull();
    await expectLedgerAgrees();
  });

  it("reviews all of a batch or none", async () => {
    const [a, b, done] = [
      await delivery("agent_a1", 500),
      await delivery("agent_a1", 500),
      await delivery("agent_a1", 500),
    ];
    await agentA.post("/merchant/order-recycle-review", { id: [done], outcome: "deduction" });
    const before = await figures("agent_a1");
    const batch = await agentA.post("/merchant/order-recycle-review", { id: [a, b, done], outcome: "deduction" });
    expect(batch.status).toBe(409);
    expect((await fx.row("delivery_order", a))!.status).toBe("pending");
    expect(await figures("agent_a1")).toEqual(before);
    const ok = await agentA.post<{ count: number }>("/merchant/order-recycle-review", {
      id: [a, b],
      outcome: "deduction",
    });
    expect(ok.body.data).toEqual({ count: 2 });
  });

  it("takes either an income or a full deduction, and an income at most the estimate", async () => {
    const id = await delivery("agent_a1", 700);
    const neither = await agentA.post("/merchant/order-recycle-review", { id, outcome: "income" });
    expect(errorFields(neither)).toEqual(["actual_income"]);
    const both = await agentA.post("/merchant/order-recycle-review", { id, outcome: "deduction", actual_income: 100 });
    expect(both.status).toBe(400);
    const above = await agentA.post("/merchant/order-recycle-review", { id, outcome: "income", actual_income: 701 });
    expect((above.body.data as FieldErrors).errors).toEqual([
      {
        field: "actual_income",
        keyword: "incomeAboveEstimate",
        message: "The actual income cannot be more than the estimated 7.00",
      },
    ]);
    expect((await agentB.post("/merchant/order-recycle-review", { id, outcome: "deduction" })).status).toBe(404);
    expect((await agentA1.post("/merchant/order-recycle-review", { id, outcome: "deduction" })).status).toBe(403);
    expect((await fx.row("delivery_order", id))!.status).toBe("pending");
  });

  /** The entries a review made for the deliveries (a pending one has its delivery_pending entry only). */
  const reviewEntries = (ids: number[]) => entries("delivery_order_id = any($1) and kind <> 'delivery_pending'", [ids]);

  it("refuses an agent's review of its own delivery, alone or in a batch, and touches none of the batch", async () => {
    const own = await delivery("agent_a", 600);
    const sub = await delivery("agent_a1", 400);
    const [mine, theirs] = [await figures("agent_a"), await figures("agent_a1")];
    for (const body of [
      { id: own, outcome: "income", actual_income: 600 },
      { id: [own], outcome: "deduction" },
      { id: [sub, own], outcome: "income", actual_income: 400 },
      { id: [own, sub], outcome: "deduction", remark: "Mixed waste" },
    ]) {
      const reply = await agentA.post("/merchant/order-recycle-review", body);
      expect(reply.status, reply.raw).toBe(403);
      expect(reply.body.message).toBe("You do not have permission for this action");
    }
    const zh = await (
      await fx.clientIn("agent_a", "zh")
    ).post("/merchant/order-recycle-review", {
      id: own,
      outcome: "deduction",
    });
    expect(zh.status).toBe(403);
    expect(zh.body.message).toBe("您没有此操作的权限");
    for (const id of [own, sub])
      expect(await fx.row("delivery_order", id)).toMatchObject({
        status: "pending",
        actual_income: null,
        deduction: null,
        remark: null,
        review_time: null,
      });
    expect(await reviewEntries([own, sub])).toEqual([]);
    expect([await figures("agent_a"), await figures("agent_a1")]).toEqual([mine, theirs]);
    // Another agent's delivery in the batch: not found, before anything else.
    const foreign = await delivery("agent_b", 300);
    expect(
      (await agentA.post("/merchant/order-recycle-review", { id: [own, foreign], outcome: "deduction" })).status,
    ).toBe(404);
    expect((await agentA.post("/merchant/order-recycle-review", { id: foreign, outcome: "deduction" })).status).toBe(
      404,
    );
    // The sub-agent's alone is agent_a's to review.
    const ok = await agentA.post<{ count: number }>("/merchant/order-recycle-review", {
      id: [sub],
      outcome: "income",
      actual_income: 400,
    });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.data).toEqual({ count: 1 });
    expect(await figures("agent_a1")).toEqual({
      withdrawable: theirs.withdrawable + 400,
      frozen: theirs.frozen - 400,
      total_revenue: theirs.total_revenue + 400,
    });
    expect((await fx.row("delivery_order", own))!.status).toBe("pending");
    await expectLedgerAgrees();
  });

  it("lets the platform admin review any delivery, its own included", async () => {
    const [a, b, own] = [await delivery("agent_a", 900), await delivery("agent_b", 200), await delivery("admin", 500)];
    const [figA, figB, figAdmin] = [await figures("agent_a"), await figures("agent_b"), await figures("admin")];
    const batch = await admin.post<{ count: number }>("/merchant/order-recycle-review", {
      id: [a, b],
      outcome: "income",
      actual_income: 200,
    });
    expect(batch.status, batch.raw).toBe(200);
    expect(batch.body.data).toEqual({ count: 2 });
    const self = await admin.post<{ count: number }>("/merchant/order-recycle-review", {
      id: own,
      outcome: "deduction",
    });
    expect(self.status, self.raw).toBe(200);
    expect(await figures("agent_a")).toEqual({
      withdrawable: figA.withdrawable + 200,
      frozen: figA.frozen - 900,
      total_revenue: figA.total_revenue + 200,
    });
    expect(await figures("agent_b")).toEqual({
      withdrawable: figB.withdrawable + 200,
      frozen: figB.frozen - 200,
      total_revenue: figB.total_revenue + 200,
    });
    expect(await figures("admin")).toEqual({ ...figAdmin, frozen: figAdmin.frozen - 500 });
    expect(await reviewEntries([own])).toEqual([
      {
        kind: "delivery_deduction",
        agent_id: t.ids.admin,
        amount: 500,
        balance_change: 0,
        frozen_change: -500,
        revenue_change: 0,
      },
    ]);
    await expectLedgerAgrees();
  });
});

describe("profit settings", () => {
  it("answers an agent's settings and the pages they can be set for", async () => {
    const pageId = await shareSetup();
    const settings = await agentA.get<Row>(`/merchant/manage-profit-user?id=${t.ids.agent_a1}`);
    expect(settings.body.data).toEqual({
      id: t.ids.agent_a1,
      settings: [{ page_id: pageId, profit_type: "percent", percent: 0.1 }],
    });
    const pages = await agentA.get<Row[]>(`/merchant/manage-profit-page?id=${t.ids.agent_a1}`);
    expect(pages.body.data.map((p) => p.id)).toContain(pageId);
    expect((await agentB.get(`/merchant/manage-profit-user?id=${t.ids.agent_a1}`)).status).toBe(404);
  });

  it("refuses incomplete settings, a share above the maximum, one's own and another's agents", async () => {
    const pageId = await page("agent_a", "price", 30);
    const save = (client: Client, id: number, settings: Row[]) =>
      client.post("/merchant/manage-profit-save", { id, settings });
    const incomplete = await save(agentA, t.ids.agent_a1, [{ page_id: pageId, profit_type: "percent" }]);
    expect((incomplete.body.data as FieldErrors).errors).toEqual([
      { field: "settings/0/percent", keyword: "noProfitSettings", message: "No profit settings configured" },
    ]);
    const above = await save(agentA, t.ids.agent_a1, [{ page_id: pageId, profit_type: "fixed", amount: 31 }]);
    expect((above.body.data as FieldErrors).errors).toEqual([
      { field: "settings/0/amount", keyword: "shareExceedsMax", message: "Share amount exceeds maximum limit (0.30)" },
    ]);
    expect((await save(agentA, t.ids.agent_a, [])).status).toBe(400);
    expect((await save(agentB, t.ids.agent_a1, [])).status).toBe(404);
    expect((await save(agentA1, t.ids.agent_a1, [])).status).toBe(403);
    const otherPage = await page("agent_b", "price", 0);
    const foreign = await save(agentA, t.ids.agent_a1, [{ page_id: otherPage, profit_type: "fixed", amount: 5 }]);
    expect(errorFields(foreign)).toEqual(["settings/0/page_id"]);
    const ok = await save(agentA, t.ids.agent_a1, [{ page_id: pageId, profit_type: "fixed", amount: 30 }]);
    expect(ok.body.data).toEqual({ count: 1 });
  });
});

describe("who may call the money operations", () => {
  it("refuses a role without the permission (403) and keeps other agents' records out of reach (404)", async () => {
    // agent_a1's role lists goods, orders and devices only.
    expect((await agentA1.post("/merchant/data-withdraw-apply", { amount: 100 })).status).toBe(403);
    expect((await agentA1.get("/merchant/recycle-withdraw-list")).status).toBe(403);
    expect((await agentA1.get("/merchant/data-promote-profit-list")).status).toBe(403);
    expect((await agentA1.get(`/merchant/manage-profit-user?id=${t.ids.agent_a1}`)).status).toBe(403);
    expect((await agentA1.get(`/merchant/manage-profit-page?id=${t.ids.agent_a1}`)).status).toBe(403);
    expect((await agentB.get(`/merchant/manage-profit-page?id=${t.ids.agent_a1}`)).status).toBe(404);
    const invite = await fx.insertRecord("profit_record", "agent_a", { type: "invite", status: "shared" });
    const seen = await agentB.get<{ list: Row[] }>(`/merchant/data-promote-profit-list?id=${invite.id}`);
    expect(seen.body.data.list).toEqual([]);
    const recycling = await fx.insertRecord("withdrawal", "agent_a", { source: "recycling", status: "pending" });
    expect(
      (await agentA1.post("/merchant/recycle-withdraw-action", { id: recycling.id, action: "approve" })).status,
    ).toBe(404);
    expect(
      (await agentB.post("/merchant/recycle-withdraw-action", { id: recycling.id, action: "approve" })).status,
    ).toBe(404);
  });

  it("answers field errors in the caller's language", async () => {
    const th = await (await fx.clientIn("agent_a", "th")).post("/merchant/data-withdraw-apply", { amount: 50 });
    expect(th.status).toBe(400);
    const messages = (th.body.data as FieldErrors).errors.map((e) => e.message);
    expect(messages).toContain("จำนวนเงิน ต้องไม่น้อยกว่า 1.00");
    expect(messages).toContain("กรุณาระบุเลขที่บัญชี");
    expect(messages.every((m) => /[\u0e00-\u0e7f]/.test(m))).toBe(true);
  });
});

describe("ledger check", () => {
  it("reports a stored figure that differs from the sum of its entries", async () => {
    await expectLedgerAgrees();
    const before = await figures("agent_b");
    await t.db.query(`update "agent" set frozen = coalesce(frozen, 0) + 7 where account = 'agent_b'`);
    try {
      expect(await differences(t.db)).toEqual([
        {
          who: "agent",
          id: t.ids.agent_b,
          nickname: "agent b",
          figure: "frozen",
          stored: before.frozen + 7,
          ledger: before.frozen,
        },
      ]);
    } finally {
      await t.db.query(`update "agent" set frozen = coalesce(frozen, 0) - 7 where account = 'agent_b'`);
    }
  });
});

describe("profit lists", () => {
  it("lists the invite records apart", async () => {
    const { id } = await fx.insertRecord("profit_record", "agent_a", { type: "invite", status: "shared", amount: 100 });
    const normal = await fx.insertRecord("profit_record", "agent_a", { type: "normal" });
    const reply = await agentA.get<{ list: Row[] }>(`/merchant/data-promote-profit-list?id=${id},${normal.id}`);
    expect(reply.body.data.list.map((r) => r.id)).toEqual([id]);
  });
});

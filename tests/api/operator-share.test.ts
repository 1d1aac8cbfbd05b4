// Operators' shares (README "Money", issue 31): an operator bound to a device with a profit type earns that
// share of what the device's owner keeps of each paid order, through the ledger (an expense of the owner
// naming the operator, its earnings raised in the same statement), and a refund takes back the same
// proportion. Every figure below is worked out by hand from the fixtures, apart from the code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences } from "../../server/domain/money/ledger.ts";
import { recordPayments } from "../../server/domain/money/orders.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type ListData, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let agentA: Client;
let machine: number;
/** A second operator of agent_a's, bound with a fixed share. */
let second: number;
let seq = 0;

interface Entry {
  agent_id: number;
  kind: string;
  amount: number;
  balance_change: number;
  revenue_change: number;
  operator_id: number | null;
  operator_name: string | null;
  remark: string | null;
}

const entries = async (orderId: number): Promise<Entry[]> =>
  (
    await t.db.query<Entry>(
      `select agent_id::int, kind, amount::int, balance_change::int, revenue_change::int, operator_id::int, operator_name, remark
         from "payment_record" where order_id = $1 order by id`,
      [orderId],
    )
  ).rows;

const earnings = async (operatorId: number): Promise<number> =>
  Number(
    (
      await t.db.query<{ e: number }>(`select coalesce(earnings, 0)::int as e from "operator" where id = $1`, [
        operatorId,
      ])
    ).rows[0]?.e,
  );

/** A paid order of `money` on the device (agent_a's), its payment recorded. */
async function paid(money: number, device = machine): Promise<number> {
  const { id, path } = await fx.owner("agent_a");
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, device_kind)
     values ($1, 'VM-OP', $2, $3, $4, now(), now(), 'paid', $5, 0, 'vending') returning id`,
    [`OP-${++seq}`, device, id, path, money],
  );
  const orderId = Number(rows[0].id);
  expect(await t.db.transaction((tx) => recordPayments(tx, [orderId]))).toBe(1);
  return orderId;
}

async function bind(operatorId: number, device: number, share: Row): Promise<void> {
  const reply = await agentA.post("/merchant/operator-bind-machine", {
    operator_id: operatorId,
    machine_id: device,
    ...share,
  });
  expect(reply.status, reply.raw).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  agentA = await fx.client("agent_a");
  machine = Number((await fx.insertRecord("machine", "agent_a")).id);
  const made = await agentA.post<Row>("/merchant/operator-add", {
    nickname: "Vanna Sok",
    account: "vanna_ops",
    password: "restock-2026",
    confirm_password: "restock-2026",
  });
  expect(made.status, made.raw).toBe(200);
  second = Number(made.body.data.id);
  await bind(t.ids.operator_a, machine, { profit_type: "percent", profit_percent: 0.1 });
  await bind(second, machine, { profit_type: "fixed", profit_amount: 50 });
});
afterAll(() => t?.close());

describe("a payment", () => {
  it("pays each bound operator its share of the owner's income, from the owner, in the order they were bound", async () => {
    const before = { a: await earnings(t.ids.operator_a), b: await earnings(second) };
    const order = await paid(1000);
    const a = t.ids.agent_a;
    expect(await entries(order)).toEqual([
      entry(a, "order_income", 1000, 1000),
      {
        ...entry(a, "operator_share", 100, -100),
        operator_id: t.ids.operator_a,
        operator_name: "Operator A",
      },
      { ...entry(a, "operator_share", 50, -50), operator_id: second, operator_name: "Vanna Sok" },
    ]);
    expect(await earnings(t.ids.operator_a)).toBe(before.a + 100);
    expect(await earnings(second)).toBe(before.b + 50);
    expect(await differences(t.db)).toEqual([]);
  });

  it("shares what the owner keeps after its superiors' shares", async () => {
    const { id: page } = await fx.createRecord("page", "agent_a");
    await fx.setColumn("page", page, "profit_model", "price");
    await fx.setColumn("page", page, "max_profit", 0);
    const saved = await agentA.post("/merchant/manage-profit-save", {
      id: t.ids.agent_a1,
      settings: [{ page_id: Number(page), profit_type: "percent", percent: 0.2 }],
    });
    expect(saved.status, saved.raw).toBe(200);
    const { id, path } = await fx.owner("agent_a");
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, page_id, device_kind)
       values ('OP-PAGE', 'VM-OP', $1, $2, $3, now(), now(), 'paid', 400, 0, $4, 'vending') returning id`,
      [machine, id, path, page],
    );
    const order = Number(rows[0].id);
    await t.db.transaction((tx) => recordPayments(tx, [order]));
    // 400: agent_a1 earns 80; agent_a keeps 320, of which operator A earns 10 % (32) and the second 50.
    expect((await entries(order)).map((e) => [e.agent_id, e.kind, e.amount])).toEqual([
      [t.ids.agent_a1, "profit_share", 80],
      [t.ids.agent_a, "order_income", 320],
      [t.ids.agent_a, "operator_share", 32],
      [t.ids.agent_a, "operator_share", 50],
    ]);
  });

  it("caps each share at the order's page's maximum profit, unless the binding shares the excess", async () => {
    const { id: page } = await fx.createRecord("page", "agent_a");
    await fx.setColumn("page", page, "profit_model", "price");
    await fx.setColumn("page", page, "max_profit", 30);
    const { id, path } = await fx.owner("agent_a");
    const order = async (no: string) => {
      const { rows } = await t.db.query<{ id: number }>(
        `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, page_id, device_kind)
         values ($1, 'VM-OP', $2, $3, $4, now(), now(), 'paid', 400, 0, $5, 'vending') returning id`,
        [no, machine, id, path, page],
      );
      const orderId = Number(rows[0].id);
      await t.db.transaction((tx) => recordPayments(tx, [orderId]));
      return (await entries(orderId)).filter((e) => e.kind === "operator_share").map((e) => [e.amount, e.remark]);
    };
    // 400 (4.00), no agent's share: operator A asks 10 % (40), the second 50; each is cut to the page's 30.
    expect(await order("OP-CAP-1")).toEqual([
      [30, "0.40 → 0.30"],
      [30, "0.50 → 0.30"],
    ]);
    await t.db.query(`update "operator_binding" set share_excess = 1 where operator_id = $1 and machine_id = $2`, [
      second,
      machine,
    ]);
    expect(await order("OP-CAP-2")).toEqual([
      [30, "0.40 → 0.30"],
      [50, null],
    ]);
    await t.db.query(`update "operator_binding" set share_excess = 0 where operator_id = $1`, [second]);
    expect(await differences(t.db)).toEqual([]);
  });

  it("never pays out more than the owner keeps: a fixed share is cut to what is left, and says so", async () => {
    // 40: operator A earns 4 (10 %), 36 are left of the second's 50.
    const order = await paid(40);
    expect((await entries(order)).slice(1).map((e) => [e.amount, e.remark])).toEqual([
      [4, null],
      [36, "0.50 → 0.36"],
    ]);
  });

  it("pays nothing to an operator in the recycle bin, nor to one no longer bound", async () => {
    const device = Number((await fx.insertRecord("machine", "agent_a")).id);
    const { body } = await agentA.post<Row>("/merchant/operator-add", {
      nickname: "Bin Ops",
      account: "bin_ops",
      password: "restock-2026",
      confirm_password: "restock-2026",
    });
    const binned = Number(body.data.id);
    await bind(binned, device, { profit_type: "percent", profit_percent: 0.5 });
    await bind(second, device, { profit_type: "percent", profit_percent: 0.25 });
    expect((await agentA.del("/merchant/operator-delete", { id: binned })).status).toBe(200);
    expect(
      (await agentA.post("/merchant/operator-unbind-machine", { operator_id: second, machine_id: device })).status,
    ).toBe(200);
    const order = await paid(1000, device);
    expect((await entries(order)).map((e) => e.kind)).toEqual(["order_income"]);
    expect(await earnings(binned)).toBe(0);
  });

  it("is recorded once: a second recording finds it recorded and writes nothing", async () => {
    const order = await paid(200);
    const before = await entries(order);
    expect(await t.db.transaction((tx) => recordPayments(tx, [order]))).toBe(0);
    expect(await entries(order)).toEqual(before);
    expect(before.map((e) => e.kind)).toEqual(["order_income", "operator_share", "operator_share"]);
  });
});

describe("a refund", () => {
  it("takes back each operator's share in proportion, into the owner's balance, and all of it at the end", async () => {
    const order = await paid(1000);
    const before = { a: await earnings(t.ids.operator_a), b: await earnings(second) };
    const admin = await fx.client("admin");
    const half = await admin.post("/merchant/order-refund", { id: order, refund_money: 300 });
    expect(half.status, half.raw).toBe(200);
    // 300 of 1000: operator A gives back 30 of 100, the second 15 of 50; agent_a bears 300 less 45.
    const after300 = (await entries(order)).slice(3);
    expect(after300.map((e) => [e.kind, e.operator_id, e.amount, e.balance_change])).toEqual([
      ["refund", null, 300, -300],
      ["operator_share_reversal", t.ids.operator_a, 30, 30],
      ["operator_share_reversal", second, 15, 15],
    ]);
    expect(await earnings(t.ids.operator_a)).toBe(before.a - 30);
    const rest = await admin.post("/merchant/order-refund", { id: order, refund_money: 700 });
    expect(rest.status, rest.raw).toBe(200);
    expect((await entries(order)).slice(6).map((e) => [e.kind, e.operator_id, e.amount])).toEqual([
      ["refund", null, 700],
      ["operator_share_reversal", t.ids.operator_a, 70],
      ["operator_share_reversal", second, 35],
    ]);
    expect(await earnings(t.ids.operator_a)).toBe(before.a - 100);
    expect(await earnings(second)).toBe(before.b - 50);
    expect(await differences(t.db)).toEqual([]);
  });

  it("takes back the share of an operator destroyed since, and the entry still names it", async () => {
    const device = Number((await fx.insertRecord("machine", "agent_a")).id);
    const { body } = await agentA.post<Row>("/merchant/operator-add", {
      nickname: "Gone Ops",
      account: "gone_ops",
      password: "restock-2026",
      confirm_password: "restock-2026",
    });
    const gone = Number(body.data.id);
    await bind(gone, device, { profit_type: "percent", profit_percent: 0.4 });
    const order = await paid(500, device);
    expect(await earnings(gone)).toBe(200);
    // The binding is a live reference (it would refuse the destroy): unbound first, as an agent would.
    expect(
      (await agentA.post("/merchant/operator-unbind-machine", { operator_id: gone, machine_id: device })).status,
    ).toBe(200);
    expect((await agentA.del("/merchant/operator-delete", { id: gone })).status).toBe(200);
    const destroyed = await agentA.del(`/merchant/operator-recycle-destroy?id=${gone}`);
    expect(destroyed.status, destroyed.raw).toBe(200);
    const admin = await fx.client("admin");
    expect((await admin.post("/merchant/order-refund", { id: order, refund_money: 250 })).status).toBe(200);
    const reversal = (await entries(order)).find((e) => e.kind === "operator_share_reversal")!;
    expect([reversal.operator_id, reversal.operator_name, reversal.amount]).toEqual([gone, "Gone Ops", 100]);
    // The ledger's list reads the kept name where the operator was.
    const listed = await agentA.get<ListData & { titles: Record<string, Record<number, string>> }>(
      `/merchant/data-payment-list?order_id=${order}`,
    );
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body.data.list.filter((r) => r.operator_id === gone).map((r) => r.kind)).toEqual([
      "operator_share_reversal",
      "operator_share",
    ]);
    expect(listed.body.data.titles.operator[gone]).toBe("Gone Ops");
    expect(await differences(t.db)).toEqual([]);
  });
});

describe("operator-earnings", () => {
  it("answers an operator its own earnings and latest entries, newest first", async () => {
    const operator = await t.as("operator_a");
    const reply = await operator.get<Row>("/merchant/operator-earnings?limit=3");
    expect(reply.status, reply.raw).toBe(200);
    const data = reply.body.data as { operator_id: number; earnings: number; entries: Row[] };
    expect(data.operator_id).toBe(t.ids.operator_a);
    expect(data.earnings).toBe(await earnings(t.ids.operator_a));
    const { rows } = await t.db.query<{ id: number }>(
      `select id::int from "payment_record" where operator_id = $1 order by paid_at desc, id desc limit 3`,
      [t.ids.operator_a],
    );
    expect(data.entries.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    expect(data.entries[0]).toMatchObject({ mac_name: "VM-OP" });
    expect((await operator.get(`/merchant/operator-earnings?operator_id=${t.ids.operator_a}`)).status).toBe(200);
  });

  it("answers the operator's agent and the admin, who name it", async () => {
    for (const account of ["agent_a", "admin"]) {
      const reply = await (await fx.client(account)).get<Row>(`/merchant/operator-earnings?operator_id=${second}`);
      expect(reply.status, `${account} ${reply.raw}`).toBe(200);
      expect((reply.body.data as { earnings: number }).earnings).toBe(await earnings(second));
    }
  });

  it("refuses another agent's operator, another operator's figures (400 on the field), a role without operator.earnings and outlet managers", async () => {
    // An operator out of the caller's sight is not one it may name (as every call's relation field).
    const operator = await t.as("operator_a");
    expect(errorFields(await operator.get(`/merchant/operator-earnings?operator_id=${second}`))).toEqual([
      "operator_id",
    ]);
    expect(
      errorFields(await (await fx.client("agent_b")).get(`/merchant/operator-earnings?operator_id=${second}`)),
    ).toEqual(["operator_id"]);
    // agent_a1's role (Viewer) has no operator.earnings, even for its own operator.
    const own = Number((await fx.insertRecord("operator", "agent_a1")).id);
    expect((await (await fx.client("agent_a1")).get(`/merchant/operator-earnings?operator_id=${own}`)).status).toBe(
      403,
    );
    const shop = Number((await fx.insertRecord("shop", "agent_a")).id);
    const made = await agentA.post("/merchant/shop-manager-add", {
      nickname: "Dara Kim",
      account: "manager_op",
      password: "demo123",
      confirm_password: "demo123",
      shop_ids: [shop],
    });
    expect(made.status, made.raw).toBe(200);
    const manager = await t.as("manager_op");
    expect((await manager.get(`/merchant/operator-earnings?operator_id=${second}`)).status).toBe(403);
    expect((await manager.get(`/merchant/operator-earnings`)).status).toBe(403);
  });

  it("says what is wrong with its input, in words", async () => {
    expect(errorFields(await agentA.get("/merchant/operator-earnings"))).toEqual(["operator_id"]);
    expect(errorFields(await agentA.get("/merchant/operator-earnings?operator_id=x"))).toEqual(["operator_id"]);
    expect(errorFields(await agentA.get(`/merchant/operator-earnings?operator_id=${second}&limit=51`))).toEqual([
      "limit",
    ]);
  });
});

function entry(agentId: number, kind: string, amount: number, change: number) {
  return {
    agent_id: agentId,
    kind,
    amount,
    balance_change: change,
    revenue_change: change,
    operator_id: null,
    operator_name: null,
    remark: null,
  };
}

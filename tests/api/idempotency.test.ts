// A write sent again with its Idempotency-Key is answered as the first time and applied once
// (server/http/idempotency.ts): a restock, a withdrawal, a refund, an added record, a state change; sent
// together many times at once; never another principal's answer, never for another body; a key on a GET is
// ignored; a malformed key is a 400 naming the header; a refused write keeps no key; a key is remembered
// for its hours and no longer. On PGlite, and on PostgreSQL with DATABASE_URL (where the races are real:
// several connections; tests/api/multi-process.test.ts races two server processes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences, post as postLedger } from "../../server/domain/money/ledger.ts";
import { recordPayments } from "../../server/domain/money/orders.ts";
import { REMEMBERED_HOURS } from "../../server/http/idempotency.ts";
import { call, createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let agentA: Client;
let agentB: Client;
let admin: Client;
let operator: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentB, operator] = await Promise.all(
    ["admin", "agent_a", "agent_b", "operator_a"].map((a) => fx.client(a)),
  );
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, stock_alert_quantity, withdraw_fee) values ('global', 'Test', 2, 0.06)
     on conflict (singleton_key) do update set withdraw_fee = excluded.withdraw_fee`,
  );
}, 60_000);
afterAll(() => t?.close());

let keys = 0;
/** A fresh key of the allowed form (a test's own, never another test's). */
const newKey = () => `test-key-${Date.now().toString(36)}-${++keys}-abcdef`;

/** A request as the client sends it, with an Idempotency-Key (or any other headers). */
function send<T = Row>(
  who: Client,
  method: "GET" | "POST" | "DELETE",
  url: string,
  options: { key?: string | string[]; body?: unknown; lng?: string } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string | string[]> = {
    authorization: `Bearer ${who.token}`,
    locale: options.lng ?? "en",
  };
  if (options.key !== undefined) headers["idempotency-key"] = options.key;
  return call<T>(t.app, {
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as never }),
  });
}

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
  (await t.db.query<T & Row>(sql, params)).rows[0];

/** agent_a's vending device, bound to operator_a, with one lane of 10 holding 2, of goods with 50 in stock. */
async function device() {
  const goods = await fx.createRecord("goods", "agent_a", { stock: 50 });
  const plan = await fx.createRecord("channel_plan", "agent_a", {
    channels: [{ channel_number: 1, goods_id: goods.id, count: 10, price: 300 }],
  });
  const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
  const bound = await agentA.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: plan.id });
  expect(bound.status, bound.raw).toBe(200);
  await t.db.query(`update machine_channel set "left" = 2 where machine_id = $1`, [machine.id]);
  await t.db.query(
    `insert into operator_binding (operator_id, machine_id, profit_type, profit_percent, agent_id, agent_path)
     select $1, $2, 'percent', 0.1, agent_id, agent_path from machine where id = $2`,
    [t.ids.operator_a, machine.id],
  );
  const lane = await one<{ id: number }>(`select id::int from machine_channel where machine_id = $1`, [machine.id]);
  return { machineId: Number(machine.id), goodsId: Number(goods.id), laneId: lane.id };
}

/** The lane's level, the goods' stock and how many restocks the device has recorded. */
async function restockState(d: { machineId: number; goodsId: number }) {
  return {
    left: (await one<{ left: number }>(`select "left"::int from machine_channel where machine_id = $1`, [d.machineId]))
      .left,
    stock: (await one<{ stock: number }>(`select stock::int from goods where id = $1`, [d.goodsId])).stock,
    records: (
      await one<{ n: number }>(`select count(*)::int as n from machine_restock where machine_id = $1`, [d.machineId])
    ).n,
  };
}

const restock = (who: Client, d: { machineId: number; laneId: number }, quantity: number, key?: string) =>
  send(who, "POST", "/merchant/machine-replenishment-goods", {
    key,
    body: { id: d.machineId, lanes: [{ channel_id: d.laneId, quantity }] },
  });

describe("a write sent again with its key", () => {
  it("a restock: answered as the first time, the lane loaded and the stock lowered once", async () => {
    const d = await device();
    const key = newKey();
    const first = await restock(operator, d, 3, key);
    expect(first.status, first.raw).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await restock(operator, d, 3, key);
    expect(again.status, again.raw).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await restockState(d)).toEqual({ left: 5, stock: 47, records: 1 });
    // Without a key, or with another one, the same restock is another restock.
    expect((await restock(operator, d, 1)).status).toBe(200);
    expect((await restock(operator, d, 1, newKey())).status).toBe(200);
    expect(await restockState(d)).toEqual({ left: 7, stock: 45, records: 3 });
  });

  it("the same restock sent ten times at once: one runs, the others answer its answer", async () => {
    const d = await device();
    const key = newKey();
    const replies = await Promise.all(Array.from({ length: 10 }, () => restock(operator, d, 4, key)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replies.filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(9);
    for (const reply of replies) expect(reply.body).toEqual(replies[0].body);
    expect(await restockState(d)).toEqual({ left: 6, stock: 46, records: 1 });
  });

  it("a withdrawal request: one withdrawal, the amount moved to pending once", async () => {
    await t.db.transaction((tx) =>
      postLedger(tx, [{ agentId: t.ids.agent_a, kind: "order_income", amount: 5000, balance: 5000, revenue: 5000 }]),
    );
    const figures = () =>
      one<{ withdrawable: number; frozen: number; n: number }>(
        `select withdrawable::int, frozen::int, (select count(*)::int from withdrawal where agent_id = $1) as n
           from agent where id = $1`,
        [t.ids.agent_a],
      );
    const before = await figures();
    const body = { amount: 1200, legal_name: "Sok Dara", payout_method: "social_wallet", account_number: "wxid_1" };
    const key = newKey();
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => send(agentA, "POST", "/merchant/data-withdraw-apply", { key, body })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const reply of replies) expect(reply.body).toEqual(replies[0].body);
    expect(await figures()).toEqual({
      withdrawable: before.withdrawable - 1200,
      frozen: before.frozen + 1200,
      n: before.n + 1,
    });
    // Approving it twice with one key pays it out once (a state change, from pending).
    const id = (replies[0].body.data as Row).id;
    const approve = { id, action: "approve" };
    const key2 = newKey();
    const approved = await send(admin, "POST", "/merchant/data-withdraw-action", { key: key2, body: approve });
    expect(approved.status, approved.raw).toBe(200);
    const again = await send(admin, "POST", "/merchant/data-withdraw-action", { key: key2, body: approve });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(approved.body);
    // Without the key the second approval is refused: the withdrawal is no longer pending.
    expect((await send(admin, "POST", "/merchant/data-withdraw-action", { body: approve })).status).toBe(409);
    expect(await differences(t.db)).toEqual([]);
  });

  it("a refund: refunded once", async () => {
    const pageRow = await fx.createRecord("page", "agent_a");
    const machine = Number(await fx.relatedId("machine", "agent_a"));
    const { id: agentId, path } = await fx.owner("agent_a");
    const order = await one<{ id: number }>(
      `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money,
                            refund_money, page_id, device_kind, cost_money, pay_type)
       values ($1, 'VM-T', $2, $3, $4, now(), now(), 'paid', 800, 0, $5, 'vending', 0, 1) returning id::int`,
      [`IDEM${Date.now()}`, machine, agentId, path, pageRow.id],
    );
    await t.db.transaction((tx) => recordPayments(tx, [order.id]));
    const key = newKey();
    const body = { id: order.id, refund_money: 300 };
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => send(admin, "POST", "/merchant/order-refund", { key, body })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const after = await one<{ refund_money: number }>(`select refund_money::int from "order" where id = $1`, [
      order.id,
    ]);
    expect(after.refund_money).toBe(300);
    expect(await differences(t.db)).toEqual([]);
  });

  it("an added record: one record, its id answered each time", async () => {
    const record = { ...(await fx.makeRecord("goods_category", "agent_a")), name: `Kept ${newKey()}` };
    const key = newKey();
    const first = await send(agentA, "POST", "/merchant/goods-cate-add", { key, body: record });
    expect(first.status, first.raw).toBe(200);
    const again = await send(agentA, "POST", "/merchant/goods-cate-add", { key, body: record });
    expect(again.status).toBe(200);
    expect((again.body.data as Row).id).toBe((first.body.data as Row).id);
    const count = await one<{ n: number }>(`select count(*)::int as n from goods_category where name = $1`, [
      record.name,
    ]);
    expect(count.n).toBe(1);
  });
});

describe("what a key never does", () => {
  it("answers another principal with the first one's answer: a key is its principal's own", async () => {
    const d = await device();
    const key = newKey();
    expect((await restock(operator, d, 2, key)).status).toBe(200);
    // agent_a (the device's agent) sends the same restock with the operator's key: its own restock.
    const other = await restock(agentA, d, 2, key);
    expect(other.status, other.raw).toBe(200);
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    expect(await restockState(d)).toEqual({ left: 6, stock: 46, records: 2 });
    // agent_b may not see the device at all: the key does not change that.
    expect((await restock(agentB, d, 2, key)).status).toBe(404);
    expect(await restockState(d)).toEqual({ left: 6, stock: 46, records: 2 });
  });

  it("answers another request sent with a used key: 422 in the caller's language, nothing applied", async () => {
    const d = await device();
    const key = newKey();
    expect((await restock(operator, d, 2, key)).status).toBe(200);
    const other = await restock(operator, d, 3, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      code: 422,
      message: "This Idempotency-Key was already used for another request; send this one with a new key",
      data: null,
    });
    const zh = await send(operator, "POST", "/merchant/machine-replenishment-goods", {
      key,
      lng: "zh",
      body: { id: d.machineId, fill: true },
    });
    expect(zh.status).toBe(422);
    expect(zh.body.message).toBe("此 Idempotency-Key 已用于另一个请求；请用新的键发送本请求");
    // Another call with the key: refused too.
    const check = await send(operator, "POST", "/merchant/machine-replenishment-check", {
      key,
      body: { id: d.machineId },
    });
    expect(check.status).toBe(422);
    expect(await restockState(d)).toEqual({ left: 4, stock: 48, records: 1 });
    // The same body written with its fields in another order is the same request.
    const reordered = await send(operator, "POST", "/merchant/machine-replenishment-goods", {
      key,
      body: { lanes: [{ quantity: 2, channel_id: d.laneId }], id: d.machineId },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers["idempotent-replayed"]).toBe("true");
  });

  it("keeps the key of a refused write: sent again, it runs again", async () => {
    const d = await device();
    const key = newKey();
    const refused = await restock(operator, d, 9, key);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Please correct the highlighted fields");
    await t.db.query(`update machine_channel set "left" = 1 where machine_id = $1`, [d.machineId]);
    const now = await restock(operator, d, 9, key);
    expect(now.status, now.raw).toBe(200);
    expect(now.headers["idempotent-replayed"]).toBeUndefined();
    expect(await restockState(d)).toEqual({ left: 10, stock: 41, records: 1 });
  });

  it("replays a GET: a key there is ignored", async () => {
    const d = await device();
    const key = newKey();
    const lanes = () =>
      send<Row[]>(agentA, "GET", `/merchant/machine-channel-list?machine_id=${d.machineId}`, { key }).then(
        (r) => ((r.body.data as unknown as { list: Row[] }).list[0] ?? {}).left,
      );
    expect(await lanes()).toBe(2);
    expect((await restock(operator, d, 5)).status).toBe(200);
    expect(await lanes()).toBe(7);
    // Even a malformed key: a GET does not look at it.
    const bad = await send(agentA, "GET", `/merchant/machine-channel-list?machine_id=${d.machineId}`, { key: "x" });
    expect(bad.status).toBe(200);
  });

  it("takes a malformed key: 400 naming the header, in the caller's language, nothing applied", async () => {
    const d = await device();
    for (const key of ["short", "has spaces in it here", "ünïcödé-ünïcödé-ünïcödé", "x".repeat(129), ""]) {
      const reply = await restock(operator, d, 1, key);
      expect(reply.status, key).toBe(400);
      expect(errorFields(reply)).toEqual(["Idempotency-Key"]);
      expect((reply.body.data as { errors: { message: string }[] }).errors[0].message).toBe(
        "The Idempotency-Key header must be 16 to 128 letters, digits, - or _",
      );
    }
    const twice = await restock(operator, d, 1, [newKey(), newKey()] as never);
    expect(twice.status).toBe(400);
    const th = await send(operator, "POST", "/merchant/machine-replenishment-goods", {
      key: "bad key",
      lng: "th",
      body: { id: d.machineId, fill: true },
    });
    expect((th.body.data as { errors: { message: string }[] }).errors[0].message).toBe(
      "ส่วนหัว Idempotency-Key ต้องเป็นตัวอักษร ตัวเลข - หรือ _ จำนวน 16 ถึง 128 ตัว",
    );
    expect(await restockState(d)).toEqual({ left: 2, stock: 50, records: 0 });
    // A key as a quoted string (RFC 8941, as the IETF draft writes it) is the same key bare.
    const key = newKey();
    expect((await restock(operator, d, 1, `"${key}"`)).status).toBe(200);
    expect((await restock(operator, d, 1, key)).headers["idempotent-replayed"]).toBe("true");
    expect(await restockState(d)).toEqual({ left: 3, stock: 49, records: 1 });
  });

  it("lets a stranger or a role without the permission through: 401 and 403 as without a key", async () => {
    const d = await device();
    const key = newKey();
    const stranger = await call(t.app, {
      method: "POST",
      url: "/merchant/machine-replenishment-goods",
      headers: { "idempotency-key": key },
      payload: { id: d.machineId, fill: true },
    });
    expect(stranger.status).toBe(401);
    const narrow = await t.as("agent_a1");
    expect((await restock(narrow, d, 1, key)).status).toBe(403);
    expect(await restockState(d)).toEqual({ left: 2, stock: 50, records: 0 });
  });

  it(`remembers a key for ${REMEMBERED_HOURS} hours, and no longer`, async () => {
    const d = await device();
    const key = newKey();
    expect((await restock(operator, d, 1, key)).status).toBe(200);
    await t.db.query(
      `update sys_idempotency set created_at = created_at - make_interval(hours => $1) + interval '1 minute'
        where key = $2`,
      [REMEMBERED_HOURS, `operator:${t.ids.operator_a}\n${key}`],
    );
    expect((await restock(operator, d, 1, key)).headers["idempotent-replayed"]).toBe("true");
    await t.db.query(`update sys_idempotency set created_at = created_at - interval '2 minutes' where key = $1`, [
      `operator:${t.ids.operator_a}\n${key}`,
    ]);
    const late = await restock(operator, d, 1, key);
    expect(late.status).toBe(200);
    expect(late.headers["idempotent-replayed"]).toBeUndefined();
    expect(await restockState(d)).toEqual({ left: 4, stock: 48, records: 2 });
  });
});

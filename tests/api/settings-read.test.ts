// Settings that act outside money (issue 31): the shelf life of goods (the goods' own valid_days, else the
// owner's goods settings' goods_days, else the system's goods_valid_days) feeds a device's near-expiry
// state, counted from when the oldest goods still in a lane were loaded; and the settings the devices and
// the mini program read (the multi-item discounts, the deposit per device) are answered by
// machine-sale-terms as they are now. The dates are fixed relative to the business's today: a restock N
// days ago, a shelf life of S days, expires on today - N + S, near when that is within the near-expiry days.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type FieldErrors, type Row } from "./fixtures.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;
let operator: Client;

/** The system's fixtures: goods keep 30 days unless they or their owner say otherwise; near is 5 days. */
const SYSTEM_VALID_DAYS = 30;
const SYSTEM_NEAR_DAYS = 5;

/** Saves the system settings (the schema's example with these values) through setting-update. */
async function saveSystem(values: Row): Promise<void> {
  const current = (await admin.get<Row | null>("/merchant/setting-detail")).body.data;
  const example = entitySchemas.system_setting.examples![0] as Row;
  const reply = await admin.post("/merchant/setting-update", { ...example, ...values, version: current?.version ?? 0 });
  expect(reply.status, reply.raw).toBe(200);
}

/** Saves an agent's goods settings through goods-setting-set. */
async function saveGoodsSetting(client: Client, values: Row): Promise<void> {
  const current = (await client.get<Row | null>("/merchant/goods-setting-get")).body.data;
  const base = { shelve: 1, format: 1, stock: 1, allocate: 0, is_discount: 0, goods_days: 0, expire_day: 0 };
  const reply = await client.post("/merchant/goods-setting-set", {
    ...base,
    ...(current ?? {}),
    ...values,
    version: current?.version ?? 0,
  });
  expect(reply.status, reply.raw).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB, operator] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "agent_b", "operator_a"].map((a) => fx.client(a)),
  );
  await saveSystem({
    goods_valid_days: SYSTEM_VALID_DAYS,
    near_expiry_days: SYSTEM_NEAR_DAYS,
    stock_alert_quantity: 0,
  });
}, 60_000);
afterAll(() => t?.close());

const clientOf = (owner: "agent_a" | "agent_b") => (owner === "agent_a" ? agentA : agentB);

/**
 * A reporting vending device of the owner with one lane of 8 holding goods whose own shelf life is
 * validDays (null: none of their own), and the lane switched on.
 */
async function device(owner: "agent_a" | "agent_b", validDays: number | null) {
  const goods = await fx.createRecord("goods", owner, { stock: 1000 });
  await fx.setColumn("goods", goods.id, "valid_days", validDays);
  const plan = await fx.createRecord("channel_plan", owner, {
    channels: [{ channel_number: 1, goods_id: goods.id, count: 8, price: 300 }],
  });
  const machine = await fx.createRecord("machine", owner, { kind: "vending" });
  const bound = await clientOf(owner).post("/merchant/machine-bind-plan", {
    id: [machine.id],
    channel_plan_id: plan.id,
  });
  expect(bound.status, bound.raw).toBe(200);
  await t.db.query(
    `update machine set last_report_at = now(), battery_level = 90, expiry_date = null, mac_id = coalesce(mac_id, $2)
      where id = $1`,
    [machine.id, `MAC-${String(machine.id)}`],
  );
  const lane = Number(
    (await t.db.query<{ id: number }>(`select id from machine_channel where machine_id = $1`, [machine.id])).rows[0].id,
  );
  await t.db.query(`update machine_channel set "left" = 0 where id = $1`, [lane]);
  return { id: Number(machine.id), lane, goods: Number(goods.id), owner };
}

/** Loads the lane through the restock call, then dates that restock daysAgo days back. */
async function restock(
  d: { id: number; lane: number; owner: "agent_a" | "agent_b" },
  quantity: number,
  daysAgo: number,
) {
  const reply = await clientOf(d.owner).post("/merchant/machine-replenishment-goods", {
    id: d.id,
    lanes: [{ channel_id: d.lane, quantity }],
  });
  expect(reply.status, reply.raw).toBe(200);
  await t.db.query(
    `update machine_restock set restocked_at = now() - make_interval(days => $2)
      where id = (select max(id) from machine_restock where channel_id = $1)`,
    [d.lane, daysAgo],
  );
}

const statusOf = async (id: number, client: Client = agentA) => {
  const reply = await client.get<Row>(`/merchant/machine-detail?id=${id}`);
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data.status;
};

describe("near expiry from the goods' shelf life", () => {
  it("uses the system's goods valid days for goods without their own, to the day", async () => {
    // Restocked 24 days ago, kept 30: expires in 6 days, past the 5 near-expiry days.
    const far = await device("agent_a", null);
    await restock(far, 8, SYSTEM_VALID_DAYS - SYSTEM_NEAR_DAYS - 1);
    expect(await statusOf(far.id)).toBe("online");
    // Restocked 25 days ago: expires in exactly 5 days, near.
    const near = await device("agent_a", null);
    await restock(near, 8, SYSTEM_VALID_DAYS - SYSTEM_NEAR_DAYS);
    expect(await statusOf(near.id)).toBe("near_expiry");
    // The list's filter sees the same state.
    const listed = await agentA.get<{ list: Row[] }>(`/merchant/machine-list?status=near_expiry&limit=200`);
    const ids = listed.body.data.list.map((r) => r.id);
    expect(ids).toContain(near.id);
    expect(ids).not.toContain(far.id);
  });

  it("uses the goods' own shelf life when they have one", async () => {
    const own = 100;
    const keeps = await device("agent_a", own);
    // 25 days ago would be near by the system's 30; by their own 100 they expire in 75 days.
    await restock(keeps, 8, SYSTEM_VALID_DAYS - SYSTEM_NEAR_DAYS);
    expect(await statusOf(keeps.id)).toBe("online");
    const edge = await device("agent_a", own);
    await restock(edge, 8, own - SYSTEM_NEAR_DAYS - 1);
    expect(await statusOf(edge.id)).toBe("online");
    const near = await device("agent_a", own);
    await restock(near, 8, own - SYSTEM_NEAR_DAYS);
    expect(await statusOf(near.id)).toBe("near_expiry");
  });

  it("dates a lane by the oldest goods still in it, first in first out", async () => {
    const d = await device("agent_a", null);
    await restock(d, 3, 28); // expires in 2 days
    await restock(d, 5, 1); // expires in 29 days
    expect(await statusOf(d.id)).toBe("near_expiry");
    // Three sold: the old ones went first, the lane now holds the five loaded yesterday.
    await t.db.query(`update machine_channel set "left" = 5 where id = $1`, [d.lane]);
    expect(await statusOf(d.id)).toBe("online");
    // Four more: the lane holds one of yesterday's.
    await t.db.query(`update machine_channel set "left" = 6 where id = $1`, [d.lane]);
    expect(await statusOf(d.id)).toBe("near_expiry");
  });

  it("leaves out lanes that are off the shelf", async () => {
    const d = await device("agent_a", null);
    await restock(d, 8, 29);
    expect(await statusOf(d.id)).toBe("near_expiry");
    await t.db.query(`update machine_channel set shelf_status = 0 where id = $1`, [d.lane]);
    expect(await statusOf(d.id)).toBe("online");
  });

  it("follows a change of the system setting", async () => {
    const d = await device("agent_a", null);
    await restock(d, 8, 27); // by 30 days: expires in 3, near
    expect(await statusOf(d.id)).toBe("near_expiry");
    await saveSystem({ goods_valid_days: 60, near_expiry_days: SYSTEM_NEAR_DAYS, stock_alert_quantity: 0 });
    try {
      expect(await statusOf(d.id)).toBe("online");
      // No goods valid days anywhere (0 is none): goods loaded long ago never expire.
      await saveSystem({ goods_valid_days: 0, near_expiry_days: SYSTEM_NEAR_DAYS, stock_alert_quantity: 0 });
      const old = await device("agent_a", null);
      await restock(old, 8, 400);
      expect(await statusOf(old.id)).toBe("online");
    } finally {
      await saveSystem({
        goods_valid_days: SYSTEM_VALID_DAYS,
        near_expiry_days: SYSTEM_NEAR_DAYS,
        stock_alert_quantity: 0,
      });
    }
    expect(await statusOf(d.id)).toBe("near_expiry");
  });

  it("uses the owner's goods settings before the system's, and only for the owner's devices", async () => {
    const mine = await device("agent_b", null);
    const theirs = await device("agent_a", null);
    await restock(mine, 8, 30);
    await restock(theirs, 8, 30);
    // By the system's 30 days both expire today.
    expect(await statusOf(mine.id, agentB)).toBe("near_expiry");
    expect(await statusOf(theirs.id)).toBe("near_expiry");
    // agent_b keeps its goods 40 days: its device's goods expire in 10, agent_a's still today.
    await saveGoodsSetting(agentB, { goods_days: 40, expire_day: 0 });
    expect(await statusOf(mine.id, agentB)).toBe("online");
    expect(await statusOf(theirs.id)).toBe("near_expiry");
    // And warns 12 days ahead: 10 is within them.
    await saveGoodsSetting(agentB, { goods_days: 40, expire_day: 12 });
    expect(await statusOf(mine.id, agentB)).toBe("near_expiry");
    // The goods' own shelf life still comes first.
    const own = await device("agent_b", 50);
    await restock(own, 8, 30); // expires in 20, past agent_b's 12
    expect(await statusOf(own.id, agentB)).toBe("online");
    // agent_b cannot read agent_a's device, nor its state.
    expect((await agentB.get(`/merchant/machine-detail?id=${theirs.id}`)).status).toBe(404);
  });

  it("takes a goods shelf life from 1 to 3650 days, and none", async () => {
    const goods = await fx.createRecord("goods", "agent_a");
    const detail = (await agentA.get<Row>(`/merchant/goods-detail?id=${String(goods.id)}`)).body.data;
    for (const bad of [0, 3651, 1.5, "x"])
      expect(errorFields(await agentA.post("/merchant/goods-update", { ...detail, valid_days: bad }))).toEqual([
        "valid_days",
      ]);
    const saved = await agentA.post<Row>("/merchant/goods-update", { ...detail, valid_days: 7 });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.data.valid_days).toBe(7);
  });
});

interface SaleTerms {
  machine_id: number;
  agent_id: number;
  currency: string | null;
  machine_deposit: number | null;
  is_discount: number;
  two_discount: number | null;
  three_discount: number | null;
}

describe("machine-sale-terms: what the devices and the mini program read", () => {
  const terms = (client: Client, id: number) => client.get<SaleTerms>(`/merchant/machine-sale-terms?machine_id=${id}`);

  it("answers the owner's discounts and the deposit per device as they are now", async () => {
    await saveSystem({ machine_deposit: 50_000, currency: "USD" });
    await saveGoodsSetting(agentA, { is_discount: 1, two_discount: 0.8, three_discount: 0.5 });
    const d = await device("agent_a", null);
    const first = await terms(agentA, d.id);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data).toEqual({
      machine_id: d.id,
      agent_id: t.ids.agent_a,
      currency: "USD",
      machine_deposit: 50_000,
      is_discount: 1,
      two_discount: 0.8,
      three_discount: 0.5,
    });
    // The settings change: so does the answer.
    await saveSystem({ machine_deposit: 20_000, currency: "THB" });
    await saveGoodsSetting(agentA, { is_discount: 0, two_discount: 0.9, three_discount: 0.7 });
    expect((await terms(agentA, d.id)).body.data).toMatchObject({
      currency: "THB",
      machine_deposit: 20_000,
      is_discount: 0,
      two_discount: 0.9,
      three_discount: 0.7,
    });
    // The platform admin asks about agent_a's device: agent_a's discounts, not its own.
    await saveGoodsSetting(admin, { is_discount: 1, two_discount: 0.6, three_discount: 0.4 });
    expect((await terms(admin, d.id)).body.data).toMatchObject({ agent_id: t.ids.agent_a, two_discount: 0.9 });
  });

  it("answers the discounts of the device's owner, none when it saved none", async () => {
    const sub = Number((await fx.createRecord("machine", "agent_a1", { kind: "vending" })).id);
    const reply = await terms(agentA, sub);
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toMatchObject({
      agent_id: t.ids.agent_a1,
      is_discount: 0,
      two_discount: null,
      three_discount: null,
    });
  });

  it("refuses a bad id, another agent's device and a role without machine.detail", async () => {
    const d = await device("agent_a", null);
    expect(errorFields(await agentA.get("/merchant/machine-sale-terms?machine_id=x"))).toEqual(["machine_id"]);
    expect(errorFields(await agentA.get("/merchant/machine-sale-terms"))).toEqual(["machine_id"]);
    const other = await agentB.get(`/merchant/machine-sale-terms?machine_id=${d.id}`);
    expect(other.status).toBe(400);
    expect((other.body.data as FieldErrors).errors).toEqual([expect.objectContaining({ keyword: "x-relation" })]);
    const sub = Number((await fx.createRecord("machine", "agent_a1", { kind: "vending" })).id);
    expect((await agentA1.get(`/merchant/machine-sale-terms?machine_id=${sub}`)).status).toBe(403);
    // An operator reads only the devices bound to it.
    expect((await operator.get(`/merchant/machine-sale-terms?machine_id=${d.id}`)).status).toBe(400);
  });
});

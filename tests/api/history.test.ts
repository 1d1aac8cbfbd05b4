// History that only history points at (x-relation.history): orders, restock records, ledger rows, stock
// consumption and logs keep the names they were written with, so goods and devices they name can be
// destroyed from the recycle bin and the history still reads the same (the list's titles, the detail's
// kept names, the export, the prices). A live reference (a plan's lane, an operator's binding) still
// refuses the destroy, naming what uses the record.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../server/db/migrate.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type ListData, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let agentA: Client;
let agentA1: Client;
let agentB: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [agentA, agentA1, agentB] = await Promise.all([fx.client("agent_a"), fx.client("agent_a1"), fx.client("agent_b")]);
}, 60_000);
afterAll(() => t?.close());

const exists = async (table: string, id: unknown) =>
  (await t.db.query(`select 1 from "${table}" where id = $1`, [id])).rows.length === 1;

/** A vending device of agent_a's with one lane of the goods (its plan's), loaded through the restock call. */
async function deviceSelling(goods: Row, name: string): Promise<{ device: Row; plan: Row }> {
  const plan = await fx.createRecord("channel_plan", "agent_a", {
    channels: [{ channel_number: 1, goods_id: goods.id, count: 10, price: 350 }],
  });
  const device = await fx.createRecord("machine", "agent_a", { kind: "vending", mac_name: name });
  const bind = await agentA.post("/merchant/machine-bind-plan", { id: [device.id], channel_plan_id: plan.id });
  expect(bind.status, bind.raw).toBe(200);
  const lane = (await t.db.query<Row>(`select id from machine_channel where machine_id = $1`, [device.id])).rows[0];
  const load = await agentA.post("/merchant/machine-replenishment-goods", {
    id: device.id,
    lanes: [{ channel_id: Number(lane.id), quantity: 4 }],
  });
  expect(load.status, load.raw).toBe(200);
  return { device, plan };
}

const sell = (device: Row, goods: Row, orderNo: string, money: number) => {
  const now = new Date().toISOString();
  return fx.insertRecord("order", "agent_a", {
    order_no: orderNo,
    machine_id: device.id,
    goods_id: goods.id,
    channel_number: 1,
    order_time: now,
    pay_time: now,
    pay_status: "paid",
    money,
    refund_money: 0,
    quantity: 1,
    delivered_quantity: 1,
  });
};

describe("records only history points at", () => {
  it("are destroyed from the recycle bin, and orders, restocks and stock still read their names and prices", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "History Cola", stock: 50 });
    const { device, plan } = await deviceSelling(goods, "VM-HIST-01");
    const order = await sell(device, goods, "HIST-0001", 350);

    // The device goes first, its own lanes with it (its history stays)...
    expect((await agentA.del(`/merchant/machine-delete?id=${device.id as number}`)).status).toBe(200);
    const deviceGone = await agentA.del(`/merchant/machine-recycle-destroy?id=${device.id as number}`);
    expect(deviceGone.status, deviceGone.raw).toBe(200);
    expect(await exists("machine", device.id)).toBe(false);
    expect((await t.db.query(`select 1 from machine_channel where machine_id = $1`, [device.id])).rows).toEqual([]);
    // ...then its plan, and the goods only history names.
    expect((await agentA.del(`/merchant/channel-plan-delete?id=${plan.id as number}`)).status).toBe(200);
    expect((await agentA.del(`/merchant/channel-plan-recycle-destroy?id=${plan.id as number}`)).status).toBe(200);
    expect((await agentA.del(`/merchant/goods-delete?id=${goods.id as number}`)).status).toBe(200);
    const goodsGone = await agentA.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`);
    expect(goodsGone.status, goodsGone.raw).toBe(200);
    expect(await exists("goods", goods.id)).toBe(false);

    const list = await agentA.get<ListData & { titles: Record<string, Record<number, string>> }>(
      `/merchant/order-list?order_no_like=HIST-0001`,
    );
    expect(list.status, list.raw).toBe(200);
    expect(list.body.data.list.map((r) => [r.id, r.mac_name, r.money])).toEqual([[order.id, "VM-HIST-01", 350]]);
    expect(list.body.data.titles.goods[goods.id as number]).toBe("History Cola");
    expect(list.body.data.titles.machine[device.id as number]).toBe("VM-HIST-01");
    const detail = await agentA.get<Row>(`/merchant/order-detail?id=${order.id as number}`);
    expect(detail.status, detail.raw).toBe(200);
    expect([detail.body.data.goods_name, detail.body.data.mac_name, detail.body.data.money]).toEqual([
      "History Cola",
      "VM-HIST-01",
      350,
    ]);
    const sheet = await agentA.get(`/merchant/order-export?format=csv&order_no_like=HIST-0001`);
    expect(sheet.status).toBe(200);
    expect(sheet.raw).toContain("HIST-0001");
    expect(sheet.raw).toContain("VM-HIST-01");
    expect(sheet.raw).toContain("3.50");

    const restocks = await agentA.get<ListData & { titles: Record<string, Record<number, string>> }>(
      `/merchant/machine-replenishment-list?machine_id=${device.id as number}`,
    );
    expect(restocks.status, restocks.raw).toBe(200);
    expect(restocks.body.data.list.map((r) => [r.mac_name, r.goods_name, r.quantity])).toEqual([
      ["VM-HIST-01", "History Cola", 4],
    ]);
    expect(restocks.body.data.titles.goods[goods.id as number]).toBe("History Cola");
    const stock = await agentA.get<ListData & { titles: Record<string, Record<number, string>> }>(
      `/merchant/manage-stock-list?goods_id=${goods.id as number}`,
    );
    expect(stock.status, stock.raw).toBe(200);
    expect(stock.body.data.list.map((r) => [r.quantity, r.money, r.restocked])).toEqual([[1, 350, 4]]);
    expect(stock.body.data.titles.goods[goods.id as number]).toBe("History Cola");
    expect(stock.body.data.titles.machine[device.id as number]).toBe("VM-HIST-01");
  });

  it("keeps the name it was written with: the title shows the record's own while it is there", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "Old Name Tea", stock: 50 });
    const { device } = await deviceSelling(goods, "VM-HIST-02");
    await sell(device, goods, "HIST-0002", 500);
    await t.db.query(`update goods set title = 'New Name Tea' where id = $1`, [goods.id]);
    const list = await agentA.get<ListData & { titles: Record<string, Record<number, string>> }>(
      `/merchant/order-list?order_no_like=HIST-0002`,
    );
    expect(list.body.data.titles.goods[goods.id as number]).toBe("New Name Tea");
    expect(list.body.data.list[0].goods_name).toBe("Old Name Tea");
  });
});

describe("live references", () => {
  it("still refuse: goods in a plan's lane, with orders beside it, name the plan and not the orders", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "Lane Water", stock: 50 });
    const { device } = await deviceSelling(goods, "VM-HIST-03");
    await sell(device, goods, "HIST-0003", 200);
    await fx.createRecord("channel_plan", "agent_a", {
      channels: [{ channel_number: 1, goods_id: goods.id, count: 8, price: 200 }],
    });
    expect((await agentA.del(`/merchant/goods-delete?id=${goods.id as number}`)).status).toBe(200);
    const destroy = await agentA.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`);
    expect(destroy.status).toBe(409);
    expect(destroy.body.message).toMatch(
      /^“Lane Water” is still used \(Channel plan 2, Lane 1\); change or remove those first$/,
    );
    expect(await exists("goods", goods.id)).toBe(true);
  });

  it("still refuse: a device an operator is bound to names the binding, and keeps its lanes", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { stock: 50 });
    const { device } = await deviceSelling(goods, "VM-HIST-04");
    await sell(device, goods, "HIST-0004", 200);
    await fx.createRecord("operator_binding", "agent_a", { machine_id: device.id, operator_id: t.ids.operator_a });
    expect((await agentA.del(`/merchant/machine-delete?id=${device.id as number}`)).status).toBe(200);
    const destroy = await agentA.del(`/merchant/machine-recycle-destroy?id=${device.id as number}`);
    expect(destroy.status).toBe(409);
    expect(destroy.body.message).toMatch(
      /^“VM-HIST-04” is still used \(Operator device 1\); change or remove those first$/,
    );
    expect(await exists("machine", device.id)).toBe(true);
    expect((await t.db.query(`select 1 from machine_channel where machine_id = $1`, [device.id])).rows).toHaveLength(1);
  });
});

describe("destroying what history names", () => {
  it("is refused on another agent's records, and to a role without the permission", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { stock: 50 });
    const { device } = await deviceSelling(goods, "VM-HIST-05");
    await sell(device, goods, "HIST-0005", 200);
    expect((await agentA.del(`/merchant/goods-delete?id=${goods.id as number}`)).status).toBe(200);
    expect((await agentA.del(`/merchant/machine-delete?id=${device.id as number}`)).status).toBe(200);
    expect((await agentB.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`)).status).toBe(404);
    expect((await agentB.del(`/merchant/machine-recycle-destroy?id=${device.id as number}`)).status).toBe(404);
    expect((await agentA1.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`)).status).toBe(403);
    expect((await agentA1.del(`/merchant/machine-recycle-destroy?id=${device.id as number}`)).status).toBe(403);
    expect(await exists("goods", goods.id)).toBe(true);
    expect(await exists("machine", device.id)).toBe(true);
    // The refused destroy left the device's lanes as they were.
    expect((await t.db.query(`select 1 from machine_channel where machine_id = $1`, [device.id])).rows).toHaveLength(1);
  });

  it("is refused for a device still live (not in the recycle bin), its lanes kept", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { stock: 50 });
    const { device } = await deviceSelling(goods, "VM-HIST-06");
    const destroy = await agentA.del(`/merchant/machine-recycle-destroy?id=${device.id as number}`);
    expect(destroy.status).toBe(409);
    expect((await t.db.query(`select 1 from machine_channel where machine_id = $1`, [device.id])).rows).toHaveLength(1);
  });
});

describe("a database from before the copies", () => {
  it("gets the column with the title each row's record has now (a row whose record is gone keeps none)", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "Towel Pack" });
    const kept = await fx.insertRecord("clean_record", "agent_a", { goods_id: goods.id });
    const orphan = await fx.insertRecord("clean_record", "agent_a", { goods_id: goods.id });
    await t.db.query(`alter table clean_record drop column goods_name`);
    await t.db.query(`update clean_record set goods_id = $2 where id = $1`, [orphan.id, 999_999_999]);
    expect((await migrate(t.db)).statements).toEqual([
      `alter table "clean_record" add column "goods_name" text`,
      `update "clean_record" r set "goods_name" = t."title" from "goods" t
          where r."goods_name" is null and t.id = r."goods_id"`,
    ]);
    const { rows } = await t.db.query<Row>(`select id, goods_name from clean_record where id = any($1) order by id`, [
      [kept.id, orphan.id],
    ]);
    expect(rows.map((r) => r.goods_name)).toEqual(["Towel Pack", null]);
  });
});

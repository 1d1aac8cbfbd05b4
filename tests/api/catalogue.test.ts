// The catalogue a superior shares (goods synced to subordinates, channel-plan-sync, channel-plan-my,
// channel-machine-list) and the goods, charging-plan, outlet and work-order calls beside it: each with
// valid input, invalid input, another agent's records and a role without the permission.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type ListData, type Row } from "./fixtures.ts";
import { tinyPng } from "../support/files.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentB: Client;
let agentA1: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentB, agentA1] = await Promise.all(
    ["admin", "agent_a", "agent_b", "agent_a1"].map((a) => fx.client(a)),
  );
}, 60_000);
afterAll(() => t?.close());

const message = (reply: Reply) => reply.body.message;

/** agent_a's goods in a category of its own, synced to agent_a1 (or not). */
async function syncedGoods(overrides: Row = {}): Promise<Row> {
  const category = await fx.createRecord("goods_category", "agent_a", { name: `Drinks ${Math.random()}` });
  const reply = await agentA.post<Row>("/merchant/goods-add", {
    ...(await fx.makeRecord("goods", "agent_a")),
    cate_id: category.id,
    title: "Iced tea 500ml",
    unit_price: 450,
    cost_price: 200,
    down_price: 300,
    stock: 40,
    open_sync_subor: 1,
    sync_user: [t.ids.agent_a1],
    ...overrides,
  });
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
}

const copiesOf = async (id: unknown) =>
  (await t.db.query<Row>(`select * from goods where source_id = $1 and deleted_at is null order by id`, [id])).rows.map(
    (r): Row & { id: number; agent_id: number } => ({ ...r, id: Number(r.id), agent_id: Number(r.agent_id) }),
  );

describe("goods synced to subordinates", () => {
  it("reaches the chosen subordinate as its own goods at the wholesale price, in a category of its own", async () => {
    const original = await syncedGoods();
    const [copy] = await copiesOf(original.id);
    expect(copy).toMatchObject({
      agent_id: t.ids.agent_a1,
      title: "Iced tea 500ml",
      cost_price: 300, // the original's down_price
      unit_price: 450,
      stock: 0,
      open_sync_subor: 0,
    });
    const category = (await t.db.query<Row>(`select * from goods_category where id = $1`, [copy.cate_id])).rows[0];
    expect(Number(category.agent_id)).toBe(t.ids.agent_a1);
    expect(category.name).toBe((await fx.row("goods_category", original.cate_id as number))!.name);
    // The subordinate lists it among its goods, marked as synced from the original.
    const mine = await agentA1.get<ListData>(`/merchant/goods-list?page=1&limit=50&source_id=${original.id}`);
    expect(mine.status, mine.raw).toBe(200);
    expect(mine.body.data.list.map((g) => [g.id, g.source_id])).toEqual([[copy.id, original.id]]);
  });

  it("follows later changes to the original, in the same transaction", async () => {
    const original = await syncedGoods();
    const changed = await agentA.post<Row>("/merchant/goods-update", {
      ...original,
      title: "Iced lemon tea 500ml",
      down_price: 320,
    });
    expect(changed.status, changed.raw).toBe(200);
    const [copy] = await copiesOf(original.id);
    expect(copy).toMatchObject({ title: "Iced lemon tea 500ml", cost_price: 320, unit_price: 450 });
  });

  it("keeps what follows the original from being changed on the copy; the copy's own prices may change", async () => {
    const original = await syncedGoods();
    const [copy] = await copiesOf(original.id);
    const record = (await admin.get<Row>(`/merchant/goods-detail?id=${copy.id}`)).body.data;
    const locked = await admin.post("/merchant/goods-update", { ...record, title: "Renamed" });
    expect(locked.status).toBe(409);
    expect(message(locked)).toBe("Synced from your superior: Title can only be changed on the original");
    const priced = await admin.post<Row>("/merchant/goods-update", { ...record, unit_price: 500 });
    expect(priced.status, priced.raw).toBe(200);
    expect(priced.body.data.unit_price).toBe(500);
  });

  it("refuses agents that are not below the goods' owner, naming them", async () => {
    const reply = await agentA.post("/merchant/goods-add", {
      ...(await fx.makeRecord("goods", "agent_a")),
      open_sync_subor: 1,
      sync_user: [t.ids.agent_a], // itself
    });
    expect(reply.status).toBe(400);
    expect(errorFields(reply)).toEqual(["sync_user"]);
    // Another agent's subtree is not even visible to agent_a.
    const foreign = await agentA.post("/merchant/goods-add", {
      ...(await fx.makeRecord("goods", "agent_a")),
      open_sync_subor: 1,
      sync_user: [t.ids.agent_b],
    });
    expect(foreign.status).toBe(400);
    expect(errorFields(foreign)).toEqual(["sync_user"]);
  });

  it("leaves the copy with the subordinate, as its own, when sync is turned off", async () => {
    const original = await syncedGoods();
    const [copy] = await copiesOf(original.id);
    const off = await agentA.post("/merchant/goods-update", { ...original, open_sync_subor: 0 });
    expect(off.status, off.raw).toBe(200);
    expect(await copiesOf(original.id)).toEqual([]);
    const kept = (await fx.row("goods", copy.id))!;
    expect(kept.source_id).toBeNull();
    expect(Number(kept.agent_id)).toBe(t.ids.agent_a1);
  });
});

describe("channel-plan-sync", () => {
  async function planOf(goodsIds: unknown[]) {
    return fx.createRecord("channel_plan", "agent_a", {
      name: `Plan ${Math.random()}`,
      channels: goodsIds.map((goods_id, i) => ({ channel_number: i + 1, goods_id, count: 6, price: 450 })),
    });
  }

  it("gives the subordinate its own copy whose lanes name its synced goods, and brings it up to date", async () => {
    const goods = await syncedGoods();
    const [copy] = await copiesOf(goods.id);
    const plan = await planOf([goods.id, goods.id]);
    const reply = await agentA.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [t.ids.agent_a1] });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toEqual({ count: 1 });
    const mine = await admin.get<ListData>(`/merchant/channel-plan-list?page=1&limit=50&source_id=${plan.id}`);
    expect(mine.status, mine.raw).toBe(200);
    const [synced] = mine.body.data.list;
    expect(Number(synced.agent_id)).toBe(t.ids.agent_a1);
    expect(synced.name).toBe(plan.name);
    expect((synced.channels as Row[]).map((c) => [c.channel_number, c.goods_id])).toEqual([
      [1, copy.id],
      [2, copy.id],
    ]);
    // Again after a change: the same copy, changed.
    const current = (await agentA.get<Row>(`/merchant/channel-plan-detail?id=${plan.id}`)).body.data;
    expect((await agentA.post("/merchant/channel-plan-update", { ...current, name: `${plan.name} v2` })).status).toBe(
      200,
    );
    expect(
      (await agentA.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [t.ids.agent_a1] })).status,
    ).toBe(200);
    const copies = (await t.db.query<Row>(`select name from channel_plan where source_id = $1`, [plan.id])).rows;
    expect(copies).toEqual([{ name: `${plan.name} v2` }]);
    // The copy's lanes cannot be changed by its owner's side.
    const own = (await admin.get<Row>(`/merchant/channel-plan-detail?id=${synced.id}`)).body.data;
    const locked = await admin.post("/merchant/channel-plan-update", { ...own, name: "Mine now" });
    expect(locked.status).toBe(409);
  });

  it("refuses, naming them, while a lane's goods is not synced to the agent; nothing is copied", async () => {
    const unsynced = await fx.createRecord("goods", "agent_a", { title: "Lonely chips" });
    const plan = await planOf([unsynced.id]);
    const reply = await agentA.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [t.ids.agent_a1] });
    expect(reply.status).toBe(409);
    expect(message(reply)).toBe("Sync these goods to the agent first: agent a1: Lonely chips");
    expect((await t.db.query(`select 1 from channel_plan where source_id = $1`, [plan.id])).rows).toEqual([]);
  });

  it("answers 400 without agents, 404 for another agent's plan, 403 without the permission", async () => {
    const plan = await planOf([(await syncedGoods()).id]);
    const empty = await agentA.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [] });
    expect(empty.status).toBe(400);
    expect(errorFields(empty)).toEqual(["agent_ids"]);
    const foreign = await agentB.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [t.ids.agent_b] });
    expect(foreign.status).toBe(404);
    expect(
      (await agentA1.post("/merchant/channel-plan-sync", { id: plan.id, agent_ids: [t.ids.agent_a1] })).status,
    ).toBe(403);
  });

  it("channel-plan-my lists the caller's own plans only; channel-machine-list the devices a plan lays out", async () => {
    const plan = await planOf([(await syncedGoods()).id]);
    const mine = await agentA.get<ListData>(`/merchant/channel-plan-my?page=1&limit=100`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.list.every((p) => Number(p.agent_id) === t.ids.agent_a)).toBe(true);
    expect(mine.body.data.list.map((p) => p.id)).toContain(plan.id);
    expect(
      (await agentB.get<ListData>(`/merchant/channel-plan-my?page=1&limit=100`)).body.data.list.map((p) => p.id),
    ).not.toContain(plan.id);

    const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
    await fx.createRecord("machine", "agent_a", { kind: "vending" }); // not on the plan
    expect(
      (await agentA.post("/merchant/machine-bind-plan", { id: [machine.id], channel_plan_id: plan.id })).status,
    ).toBe(200);
    const devices = await agentA.get<ListData>(
      `/merchant/channel-machine-list?channel_plan_id=${plan.id}&page=1&limit=20`,
    );
    expect(devices.body.data.list.map((m) => m.id)).toEqual([machine.id]);
    expect((await agentB.get(`/merchant/channel-machine-list?channel_plan_id=${plan.id}`)).status).toBe(400);
    expect((await agentA.get(`/merchant/channel-machine-list?channel_plan_id=abc`)).status).toBe(400);
  });
});

describe("charge-plan-edit", () => {
  it("applies a charging plan to charging-cable devices, and refuses other kinds, foreign plans and viewers", async () => {
    const plan = await fx.createRecord("charge_plan", "agent_a");
    const cables = [
      await fx.createRecord("machine", "agent_a", { kind: "charging_cable" }),
      await fx.createRecord("machine", "agent_a", { kind: "charging_cable" }),
    ];
    const reply = await agentA.post("/merchant/charge-plan-edit", {
      id: plan.id,
      machine_ids: cables.map((c) => c.id),
    });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toEqual({ count: 2 });
    for (const cable of cables)
      expect(Number((await fx.row("machine", cable.id as number))!.charge_plan_id)).toBe(plan.id);

    const dryer = await fx.createRecord("machine", "agent_a", { kind: "dryer" });
    const wrong = await agentA.post("/merchant/charge-plan-edit", { id: plan.id, machine_ids: [dryer.id] });
    expect(wrong.status).toBe(409);
    expect(message(wrong)).toBe(`This does not apply to devices of this kind: ${dryer.mac_name}`);
    expect((await agentA.post("/merchant/charge-plan-edit", { id: plan.id, machine_ids: [] })).status).toBe(400);
    const foreignPlan = await fx.createRecord("charge_plan", "agent_b");
    expect(
      (await agentA.post("/merchant/charge-plan-edit", { id: foreignPlan.id, machine_ids: [cables[0].id] })).status,
    ).toBe(404);
    expect(
      (await agentA1.post("/merchant/charge-plan-edit", { id: plan.id, machine_ids: [cables[0].id] })).status,
    ).toBe(403);
  });
});

describe("goods variants", () => {
  it("goods-sku-active lists a goods' enabled variants; goods-sku-coffee what a device's lanes offer", async () => {
    const goods = await fx.createRecord("goods", "agent_a");
    const on = await fx.createRecord("goods_sku", "agent_a", { goods_id: goods.id, status: 1, price: 350 });
    await fx.insertRecord("goods_sku", "agent_a", { goods_id: goods.id, status: 0, price: 360 });
    const active = await agentA.get<Row[]>(`/merchant/goods-sku-active?goods_id=${goods.id}`);
    expect(active.status, active.raw).toBe(200);
    expect(active.body.data.map((s) => s.id)).toEqual([on.id]);
    expect((await agentB.get(`/merchant/goods-sku-active?goods_id=${goods.id}`)).status).toBe(400);
    expect((await agentA.get(`/merchant/goods-sku-active`)).status).toBe(400);

    const plan = await fx.createRecord("channel_plan", "agent_a", {
      channels: [{ channel_number: 3, goods_id: goods.id, count: 5, price: 350 }],
    });
    const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
    await agentA.post("/merchant/machine-bind-plan", { id: [machine.id], channel_plan_id: plan.id });
    const offered = await agentA.get<Row[]>(`/merchant/goods-sku-coffee?machine_id=${machine.id}`);
    expect(offered.status, offered.raw).toBe(200);
    expect(offered.body.data).toEqual([
      expect.objectContaining({ channel_number: 3, goods_id: goods.id, sku_id: on.id, price: 350 }),
    ]);
    expect((await agentB.get(`/merchant/goods-sku-coffee?machine_id=${machine.id}`)).status).toBe(400);
  });

  it("the viewer role lists no variants without goods_sku.list", async () => {
    const goods = await fx.createRecord("goods", "agent_a");
    expect((await agentA1.get(`/merchant/goods-sku-active?goods_id=${goods.id}`)).status).toBe(403);
  });
});

describe("goods-image", () => {
  const send = async (client: string | null, field: string, data: Buffer) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(data)], { type: "image/png" }), "photo.png");
    const token = client ? (await t.as(client)).token : null;
    return call<{ url: string }>(t.app, {
      method: "POST",
      url: `/merchant/goods-image?field=${field}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), locale: "en" },
      payload: form,
    });
  };

  it("stores a goods image by its content and answers its address; refuses other fields, other files, viewers", async () => {
    const ok = await send("agent_a", "carousel_url", tinyPng());
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.data.url).toMatch(/^\/uploads\/goods\/\d{4}-\d{2}\/[0-9a-f]{16}\.png$/);
    expect((await send("agent_a", "title", tinyPng())).status).toBe(400);
    const text = await send("agent_a", "pic_url", Buffer.from("not an image"));
    expect(text.status).toBe(400);
    expect(errorFields(text)).toEqual(["file"]);
    expect((await send("agent_a1", "pic_url", tinyPng())).status).toBe(403);
    expect((await send(null, "pic_url", tinyPng())).status).toBe(401);
  });
});

describe("outlets' WIFI and work orders", () => {
  it("shop-check-wifi counts an outlet's WIFI and names what a batch would repeat; the batch refuses repeats", async () => {
    const shop = await fx.createRecord("shop", "agent_a");
    const added = await agentA.post("/merchant/shop-wifi-add", {
      shop_id: shop.id,
      prefix: "Lobby-",
      count: 3,
      start_number: 1,
    });
    expect(added.status, added.raw).toBe(200);
    const check = await agentA.get(`/merchant/shop-check-wifi?shop_id=${shop.id}&prefix=Lobby-&count=3&start_number=3`);
    expect(check.status, check.raw).toBe(200);
    expect(check.body.data).toEqual({ entries: 3, enabled: 3, taken: ["Lobby-3"] });
    const again = await agentA.post("/merchant/shop-wifi-add", {
      shop_id: shop.id,
      prefix: "Lobby-",
      count: 3,
      start_number: 3,
    });
    expect(again.status).toBe(409);
    expect(message(again)).toBe("These WIFI names already exist at this outlet: Lobby-3");
    // All or nothing: Lobby-4 and Lobby-5 were not added either.
    expect((await agentA.get(`/merchant/shop-check-wifi?shop_id=${shop.id}`)).body.data).toMatchObject({ entries: 3 });
    expect((await agentA.get(`/merchant/shop-check-wifi`)).status).toBe(400);
    expect((await agentB.get(`/merchant/shop-check-wifi?shop_id=${shop.id}`)).status).toBe(400);
    expect((await agentA1.get(`/merchant/shop-check-wifi?shop_id=${shop.id}`)).status).toBe(403);
  });

  it("lets exactly one of eight identical batches in at once (the unique index decides, not a read first)", async () => {
    const shop = await fx.createRecord("shop", "agent_a");
    const body = { shop_id: shop.id, prefix: "Race-", count: 5, start_number: 1 };
    const replies = await Promise.all(Array.from({ length: 8 }, () => agentA.post("/merchant/shop-wifi-add", body)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const { rows } = await t.db.query<{ n: string }>(`select count(*) as n from wifi where shop_id = $1`, [shop.id]);
    expect(Number(rows[0].n)).toBe(5);
  });

  it("service-list-not lists only the work orders not dealt with yet, in the caller's scope", async () => {
    const pending = await fx.insertRecord("service_order", "agent_a", { status: "pending" });
    const done = await fx.insertRecord("service_order", "agent_a", { status: "completed" });
    const foreign = await fx.insertRecord("service_order", "agent_b", { status: "pending" });
    const reply = await agentA.get<ListData>(`/merchant/service-list-not?page=1&limit=100`);
    expect(reply.status, reply.raw).toBe(200);
    const ids = reply.body.data.list.map((r) => r.id);
    expect(ids).toContain(pending.id);
    expect(ids).not.toContain(done.id);
    expect(ids).not.toContain(foreign.id);
    expect(reply.body.data.list.every((r) => r.status === "pending")).toBe(true);
    expect((await agentA1.get(`/merchant/service-list-not`)).status).toBe(403);
    expect((await agentA.get(`/merchant/service-list-not?limit=0`)).status).toBe(400);
  });

  it("service-setting-type names each work-order type in the caller's language with its enabled entries", async () => {
    await fx.insertRecord("service_entry", "admin", { type: "system_bug", status: 1 });
    await fx.insertRecord("service_entry", "admin", { type: "system_bug", status: 0 });
    const zh = await fx.clientIn("admin", "zh");
    const reply = await zh.get<Row[]>(`/merchant/service-setting-type`);
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.map((r) => r.value)).toEqual(["order_issue", "system_bug", "equipment_issue", "other"]);
    expect(reply.body.data[1]).toEqual({ value: "system_bug", label: "系统故障", entries: 1 });
    expect((await agentA1.get(`/merchant/service-setting-type`)).status).toBe(403);
  });
});

describe("manage-stock-list", () => {
  it("is worked out from orders and restocks: sold, takings and loads by goods, device and business day", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { stock: 100 });
    const other = await fx.createRecord("goods", "agent_a", { stock: 100 });
    const plan = await fx.createRecord("channel_plan", "agent_a", {
      channels: [{ channel_number: 1, goods_id: goods.id, count: 10, price: 350 }],
    });
    const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
    expect(
      (await agentA.post("/merchant/machine-bind-plan", { id: [machine.id], channel_plan_id: plan.id })).status,
    ).toBe(200);
    const lane = (await t.db.query<Row>(`select id, "left" from machine_channel where machine_id = $1`, [machine.id]))
      .rows[0];
    const load = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [{ channel_id: Number(lane.id), quantity: 10 - Number(lane.left) }],
    });
    expect(load.status, load.raw).toBe(200);
    const now = new Date().toISOString();
    const order = (extra: Row) =>
      fx.insertRecord("order", "agent_a", {
        machine_id: machine.id,
        mac_name: machine.mac_name,
        channel_number: 1,
        order_time: now,
        pay_time: now,
        refund_money: 0,
        ...extra,
      });
    await order({ pay_status: "paid", money: 700, quantity: 2, delivered_quantity: 2 });
    const refunded = await order({ pay_status: "paid", money: 350, quantity: 1, delivered_quantity: 1 });
    await order({ pay_status: "pending", money: 350, quantity: 1, delivered_quantity: 0, pay_time: null });
    await t.db.query(`update "order" set pay_status = 'partial_refund', refund_money = 100 where id = $1`, [
      refunded.id,
    ]);
    // The lane changes goods: later orders are the new goods', earlier ones stay with the old.
    await t.db.query(`update machine_channel set goods_id = $2 where id = $1`, [lane.id, other.id]);
    await order({ pay_status: "paid", money: 350, quantity: 1, delivered_quantity: 1 });

    const today = (await t.db.query<{ d: string }>(`select (now() at time zone 'Asia/Bangkok')::date::text as d`))
      .rows[0].d;
    const rows = async (goodsId: unknown) =>
      (
        await agentA.get<ListData>(
          `/merchant/manage-stock-list?page=1&limit=20&machine_id=${machine.id}&goods_id=${goodsId}`,
        )
      ).body.data.list.map((r) => [r.date, r.quantity, r.money, r.restocked]);
    // 2 + 1 delivered; 700 + 350 - 100 taken; the load of the empty lane.
    expect(await rows(goods.id)).toEqual([[today, 3, 950, 10 - Number(lane.left)]]);
    expect(await rows(other.id)).toEqual([[today, 1, 350, 0]]);
    // The same figures straight from the orders.
    const direct = (
      await t.db.query<{ sold: string; money: string }>(
        `select sum(delivered_quantity) as sold, sum(money - refund_money) as money from "order"
          where machine_id = $1 and goods_id = $2 and pay_status in ('paid', 'refund_requested', 'partial_refund')`,
        [machine.id, goods.id],
      )
    ).rows[0];
    expect([Number(direct.sold), Number(direct.money)]).toEqual([3, 950]);

    // Twenty orders written at once, each in its own transaction: the day's row adds every one of them.
    await Promise.all(
      Array.from({ length: 20 }, () => order({ pay_status: "paid", money: 350, quantity: 1, delivered_quantity: 1 })),
    );
    expect(await rows(other.id)).toEqual([[today, 21, 21 * 350, 0]]);

    expect((await agentB.get<ListData>(`/merchant/manage-stock-list?machine_id=${machine.id}`)).body.data.list).toEqual(
      [],
    );
    expect((await agentA1.get(`/merchant/manage-stock-list`)).status).toBe(403);
    expect((await agentA.get(`/merchant/manage-stock-list?goods_id=abc`)).status).toBe(400);
  });
});

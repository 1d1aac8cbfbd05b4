// The statistics views (statistics-devices, statistics-stock) against figures worked out by hand from the
// orders and restocks written here: totals, each day and the breakdowns by device, goods and outlet, for
// each preset and a custom range, as the admin, agent_a (its subtree), agent_a1, agent_b, operator_a
// (its bound device) and manager_a (agent_a's outlet Riverside). Days are business days (Asia/Bangkok), as the statistics count them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;
let operator: Client;
let manager: Client;
/** Business days: today's, yesterday's and ten days ago's dates, and 01:00 of each as a timestamp. */
const day: Record<"today" | "yesterday" | "tenDaysAgo", string> = { today: "", yesterday: "", tenDaysAgo: "" };
const at: Record<keyof typeof day, string> = { today: "", yesterday: "", tenDaysAgo: "" };

type Owner = "agent_a" | "agent_a1" | "agent_b";
const ids: Record<string, number> = {};
let orders = 0;

async function device(owner: Owner, name: string, shopId: number | null): Promise<number> {
  const machine = await fx.createRecord("machine", owner, { kind: "vending", mac_name: name });
  await t.db.query(`update "machine" set shop_id = $2 where id = $1`, [machine.id, shopId]);
  return Number(machine.id);
}

async function order(
  owner: Owner,
  machine: number,
  goods: number,
  when: keyof typeof day,
  money: number,
  delivered: number,
  status = "paid",
  refund = 0,
): Promise<void> {
  const { id, path } = await fx.owner(owner);
  orders += 1;
  await t.db.query(
    `insert into "order" (order_no, mac_name, machine_id, goods_id, agent_id, agent_path, order_time, pay_time, pay_status,
                          money, refund_money, delivered_quantity, quantity, device_kind, pay_type)
     values ($1, 'VM-V', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, 'vending', 1)`,
    [
      `V${orders}`,
      machine,
      goods,
      id,
      path,
      at[when],
      status === "pending" ? null : at[when],
      status,
      money,
      refund,
      delivered,
    ],
  );
}

async function restock(owner: Owner, machine: number, goods: number, quantity: number): Promise<void> {
  const lane = await fx.insertRecord("machine_channel", owner, { machine_id: machine, goods_id: goods });
  await fx.insertRecord("machine_restock", owner, {
    machine_id: machine,
    channel_id: lane.id,
    channel_number: 1,
    goods_id: goods,
    quantity,
    restocked_at: at.today,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB, operator] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "agent_b", "operator_a"].map((a) => fx.client(a)),
  );
  const { rows } = await t.db.query<Record<string, string>>(
    `select d.n, d.day::text as day,
            to_char((d.day + time '01:00') at time zone 'Asia/Bangkok', 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as at
       from (values ('today', 0), ('yesterday', 1), ('tenDaysAgo', 10)) as v(n, back),
            lateral (select v.n, (now() at time zone 'Asia/Bangkok')::date - v.back as day) d`,
  );
  for (const r of rows) {
    day[r.n as keyof typeof day] = r.day;
    at[r.n as keyof typeof day] = r.at;
  }
  ids.shopA = Number((await fx.createRecord("shop", "agent_a", { name: "Riverside" })).id);
  ids.shopA1 = Number((await fx.createRecord("shop", "agent_a1", { name: "Market Hall" })).id);
  ids.goodsA = Number((await fx.createRecord("goods", "agent_a", { title: "Cola" })).id);
  ids.goodsA1 = Number((await fx.createRecord("goods", "agent_a1", { title: "Water" })).id);
  ids.goodsB = Number((await fx.createRecord("goods", "agent_b", { title: "Juice" })).id);
  ids.a1 = await device("agent_a", "VA-1", ids.shopA);
  ids.a2 = await device("agent_a", "VA-2", null);
  ids.a1b = await device("agent_a1", "VA1-1", ids.shopA1);
  ids.b = await device("agent_b", "VB-1", null);
  await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id: ids.a2 });
  // manager_a runs Riverside, where VA-1 stands.
  await fx.outletManager([ids.shopA]);
  manager = await fx.client("manager_a");

  // agent_a: today 700 (2 items) and 350 less 100 refunded (1), an unpaid 500; yesterday 300 (1); ten days ago 400 (1).
  await order("agent_a", ids.a1, ids.goodsA, "today", 700, 2);
  await order("agent_a", ids.a1, ids.goodsA, "today", 350, 1, "partial_refund", 100);
  await order("agent_a", ids.a1, ids.goodsA, "today", 500, 0, "pending");
  await order("agent_a", ids.a1, ids.goodsA, "yesterday", 300, 1);
  await order("agent_a", ids.a2, ids.goodsA, "tenDaysAgo", 400, 1);
  // agent_a1 (below agent_a): today 200 (1); agent_b: today 900 (3 items).
  await order("agent_a1", ids.a1b, ids.goodsA1, "today", 200, 1);
  await order("agent_b", ids.b, ids.goodsB, "today", 900, 3);
  await restock("agent_a", ids.a1, ids.goodsA, 5);
  await restock("agent_b", ids.b, ids.goodsB, 7);
  // Only the devices made here count: those the fixtures made on the way (for the records' relations) are
  // set aside, as a deleted device is.
  await t.db.query(`update "machine" set deleted_at = now() where id <> all($1)`, [[ids.a1, ids.a2, ids.a1b, ids.b]]);
});
afterAll(() => t?.close());

interface Breakdown {
  total: number;
  list: Row[];
}
interface Devices {
  from: string;
  to: string;
  today: string;
  totals: Record<string, number>;
  trend: Row[];
  breakdown: Breakdown;
}

const devices = async (who: Client, query = "") => {
  const reply = await who.get<Devices>(`/merchant/statistics-devices${query}`);
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
};
const stock = async (who: Client, query = "") => {
  const reply = await who.get<Devices>(`/merchant/statistics-stock${query}`);
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
};

describe("statistics-devices", () => {
  it("sums agent_a's subtree over the last 7 days: takings, paid orders, devices, each day and each device", async () => {
    const a = await devices(agentA);
    expect([a.from, a.to, a.today]).toEqual([
      (await t.db.query<{ d: string }>(`select ($1::date - 6)::text as d`, [day.today])).rows[0].d,
      day.today,
      day.today,
    ]);
    // 700 + 250 + 300 (VA-1) + 200 (VA1-1); VA-2's sale is ten days old.
    expect(a.totals).toEqual({ takings: 1450, orders: 4, devices: 3, active_devices: 2 });
    expect(a.trend).toHaveLength(7);
    expect(a.trend[6]).toEqual({ day: day.today, takings: 1150, orders: 3 });
    expect(a.trend[5]).toEqual({ day: day.yesterday, takings: 300, orders: 1 });
    expect(a.trend.slice(0, 5).every((d) => d.takings === 0 && d.orders === 0)).toBe(true);
    expect(a.breakdown).toEqual({
      total: 3,
      list: [
        { id: ids.a1, name: "VA-1", outlet: "Riverside", devices: 1, takings: 1250, orders: 3 },
        { id: ids.a1b, name: "VA1-1", outlet: "Market Hall", devices: 1, takings: 200, orders: 1 },
        { id: ids.a2, name: "VA-2", outlet: null, devices: 1, takings: 0, orders: 0 },
      ],
    });
  });

  it("breaks the same figures down by outlet and by goods", async () => {
    const byShop = (await devices(agentA, "?by=shop")).breakdown;
    expect(byShop).toEqual({
      total: 3,
      list: [
        { id: ids.shopA, name: "Riverside", devices: 1, takings: 1250, orders: 3 },
        { id: ids.shopA1, name: "Market Hall", devices: 1, takings: 200, orders: 1 },
        { id: null, name: null, devices: 1, takings: 0, orders: 0 },
      ],
    });
    const byGoods = (await devices(agentA, "?by=goods&period=last_30_days")).breakdown;
    expect(byGoods).toEqual({
      total: 2,
      list: [
        { id: ids.goodsA, name: "Cola", devices: 2, takings: 1650, sold: 5 },
        { id: ids.goodsA1, name: "Water", devices: 1, takings: 200, sold: 1 },
      ],
    });
  });

  it("takes each preset and a custom range on the business calendar", async () => {
    const totals = async (query: string) => (await devices(agentA, query)).totals;
    expect(await totals("?period=today")).toMatchObject({ takings: 1150, orders: 3, active_devices: 2 });
    expect(await totals("?period=yesterday")).toMatchObject({ takings: 300, orders: 1, active_devices: 1 });
    expect(await totals("?period=last_30_days")).toMatchObject({ takings: 1850, orders: 5, active_devices: 3 });
    expect(await totals("?period=last_90_days")).toMatchObject({ takings: 1850, orders: 5 });
    const custom = await devices(agentA, `?period=custom&from=${day.tenDaysAgo}&to=${day.yesterday}`);
    expect([custom.from, custom.to]).toEqual([day.tenDaysAgo, day.yesterday]);
    expect(custom.totals).toMatchObject({ takings: 700, orders: 2, active_devices: 2 });
    expect(custom.trend).toHaveLength(10);
    const month = await devices(agentA, "?period=this_month");
    expect(month.from).toBe(`${day.today.slice(0, 8)}01`);
    expect(month.trend).toHaveLength(Number(day.today.slice(8)));
  });

  it("pages and orders the breakdown as asked", async () => {
    const second = (await devices(agentA, "?limit=2&page=2")).breakdown;
    expect(second).toEqual({ total: 3, list: [expect.objectContaining({ id: ids.a2 })] });
    const ascending = (await devices(agentA, "?sort=orders&order=asc")).breakdown.list.map((r) => r.id);
    expect(ascending).toEqual([ids.a2, ids.a1b, ids.a1]);
  });

  it("counts for each role only what it may see", async () => {
    // The admin: everything (the devices the fixtures set aside are not counted).
    expect((await devices(admin)).totals).toEqual({ takings: 2350, orders: 5, devices: 4, active_devices: 3 });
    // agent_a1: its own device; agent_b: its own, none of agent_a's.
    expect((await devices(agentA1)).totals).toEqual({ takings: 200, orders: 1, devices: 1, active_devices: 1 });
    const b = await devices(agentB);
    expect(b.totals).toEqual({ takings: 900, orders: 1, devices: 1, active_devices: 1 });
    expect(b.breakdown.list.map((r) => r.id)).toEqual([ids.b]);
    expect((await devices(agentB, "?by=goods")).breakdown.list.map((r) => r.id)).toEqual([ids.goodsB]);
    // operator_a: the one device bound to it, sold ten days ago.
    expect((await devices(operator)).totals).toEqual({ takings: 0, orders: 0, devices: 1, active_devices: 0 });
    const month = await devices(operator, "?period=last_30_days");
    expect(month.totals).toEqual({ takings: 400, orders: 1, devices: 1, active_devices: 1 });
    expect(month.breakdown.list).toEqual([
      { id: ids.a2, name: "VA-2", outlet: null, devices: 1, takings: 400, orders: 1 },
    ]);
  });

  it("counts for an outlet manager its outlet's device only", async () => {
    const seven = await devices(manager);
    expect(seven.totals).toEqual({ takings: 1250, orders: 3, devices: 1, active_devices: 1 });
    expect((await devices(manager, "?by=shop")).breakdown.list).toEqual([
      { id: ids.shopA, name: "Riverside", devices: 1, takings: 1250, orders: 3 },
    ]);
    expect((await devices(manager, "?period=today")).totals).toMatchObject({ takings: 950, orders: 2 });
    expect((await stock(manager, "?period=today")).totals).toEqual({
      sold: 3,
      takings: 950,
      restocked: 5,
      goods: 1,
      devices: 1,
    });
  });

  it("agrees with the device list's takings of today", async () => {
    const list = await agentA.get<{ list: Row[] }>("/merchant/machine-list?limit=50");
    const listed = list.body.data.list.reduce((sum, r) => sum + Number(r.day_money), 0);
    expect(listed).toBe((await devices(agentA, "?period=today")).totals.takings);
  });

  it("refuses bad input with the field to fix", async () => {
    const bad = async (query: string) => {
      const reply = await agentA.get(`/merchant/statistics-devices${query}`);
      expect(reply.status, query).toBe(400);
      return errorFields(reply);
    };
    expect(await bad("?period=week")).toEqual(["period"]);
    expect(await bad("?by=agent")).toEqual(["by"]);
    expect(await bad("?limit=1000")).toEqual(["limit"]);
    expect(await bad(`?period=custom&to=${day.today}`)).toEqual(["from"]);
    expect(await bad("?period=custom")).toEqual(["from", "to"]);
    expect(await bad(`?period=custom&from=${day.today}&to=${day.yesterday}`)).toEqual(["to"]);
    expect(await bad("?period=custom&from=2025-01-01&to=2026-01-02")).toEqual(["to"]);
    expect(await bad("?period=custom&from=yesterday&to=today")).toEqual(expect.arrayContaining(["from"]));
  });

  it("is refused to a role that may not list devices", async () => {
    const role = await t.db.query<{ id: number }>(
      `insert into "role" (name, level, permissions) values ('Orders only', 3, '["order.list"]') returning id`,
    );
    await fx.insertRecord("agent", "agent_a", { account: "orders_only", role_id: role.rows[0].id });
    await t.db.query(`update "agent" set password = (select password from "agent" where account = 'agent_b')
                       where account = 'orders_only'`);
    const viewer = await t.as("orders_only", "demo123");
    expect((await viewer.get("/merchant/statistics-devices")).status).toBe(403);
    expect((await viewer.get("/merchant/statistics-stock")).status).toBe(403);
  });
});

describe("statistics-stock", () => {
  it("sums agent_a's subtree: items sold, takings, restocked, goods and devices, by goods", async () => {
    const a = await stock(agentA, "?period=today");
    // Cola: 2 + 1 sold on VA-1 for 700 + 250, 5 loaded; Water: 1 on VA1-1 for 200.
    expect(a.totals).toEqual({ sold: 4, takings: 1150, restocked: 5, goods: 2, devices: 2 });
    expect(a.trend).toEqual([{ day: day.today, sold: 4, takings: 1150, restocked: 5 }]);
    expect(a.breakdown).toEqual({
      total: 2,
      list: [
        { id: ids.goodsA, name: "Cola", devices: 1, sold: 3, takings: 950, restocked: 5 },
        { id: ids.goodsA1, name: "Water", devices: 1, sold: 1, takings: 200, restocked: 0 },
      ],
    });
  });

  it("breaks it down by device and by outlet, over a longer period", async () => {
    const byDevice = (await stock(agentA, "?period=last_30_days&by=machine")).breakdown;
    expect(byDevice).toEqual({
      total: 3,
      list: [
        { id: ids.a1, name: "VA-1", outlet: "Riverside", devices: 1, sold: 4, takings: 1250, restocked: 5 },
        // One sold each: the older device first.
        { id: ids.a2, name: "VA-2", outlet: null, devices: 1, sold: 1, takings: 400, restocked: 0 },
        { id: ids.a1b, name: "VA1-1", outlet: "Market Hall", devices: 1, sold: 1, takings: 200, restocked: 0 },
      ],
    });
    const byShop = (await stock(agentA, "?period=last_30_days&by=shop&sort=takings")).breakdown;
    expect(byShop.list).toEqual([
      { id: ids.shopA, name: "Riverside", devices: 1, sold: 4, takings: 1250, restocked: 5 },
      { id: null, name: null, devices: 1, sold: 1, takings: 400, restocked: 0 },
      { id: ids.shopA1, name: "Market Hall", devices: 1, sold: 1, takings: 200, restocked: 0 },
    ]);
  });

  it("counts for each role only what it may see", async () => {
    expect((await stock(admin, "?period=today")).totals).toEqual({
      sold: 7,
      takings: 2050,
      restocked: 12,
      goods: 3,
      devices: 3,
    });
    const b = await stock(agentB, "?period=today");
    expect(b.totals).toEqual({ sold: 3, takings: 900, restocked: 7, goods: 1, devices: 1 });
    expect(b.breakdown.list.map((r) => r.id)).toEqual([ids.goodsB]);
    // agent_a1's role and an operator may not list stock consumption.
    expect((await agentA1.get("/merchant/statistics-stock")).status).toBe(403);
    expect((await operator.get("/merchant/statistics-stock")).status).toBe(403);
  });

  it("refuses bad input", async () => {
    const reply = await agentA.get(`/merchant/statistics-stock?period=custom&from=${day.today}`);
    expect(reply.status).toBe(400);
    expect(errorFields(reply)).toEqual(["to"]);
    expect((await agentA.get("/merchant/statistics-stock?sort=orders")).status).toBe(400);
  });
});

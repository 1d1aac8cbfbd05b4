// The home statistics against figures worked out by hand from the orders written here: counts, turnover,
// refunds and revenue for today, yesterday, the week and the month, for the admin and for agents (an
// agent's figures cover its subtree and nothing else); the same numbers as the order list filtered to the
// day and as the ledger; a refund changing them at once; the trend, the mix, the map, the to-do list and
// the team. Days are business days (Asia/Bangkok), as the statistics count them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordPayments } from "../../server/domain/money/orders.ts";
import { rebuildRollups } from "../../server/db/rollups.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;
/** 01:00 of today's and yesterday's business day, as ISO timestamps; today's business date. */
let today: string;
let yesterday: string;
let day: string;

type Owner = "agent_a" | "agent_a1" | "agent_b";
const placed: Record<string, number> = {};

async function order(owner: Owner, at: string, money: number, status = "paid", kind = "vending"): Promise<number> {
  const machine = Number(await fx.relatedId("machine", owner));
  const { id, path } = await fx.owner(owner);
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money,
                          refund_money, device_kind, pay_type)
     values ($1, 'VM-S', $2, $3, $4, $5, $6, $7, $8, 0, $9, 1) returning id`,
    [
      `S${Object.keys(placed).length + 1}`,
      machine,
      id,
      path,
      at,
      status === "pending" ? null : at,
      status,
      money,
      kind,
    ],
  );
  const orderId = Number(rows[0].id);
  placed[`S${Object.keys(placed).length + 1}`] = orderId;
  await t.db.transaction((tx) => recordPayments(tx, [orderId]));
  return orderId;
}

let refundable: number;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "agent_b"].map((a) => fx.client(a)),
  );
  const { rows } = await t.db.query<{ today: string; yesterday: string; day: string }>(
    `select to_char(((now() at time zone 'Asia/Bangkok')::date + time '01:00') at time zone 'Asia/Bangkok', 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as today,
            to_char(((now() at time zone 'Asia/Bangkok')::date - 1 + time '01:00') at time zone 'Asia/Bangkok', 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as yesterday,
            (now() at time zone 'Asia/Bangkok')::date::text as day`,
  );
  ({ today, yesterday, day } = rows[0]);
  // agent_a today: two paid (400, 300), one waiting for payment (500); yesterday one paid (250).
  await order("agent_a", today, 400);
  refundable = await order("agent_a", today, 300);
  await order("agent_a", today, 500, "pending");
  await order("agent_a", yesterday, 250, "paid", "dryer");
  // agent_a1 (below agent_a) today: one paid (200); agent_b today: one paid (900).
  await order("agent_a1", today, 200, "paid", "charging_cable");
  await order("agent_b", today, 900);
  expect((await admin.post("/merchant/order-refund", { id: refundable, refund_money: 100 })).status).toBe(200);
});
afterAll(() => t?.close());

interface Totals {
  periods: Record<
    "today" | "yesterday" | "week" | "month",
    { orders: number; turnover: number; refunds: number; revenue: number }
  >;
  totals: { orders: number; turnover: number; revenue: number };
  devices: number;
  team: number;
  members: number;
  day: string;
}

describe("statistics-total", () => {
  it("counts agent_a's subtree: its own and agent_a1's orders, not agent_b's", async () => {
    const reply = await agentA.get<Totals>("/merchant/statistics-total");
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.day).toBe(day);
    // Today: 400 + 300 (100 refunded) + 500 unpaid + 200 (agent_a1).
    expect(reply.body.data.periods.today).toEqual({ orders: 4, turnover: 900, refunds: 100, revenue: 800 });
    expect(reply.body.data.periods.yesterday).toEqual({ orders: 1, turnover: 250, refunds: 0, revenue: 250 });
    expect(reply.body.data.totals).toEqual({ orders: 5, turnover: 1150, revenue: 1050 });
    // agent_a1 is its team; one device each (the fixtures' machines).
    expect(reply.body.data).toMatchObject({ devices: 2, team: 1, members: 0 });
  });

  it("counts only agent_b's own for agent_b, and everything for the admin", async () => {
    const b = (await agentB.get<Totals>("/merchant/statistics-total")).body.data;
    expect(b.periods.today).toEqual({ orders: 1, turnover: 900, refunds: 0, revenue: 900 });
    expect(b.team).toBe(0);
    const all = (await admin.get<Totals>("/merchant/statistics-total")).body.data;
    expect(all.periods.today).toEqual({ orders: 5, turnover: 1800, refunds: 100, revenue: 1700 });
    expect(all.totals).toEqual({ orders: 6, turnover: 2050, revenue: 1950 });
    expect(all.team).toBe(3);
  });

  it("agrees with the order list filtered to today and with the ledger", async () => {
    const { rows } = await t.db.query<{ start: string; end: string }>(
      `select to_char((now() at time zone 'Asia/Bangkok')::date::timestamp at time zone 'Asia/Bangkok', 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') as start,
              to_char(((now() at time zone 'Asia/Bangkok')::date + 1)::timestamp at time zone 'Asia/Bangkok' - interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MSTZH:TZM') as end`,
    );
    const list = await agentA.get<{ total: number }>(
      `/merchant/order-list?order_time_gte=${encodeURIComponent(rows[0].start)}&order_time_lte=${encodeURIComponent(rows[0].end)}`,
    );
    const stats = (await agentA.get<Totals>("/merchant/statistics-total")).body.data;
    expect(list.body.data.total).toBe(stats.periods.today.orders);
    const { rows: ledger } = await t.db.query<{ revenue: number }>(
      `select coalesce(sum(revenue_change), 0)::int as revenue from "payment_record"
        where agent_path like (select agent_path from "agent" where account = 'agent_a') || '%'
          and (paid_at at time zone 'Asia/Bangkok')::date = (now() at time zone 'Asia/Bangkok')::date`,
    );
    expect(stats.periods.today.revenue).toBe(ledger[0].revenue);
  });

  it("moves with a refund at once", async () => {
    const before = (await agentA.get<Totals>("/merchant/statistics-total")).body.data;
    expect((await agentA.post("/merchant/order-refund", { id: refundable, refund_money: 50 })).status).toBe(200);
    const after = (await agentA.get<Totals>("/merchant/statistics-total")).body.data;
    expect(after.periods.today.refunds).toBe(before.periods.today.refunds + 50);
    expect(after.periods.today.revenue).toBe(before.periods.today.revenue - 50);
    expect(after.totals.revenue).toBe(before.totals.revenue - 50);
    expect(after.periods.today.orders).toBe(before.periods.today.orders);
  });

  it("is refused to a role that may not list orders", async () => {
    expect((await (await fx.client("operator_a")).get("/merchant/statistics-total")).status).toBe(403);
  });
});

describe("statistics-trade and statistics-order", () => {
  it("gives one entry per day, oldest first, with today's and yesterday's figures in place", async () => {
    const reply = await agentB.get<Row[]>("/merchant/statistics-trade?days=7");
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toHaveLength(7);
    expect(reply.body.data[6]).toEqual({ day, orders: 1, turnover: 900, refunds: 0, revenue: 900 });
    expect(reply.body.data.slice(0, 6).every((d) => d.orders === 0 && d.turnover === 0)).toBe(true);
    expect((await agentB.get("/merchant/statistics-trade?days=8")).status).toBe(400);
  });

  it("splits the orders by device kind, pay type and pay status", async () => {
    const reply = await agentA.get<Record<string, Row[]>>("/merchant/statistics-order?days=7");
    expect(reply.body.data.kinds).toEqual([
      { key: "vending", orders: 3, turnover: 700 },
      { key: "charging_cable", orders: 1, turnover: 200 },
      { key: "dryer", orders: 1, turnover: 250 },
    ]);
    expect(reply.body.data.statuses).toEqual([
      { key: "paid", orders: 3, turnover: 850 },
      { key: "partial_refund", orders: 1, turnover: 300 },
      { key: "pending", orders: 1, turnover: 0 },
    ]);
  });
});

describe("statistics-line-machine, statistics-dealt and statistics-manage", () => {
  it("maps only the caller's devices that stand at an outlet with coordinates", async () => {
    const mine = await agentA.get<Record<string, unknown[]>>("/merchant/statistics-line-machine");
    expect(mine.status, mine.raw).toBe(200);
    const ids = mine.body.data.id as number[];
    const { rows } = await t.db.query<{ id: number }>(
      `select m.id from "machine" m join "shop" s on s.id = m.shop_id
        where m.agent_path like (select agent_path from "agent" where account = 'agent_a') || '%' and s.longitude is not null order by m.id`,
    );
    expect(ids).toEqual(rows.map((r) => Number(r.id)));
    expect(ids.length).toBeGreaterThan(0);
    for (const column of ["mac_name", "kind", "status", "longitude", "latitude"])
      expect(mine.body.data[column], column).toHaveLength(ids.length);
    const theirs = (await agentB.get<Record<string, number[]>>("/merchant/statistics-line-machine")).body.data.id;
    expect(theirs.some((id) => ids.includes(id))).toBe(false);
  });

  it("counts what waits, and says -1 for what the caller may not see", async () => {
    await t.db.query(`update "order" set pay_status = 'refund_requested' where id = $1`, [placed.S1]);
    const a = (await agentA.get<Record<string, number>>("/merchant/statistics-dealt")).body.data;
    expect(a.refund_requests).toBe(1);
    // The same as the order list filtered to the state.
    const listed = await agentA.get<{ total: number }>("/merchant/order-list?pay_status=refund_requested");
    expect(listed.body.data.total).toBe(1);
    expect(a.withdrawals).toBe(0);
    const a1 = (await agentA1.get<Record<string, number>>("/merchant/statistics-dealt")).body.data;
    // agent_a1's role lists orders and devices, not work orders or withdrawals.
    expect(a1).toMatchObject({ refund_requests: 0, work_orders: -1, withdrawals: -1 });
    expect((await agentB.get<Record<string, number>>("/merchant/statistics-dealt")).body.data.refund_requests).toBe(0);
  });

  it("counts the devices with an empty lane as out of stock, as the device list filtered so does", async () => {
    const outOfStock = async () =>
      (await agentA.get<Record<string, number>>("/merchant/statistics-dealt")).body.data.out_of_stock;
    const listed = async () =>
      (await agentA.get<{ total: number }>("/merchant/machine-list?stock_status=out_of_stock")).body.data.total;
    const before = await outOfStock();
    expect(before).toBe(await listed());
    const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
    const goods = await fx.createRecord("goods", "agent_a");
    const lane = await fx.insertRecord("machine_channel", "agent_a", {
      machine_id: machine.id,
      goods_id: goods.id,
      left: 1,
      count: 5,
      shelf_status: 1,
    });
    expect(await outOfStock()).toBe(before);
    await t.db.query(`update machine_channel set "left" = 0 where id = $1`, [lane.id]);
    expect(await outOfStock()).toBe(before + 1);
    expect(await listed()).toBe(before + 1);
    // agent_b's devices are not agent_a's to count.
    expect((await agentB.get<Record<string, number>>("/merchant/statistics-dealt")).body.data.out_of_stock).toBe(0);
  });

  it("maps and counts for an operator only the devices bound to it, as its device list has them", async () => {
    const bound = Number(await fx.relatedId("machine", "agent_a"));
    await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id: bound });
    const goods = await fx.createRecord("goods", "agent_a");
    await fx.insertRecord("machine_channel", "agent_a", {
      machine_id: bound,
      goods_id: goods.id,
      left: 0,
      shelf_status: 1,
    });
    const operator = await fx.client("operator_a");
    const map = (await operator.get<Record<string, number[]>>("/merchant/statistics-line-machine")).body.data;
    expect(map.id).toEqual([bound]);
    const dealt = (await operator.get<Record<string, number>>("/merchant/statistics-dealt")).body.data;
    const listed = await operator.get<{ total: number }>("/merchant/machine-list?stock_status=out_of_stock");
    expect(dealt).toEqual({ refund_requests: -1, work_orders: -1, out_of_stock: 1, withdrawals: -1 });
    expect(listed.body.data.total).toBe(1);
    // agent_a counts the other empty device too.
    expect((await agentA.get<Record<string, number>>("/merchant/statistics-dealt")).body.data.out_of_stock).toBe(2);
  });

  it("maps and counts for an outlet manager only the devices at its outlets; refuses it the agent's roll-ups", async () => {
    const outlet = Number((await fx.insertRecord("shop", "agent_a")).id);
    const device = Number((await fx.insertRecord("machine", "agent_a", { shop_id: outlet })).id);
    const goods = await fx.createRecord("goods", "agent_a");
    await fx.insertRecord("machine_channel", "agent_a", {
      machine_id: device,
      goods_id: goods.id,
      left: 0,
      shelf_status: 1,
    });
    await fx.outletManager([outlet]);
    const manager = await fx.client("manager_a");
    const map = (await manager.get<Record<string, number[]>>("/merchant/statistics-line-machine")).body.data;
    expect(map.id).toEqual([device]);
    const dealt = (await manager.get<Record<string, number>>("/merchant/statistics-dealt")).body.data;
    expect(dealt).toEqual({ refund_requests: -1, work_orders: -1, out_of_stock: 1, withdrawals: -1 });
    // It lists its outlets' orders, but the roll-ups are its agent's whole business: refused.
    for (const call of ["statistics-total", "statistics-trade", "statistics-order", "statistics-manage"])
      expect((await manager.get(`/merchant/${call}`)).status, call).toBe(403);
    expect((await agentA.get<Record<string, number>>("/merchant/statistics-dealt")).body.data.out_of_stock).toBe(3);
  });

  it("lists the caller's direct sub-agents with their subtree's month", async () => {
    const team = (await agentA.get<Row[]>("/merchant/statistics-manage")).body.data;
    expect(team).toEqual([
      {
        id: t.ids.agent_a1,
        nickname: "agent a1",
        devices: 1,
        turnover: 200,
        revenue: 200,
        withdrawable: 200,
        pending: 0,
      },
    ]);
    const admins = (await admin.get<Row[]>("/merchant/statistics-manage")).body.data.map((r) => r.id);
    expect(admins.sort()).toEqual([t.ids.agent_a, t.ids.agent_b].sort());
    expect((await agentA1.get("/merchant/statistics-manage")).status).toBe(403);
  });
});

describe("the daily roll-ups", () => {
  // Its own changes (a late order, an order changed, one deleted) on top of the file's fixtures, so the
  // other tests' figures stay as they are: it runs last.
  it("hold exactly what a rebuild from the orders and the ledger gives, after inserts, updates and deletes", async () => {
    await order("agent_b", yesterday, 120, "refund_requested");
    await t.db.query(
      `update "order" set money = money + 1, pay_type = 3, agent_id = $2, agent_path = $3 where id = $1`,
      [placed.S2, t.ids.agent_b, (await fx.owner("agent_b")).path],
    );
    const extra = await order("agent_a1", today, 70, "cancelled");
    await t.db.query(`delete from "order" where id = $1`, [extra]);
    const snapshot = async () => ({
      orders: (
        await t.db.query(
          `select day::text, agent_id, agent_path, orders, turnover, refunds
             from stat_order_day where orders <> 0 or turnover <> 0 or refunds <> 0 order by 1, 2`,
        )
      ).rows,
      mix: (
        await t.db.query(
          `select day::text, agent_id, agent_path, dimension, key, orders, turnover
             from stat_order_mix where orders <> 0 or turnover <> 0 order by 1, 2, 4, 5`,
        )
      ).rows,
      revenue: (
        await t.db.query(`select day::text, agent_id, revenue from stat_revenue_day where revenue <> 0 order by 1, 2`)
      ).rows,
    });
    const kept = await snapshot();
    await t.db.transaction((tx) => rebuildRollups(tx));
    expect(kept).toEqual(await snapshot());
    expect(kept.orders.length).toBeGreaterThan(3);
    expect(kept.mix.length).toBeGreaterThan(10);
  });
});

// Restocking: the free-space rule in the statement that loads the lane (never overfilled, whatever
// races), the goods' stock lowered, each load recorded, capacity and goods untouched; operators restock
// only their own devices, and only with the restock permission. On PGlite the thirty restocks queue on
// its one connection; with DATABASE_URL (npm run test:pg, and CI) they race on PostgreSQL's pool.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let agentA: Client;
let agentB: Client;
let operator: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [agentA, agentB, operator] = await Promise.all(["agent_a", "agent_b", "operator_a"].map((a) => fx.client(a)));
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, stock_alert_quantity) values ('global', 'Test', 2)`,
  );
}, 60_000);
afterAll(() => t?.close());

interface Lane {
  id: number;
  channel_number: number;
  left: number;
  count: number;
}

/** agent_a's vending device with two lanes of one goods: lane 1 holds 3 of 8, lane 2 holds 4 of 5. */
async function device(stock = 100) {
  const goods = await fx.createRecord("goods", "agent_a", { stock });
  const plan = await fx.createRecord("channel_plan", "agent_a", {
    channels: [
      { channel_number: 1, goods_id: goods.id, count: 8, price: 300 },
      { channel_number: 2, goods_id: goods.id, count: 5, price: 300 },
    ],
  });
  const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
  expect((await agentA.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: plan.id })).status).toBe(
    200,
  );
  await t.db.query(
    `update machine_channel set "left" = case channel_number when 1 then 3 else 4 end where machine_id = $1`,
    [machine.id],
  );
  return { machine, goods, lanes: await lanes(machine.id as number) };
}

async function lanes(machineId: number): Promise<Lane[]> {
  const { rows } = await t.db.query<Lane>(
    `select id, channel_number, "left", count from machine_channel where machine_id = $1 order by channel_number`,
    [machineId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    channel_number: r.channel_number,
    left: Number(r.left),
    count: Number(r.count),
  }));
}

const stockOf = async (goodsId: unknown) =>
  Number((await t.db.query<{ stock: number }>(`select stock from goods where id = $1`, [goodsId])).rows[0].stock);

const bindOperator = (machineId: unknown) =>
  t.db.query(
    `insert into operator_binding (operator_id, machine_id, profit_type, profit_percent, agent_id, agent_path)
     select $1, $2, 'percent', 0.1, agent_id, agent_path from machine where id = $2`,
    [t.ids.operator_a, machineId],
  );

describe("machine-replenishment-check", () => {
  it("answers each lane's goods, what is left, its capacity and free space", async () => {
    const {
      machine,
      goods,
      lanes: [one, two],
    } = await device();
    const reply = await agentA.post<{ lanes: Row[]; stock_alert_quantity: number }>(
      "/merchant/machine-replenishment-check",
      { id: machine.id },
    );
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.stock_alert_quantity).toBe(2);
    expect(
      reply.body.data.lanes.map((l) => [
        l.channel_id,
        l.channel_number,
        l.goods_name,
        l.left,
        l.count,
        l.free,
        l.stock,
        l.low,
      ]),
    ).toEqual([
      [one.id, 1, goods.title, 3, 8, 5, 100, false],
      [two.id, 2, goods.title, 4, 5, 1, 100, false],
    ]);
    expect((await agentB.post("/merchant/machine-replenishment-check", { id: machine.id })).status).toBe(404);
    expect((await agentA.post("/merchant/machine-replenishment-check", {})).status).toBe(400);
  });
});

describe("machine-replenishment-goods", () => {
  it("loads lanes within their free space, lowers the goods' stock and records each load", async () => {
    const {
      machine,
      goods,
      lanes: [one, two],
    } = await device();
    const reply = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [
        { channel_id: one.id, quantity: 5 },
        { channel_id: two.id, quantity: 1 },
      ],
    });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toEqual({ count: 2, quantity: 6 });
    expect((await lanes(machine.id as number)).map((l) => [l.left, l.count])).toEqual([
      [8, 8],
      [5, 5],
    ]);
    expect(await stockOf(goods.id)).toBe(94);
    const records = await agentA.get<{ list: Row[] }>(
      `/merchant/machine-replenishment-list?machine_id=${machine.id as number}`,
    );
    expect(
      records.body.data.list
        .map((r) => [r.channel_number, r.quantity, r.left_after, r.actor_kind, r.actor_name])
        .sort(),
    ).toEqual([
      [1, 5, 8, "agent", "agent a"],
      [2, 1, 5, "agent", "agent a"],
    ]);
  });

  it("refuses more than the free space with SPEC's message, and loads nothing then", async () => {
    const {
      machine,
      goods,
      lanes: [one, two],
    } = await device();
    const reply = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [
        { channel_id: one.id, quantity: 2 },
        { channel_id: two.id, quantity: 2 },
      ],
    });
    expect(reply.status).toBe(400);
    expect((reply.body.data as { errors: unknown[] }).errors).toEqual([
      {
        field: "lanes/1/quantity",
        keyword: "restockAboveFree",
        message: "Current lane 2 has 1 left, so at most 1 can be added",
      },
    ]);
    // The first lane's load was undone with the refusal.
    expect((await lanes(machine.id as number)).map((l) => l.left)).toEqual([3, 4]);
    expect(await stockOf(goods.id)).toBe(100);
    const zero = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [{ channel_id: one.id, quantity: 0 }],
    });
    expect(errorFields(zero)).toEqual(["lanes/0/quantity"]);
    const nothing = await agentA.post("/merchant/machine-replenishment-goods", { id: machine.id });
    expect(errorFields(nothing)).toEqual(["lanes"]);
    const foreignLane = await device();
    const mixed = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [{ channel_id: foreignLane.lanes[0].id, quantity: 1 }],
    });
    expect(errorFields(mixed)).toEqual(["lanes/0/channel_id"]);
  });

  it("refuses more than the goods' stock", async () => {
    const {
      machine,
      goods,
      lanes: [one],
    } = await device(2);
    const reply = await agentA.post("/merchant/machine-replenishment-goods", {
      id: machine.id,
      lanes: [{ channel_id: one.id, quantity: 3 }],
    });
    expect(reply.status).toBe(400);
    expect((reply.body.data as { errors: unknown[] }).errors[0]).toMatchObject({
      field: "lanes/0/quantity",
      message: `Only 2 of ${goods.title as string} in stock`,
    });
    expect((await lanes(machine.id as number))[0].left).toBe(3);
  });

  it("fills every lane to capacity as far as the stock goes", async () => {
    const { machine, goods } = await device(5);
    const reply = await agentA.post("/merchant/machine-replenishment-goods", { id: machine.id, fill: true });
    expect(reply.body.data).toEqual({ count: 1, quantity: 5 });
    // Lane 1 takes its 5 free first; lane 2 gets nothing, the stock being gone.
    expect((await lanes(machine.id as number)).map((l) => l.left)).toEqual([8, 4]);
    expect(await stockOf(goods.id)).toBe(0);
  });

  it("lets an operator restock only its own devices, with the restock permission, and never change a lane", async () => {
    const own = await device();
    const other = await device();
    await bindOperator(own.machine.id);
    const mine = await operator.post("/merchant/machine-replenishment-goods", {
      id: own.machine.id,
      lanes: [{ channel_id: own.lanes[0].id, quantity: 1 }],
    });
    expect(mine.status, mine.raw).toBe(200);
    const records = await operator.get<{ list: Row[] }>(
      `/merchant/machine-replenishment-list?machine_id=${own.machine.id as number}`,
    );
    expect(records.body.data.list.map((r) => [r.actor_kind, r.actor_name, r.quantity])).toEqual([
      ["operator", "Operator A", 1],
    ]);
    const notMine = await operator.post("/merchant/machine-replenishment-goods", {
      id: other.machine.id,
      lanes: [{ channel_id: other.lanes[0].id, quantity: 1 }],
    });
    expect(notMine.status).toBe(404);
    // Raising a lane's capacity to get past the rule is not an operator's to do.
    const raise = await operator.post("/merchant/machine-channel-update", {
      id: own.lanes[0].id,
      count: 100,
      version: 1,
    });
    expect(raise.status).toBe(403);
    await t.db.query(`update operator set refill = 0 where id = $1`, [t.ids.operator_a]);
    try {
      const noRefill = await t.as("operator_a");
      const refused = await noRefill.post("/merchant/machine-replenishment-goods", {
        id: own.machine.id,
        lanes: [{ channel_id: own.lanes[0].id, quantity: 1 }],
      });
      expect(refused.status).toBe(403);
    } finally {
      await t.db.query(`update operator set refill = 1 where id = $1`, [t.ids.operator_a]);
    }
    expect((await lanes(own.machine.id as number)).map((l) => l.count)).toEqual([8, 5]);
  });
});

describe("thirty restocks of one lane at once", () => {
  it("never overfill it: exactly its free space is loaded, once per unit, and recorded", async () => {
    const {
      machine,
      goods,
      lanes: [one],
    } = await device();
    const free = one.count - one.left;
    const replies = await Promise.all(
      Array.from({ length: 30 }, () =>
        agentA.post("/merchant/machine-replenishment-goods", {
          id: machine.id,
          lanes: [{ channel_id: one.id, quantity: 1 }],
        }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(free);
    expect(statuses.filter((s) => s === 400)).toHaveLength(30 - free);
    expect((await lanes(machine.id as number))[0].left).toBe(one.count);
    expect(await stockOf(goods.id)).toBe(100 - free);
    const recorded = await t.db.query<{ n: number; q: number }>(
      `select count(*)::int as n, sum(quantity)::int as q from machine_restock where channel_id = $1`,
      [one.id],
    );
    expect(recorded.rows[0]).toEqual({ n: free, q: free });
  });
});

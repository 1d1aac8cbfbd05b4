// Devices at work: binding to agents, outlets, plans, rooms and hardware; initialising; the live state
// (status, stock state, takings, outlet and team counts) worked out from its sources when read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDemoDevices } from "../../server/seed/devices.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type FieldErrors, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentB: Client;
let operator: Client;

const NEAR_EXPIRY_DAYS = 15;
const STOCK_ALERT = 2;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentB, operator] = await Promise.all(
    ["admin", "agent_a", "agent_b", "operator_a"].map((a) => fx.client(a)),
  );
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, near_expiry_days, stock_alert_quantity)
     values ('global', 'Test', $1, $2)`,
    [NEAR_EXPIRY_DAYS, STOCK_ALERT],
  );
}, 60_000);
afterAll(() => t?.close());

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A vending device of agent_a with a two-lane plan bound: lane 1 holds 8, lane 2 holds 5. */
async function vendingWithLanes(owner: "agent_a" | "agent_b" = "agent_a", stock = 100) {
  const goods = await fx.createRecord("goods", owner, { stock });
  const plan = await fx.createRecord("channel_plan", owner, {
    channels: [
      { channel_number: 1, goods_id: goods.id, count: 8, price: 300 },
      { channel_number: 2, goods_id: goods.id, count: 5, price: 300 },
    ],
  });
  const machine = await fx.createRecord("machine", owner, { kind: "vending" });
  const client = owner === "agent_a" ? agentA : agentB;
  const bound = await client.post("/merchant/machine-bind-plan", { id: [machine.id], channel_plan_id: plan.id });
  expect(bound.status, bound.raw).toBe(200);
  const lanes = await t.db.query<{ id: number; channel_number: number; left: number; count: number }>(
    `select id, channel_number, "left", count from machine_channel where machine_id = $1 order by channel_number`,
    [machine.id],
  );
  return { machine, goods, plan, lanes: lanes.rows.map((l) => ({ ...l, id: Number(l.id) })) };
}

const listed = async (client: Client, path: string) =>
  ((await client.get<{ list: Row[] }>(path)).body.data?.list ?? []).map((r) => r.id);

describe("machine-bind-manage", () => {
  it("moves the device and its lanes into the new owner's subtree", async () => {
    const { machine, lanes } = await vendingWithLanes();
    const reply = await agentA.post("/merchant/machine-bind-manage", { id: [machine.id], agent_id: t.ids.agent_a1 });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toEqual({ count: 1 });
    const a1 = await fx.client("agent_a1");
    expect(await listed(a1, `/merchant/machine-list?mac_name_like=${machine.mac_name as string}`)).toEqual([
      machine.id,
    ]);
    const stored = await t.db.query(`select agent_id, agent_path from machine_channel where id = any($1::bigint[])`, [
      lanes.map((l) => l.id),
    ]);
    expect(stored.rows.map((r) => Number(r.agent_id))).toEqual([t.ids.agent_a1, t.ids.agent_a1]);
    // agent_a still sees it: agent_a1 is in its subtree.
    expect(await listed(agentA, `/merchant/machine-list?mac_name_like=${machine.mac_name as string}`)).toEqual([
      machine.id,
    ]);
  });

  it("refuses an agent outside the caller's subtree, another agent's device, an empty choice and a role without it", async () => {
    const { machine } = await vendingWithLanes();
    const toB = await agentA.post("/merchant/machine-bind-manage", { id: [machine.id], agent_id: t.ids.agent_b });
    expect(toB.status).toBe(400);
    expect(errorFields(toB)).toEqual(["agent_id"]);
    const byB = await agentB.post("/merchant/machine-bind-manage", { id: [machine.id], agent_id: t.ids.agent_b });
    expect(byB.status).toBe(404);
    const none = await agentA.post("/merchant/machine-bind-manage", { id: [], agent_id: t.ids.agent_a });
    expect(none.status).toBe(400);
    expect([...new Set(errorFields(none))]).toEqual(["id"]);
    expect(
      (await operator.post("/merchant/machine-bind-manage", { id: [machine.id], agent_id: t.ids.agent_a })).status,
    ).toBe(403);
    expect(Number((await fx.row("machine", machine.id))!.agent_id)).toBe(t.ids.agent_a);
  });

  it("says in the caller's language that no agent, outlet or plan is chosen, and binds nothing", async () => {
    const { machine, plan } = await vendingWithLanes();
    const km = await fx.clientIn("agent_a", "km");
    const cases = [
      ["machine-bind-manage", "agent_id"],
      ["machine-bind-shop", "shop_id"],
      ["machine-bind-plan", "channel_plan_id"],
    ] as const;
    for (const [call, field] of cases) {
      for (const body of [{ id: [machine.id] }, { id: [machine.id], [field]: 0 }]) {
        const reply = await agentA.post(`/merchant/${call}`, body);
        expect(reply.status, `${call} ${JSON.stringify(body)}`).toBe(400);
        expect(errorFields(reply)).toEqual([field]);
        expect((reply.body.data as unknown as FieldErrors).errors[0].message).toMatch(
          /: nothing selected, choose one$/,
        );
      }
    }
    // In Khmer: the field's own Khmer name in the Khmer sentence (written here, apart from the locale files).
    const shown = await km.post("/merchant/machine-bind-plan", { id: [machine.id] });
    expect((shown.body.data as unknown as FieldErrors).errors[0].message).toBe("មិនទាន់បានជ្រើស គម្រោងផ្លូវទំនិញ ទេ៖ សូមជ្រើសមួយ");
    // A role without the permission is refused before anything is checked; nothing moved.
    expect((await operator.post("/merchant/machine-bind-plan", { id: [machine.id] })).status).toBe(403);
    expect(Number((await fx.row("machine", machine.id))!.channel_plan_id)).toBe(plan.id);
  });

  it("unbinds the previous owner's operators when the device leaves their agent's subtree", async () => {
    const { machine } = await vendingWithLanes();
    await t.db.query(
      `insert into operator_binding (operator_id, machine_id, profit_type, profit_percent, agent_id, agent_path)
       select $1, $2, 'percent', 0.1, agent_id, agent_path from machine where id = $2`,
      [t.ids.operator_a, machine.id],
    );
    const moved = await admin.post("/merchant/machine-bind-manage", { id: machine.id, agent_id: t.ids.agent_b });
    expect(moved.status, moved.raw).toBe(200);
    const bindings = await t.db.query(`select 1 from operator_binding where machine_id = $1`, [machine.id]);
    expect(bindings.rows).toHaveLength(0);
    expect(await listed(agentB, `/merchant/machine-list?mac_name_like=${machine.mac_name as string}`)).toEqual([
      machine.id,
    ]);
    expect(await listed(agentA, `/merchant/machine-list?mac_name_like=${machine.mac_name as string}`)).toEqual([]);
  });
});

describe("machine-bind-plan", () => {
  it("lays out the lanes from the plan, keeping what is left up to the new capacity", async () => {
    const { machine, goods, lanes } = await vendingWithLanes();
    expect(lanes.map((l) => [l.channel_number, l.left, l.count])).toEqual([
      [1, 0, 8],
      [2, 0, 5],
    ]);
    await t.db.query(`update machine_channel set "left" = 6 where id = $1`, [lanes[0].id]);
    const smaller = await fx.createRecord("channel_plan", "agent_a", {
      channels: [
        { channel_number: 1, goods_id: goods.id, count: 4, price: 300 },
        { channel_number: 3, goods_id: goods.id, count: 9, price: 300 },
      ],
    });
    const reply = await agentA.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: smaller.id });
    expect(reply.status, reply.raw).toBe(200);
    const after = await t.db.query(
      `select channel_number, "left", count, goods_name from machine_channel where machine_id = $1 order by channel_number`,
      [machine.id],
    );
    expect(after.rows.map((r) => [r.channel_number, Number(r.left), Number(r.count), r.goods_name])).toEqual([
      [1, 4, 4, goods.title],
      [3, 0, 9, goods.title],
    ]);
    expect(Number((await fx.row("machine", machine.id))!.channel_plan_id)).toBe(smaller.id);
  });

  it("takes out and records what the new plan has no room for, and puts it back into the goods' stock", async () => {
    const { machine, goods, lanes } = await vendingWithLanes("agent_a", 100);
    const other = await fx.createRecord("goods", "agent_a", { stock: 10 });
    // Lane 1 holds 6 of 8, lane 2 holds 5 of 5.
    await t.db.query(`update machine_channel set "left" = 6 where id = $1`, [lanes[0].id]);
    await t.db.query(`update machine_channel set "left" = 5 where id = $1`, [lanes[1].id]);
    // Lane 1 cut to 4 (2 out), lane 2 given other goods (5 out), lane 3 new.
    const plan = await fx.createRecord("channel_plan", "agent_a", {
      channels: [
        { channel_number: 1, goods_id: goods.id, count: 4, price: 300 },
        { channel_number: 2, goods_id: other.id, count: 5, price: 300 },
        { channel_number: 3, goods_id: goods.id, count: 9, price: 300 },
      ],
    });
    const reply = await agentA.post("/merchant/machine-bind-plan", { id: [machine.id], channel_plan_id: plan.id });
    expect(reply.status, reply.raw).toBe(200);
    const after = await t.db.query(
      `select channel_number, "left", goods_id from machine_channel where machine_id = $1 order by channel_number`,
      [machine.id],
    );
    expect(after.rows.map((r) => [r.channel_number, Number(r.left), Number(r.goods_id)])).toEqual([
      [1, 4, goods.id],
      [2, 0, other.id],
      [3, 0, goods.id],
    ]);
    // The records, read as the console reads them: each lane's stock taken out, by whom and why.
    const records = await agentA.get<{ list: Row[] }>(
      `/merchant/machine-replenishment-list?machine_id=${machine.id as number}`,
    );
    expect(records.status, records.raw).toBe(200);
    const taken = records.body.data.list
      .filter((r) => r.reason === "plan_change")
      .map((r) => [r.channel_number, r.quantity, r.left_after, r.goods_id, r.actor_name])
      .sort();
    const by = (await t.db.query(`select nickname from agent where id = $1`, [t.ids.agent_a])).rows[0].nickname;
    expect(taken).toEqual([
      [1, -2, 4, goods.id, by],
      [2, -5, 0, goods.id, by],
    ]);
    // The 7 taken out are back in stock; what was loaded per day is unchanged (nothing was loaded).
    expect(Number((await fx.row("goods", goods.id))!.stock)).toBe(107);
    const loaded = await t.db.query(
      `select coalesce(sum(restocked), 0)::int as n from stock_consumption where machine_id = $1`,
      [machine.id],
    );
    expect(loaded.rows[0].n).toBe(0);
    // Bound again to the same plan: nothing more to take out, nothing recorded.
    expect(
      (await agentA.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: plan.id })).status,
    ).toBe(200);
    const again = await t.db.query(`select count(*)::int as n from machine_restock where machine_id = $1`, [
      machine.id,
    ]);
    expect(again.rows[0].n).toBe(2);
  });

  it("leaves stock and records untouched when the binding is refused (another agent's device, a role without it)", async () => {
    const { machine, goods, lanes, plan } = await vendingWithLanes("agent_a", 50);
    await t.db.query(`update machine_channel set "left" = 8 where id = $1`, [lanes[0].id]);
    const smaller = await fx.createRecord("channel_plan", "agent_a", {
      channels: [{ channel_number: 1, goods_id: goods.id, count: 2, price: 300 }],
    });
    expect(
      (await agentB.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: smaller.id })).status,
    ).toBe(400);
    expect(
      (await operator.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: smaller.id })).status,
    ).toBe(403);
    const left = await t.db.query(`select "left" from machine_channel where id = $1`, [lanes[0].id]);
    expect(Number(left.rows[0].left)).toBe(8);
    const records = await t.db.query(`select count(*)::int as n from machine_restock where machine_id = $1`, [
      machine.id,
    ]);
    expect(records.rows[0].n).toBe(0);
    expect(Number((await fx.row("goods", goods.id))!.stock)).toBe(50);
    expect(Number((await fx.row("machine", machine.id))!.channel_plan_id)).toBe(plan.id);
  });

  it("refuses devices that have no lanes, and another agent's plan", async () => {
    const { plan } = await vendingWithLanes();
    const dryer = await fx.createRecord("machine", "agent_a", { kind: "dryer" });
    const reply = await agentA.post("/merchant/machine-bind-plan", { id: dryer.id, channel_plan_id: plan.id });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toContain(dryer.mac_name);
    const { machine: ofB } = await vendingWithLanes("agent_b");
    const foreign = await agentB.post("/merchant/machine-bind-plan", { id: ofB.id, channel_plan_id: plan.id });
    expect(foreign.status).toBe(400);
    expect(errorFields(foreign)).toEqual(["channel_plan_id"]);
    const missing = await agentA.post("/merchant/machine-bind-plan", { id: dryer.id });
    expect(errorFields(missing)).toEqual(["channel_plan_id"]);
  });
});

describe("device code and hardware", () => {
  it("keeps device codes and hardware ids unique among live devices, with a translated field error", async () => {
    const first = await fx.createRecord("machine", "agent_a");
    const zh = await fx.clientIn("agent_a", "zh");
    const body = { ...(await fx.makeRecord("machine", "agent_a")), mac_name: first.mac_name };
    const twice = await zh.post("/merchant/machine-add", body);
    expect(twice.status).toBe(400);
    expect((twice.body.data as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({
        field: "mac_name",
        keyword: "unique",
        message: expect.stringMatching(/[\u4e00-\u9fff]/),
      }),
    ]);
    // Once the first is in the recycle bin its code is free again.
    expect((await agentA.del(`/merchant/machine-delete?id=${first.id as number}`)).status).toBe(200);
    expect((await agentA.post("/merchant/machine-add", body)).status).toBe(200);
  });

  it("binds new hardware to a code, records the replacement, refuses hardware bound elsewhere, and unbinds", async () => {
    const machine = await fx.createRecord("machine", "agent_a");
    const other = await fx.createRecord("machine", "agent_a");
    const bind = await agentA.post<Row>("/merchant/machine-bind-macname", {
      id: machine.id,
      mac_id: "NEWHW-000001",
      reason: "Board replaced",
    });
    expect(bind.status, bind.raw).toBe(200);
    expect(bind.body.data.mac_id).toBe("NEWHW-000001");
    const replaced = await agentA.get<{ list: Row[] }>(
      `/merchant/machine-replace-list?machine_id=${machine.id as number}`,
    );
    expect(replaced.body.data.list).toEqual([
      expect.objectContaining({ old_mac_id: machine.mac_id, new_mac_id: "NEWHW-000001", reason: "Board replaced" }),
    ]);
    const taken = await agentA.post("/merchant/machine-bind-macname", { id: other.id, mac_id: "NEWHW-000001" });
    expect(taken.status).toBe(400);
    expect(errorFields(taken)).toEqual(["mac_id"]);
    expect((await agentB.post("/merchant/machine-unbind-macname", { id: machine.id })).status).toBe(404);
    const unbind = await agentA.post<Row>("/merchant/machine-unbind-macname", { id: machine.id });
    expect(unbind.status).toBe(200);
    expect(unbind.body.data).not.toHaveProperty("mac_id");
    expect(unbind.body.data.status).toBe("inactive");
    // The freed hardware can go to the other device now.
    expect((await agentA.post("/merchant/machine-bind-macname", { id: other.id, mac_id: "NEWHW-000001" })).status).toBe(
      200,
    );
  });
});

describe("outlets, rooms and initialising", () => {
  it("places devices at an outlet, whose device count follows at once", async () => {
    const shop = await fx.createRecord("shop", "agent_a");
    const devices = [await fx.createRecord("machine", "agent_a"), await fx.createRecord("machine", "agent_a")];
    const count = async () =>
      (await agentA.get<Row>(`/merchant/shop-detail?id=${shop.id as number}`)).body.data.device_count;
    const before = Number(await count());
    const reply = await agentA.post("/merchant/machine-bind-shop", { id: devices.map((d) => d.id), shop_id: shop.id });
    expect(reply.body.data).toEqual({ count: 2 });
    expect(Number(await count())).toBe(before + 2);
    await agentA.del(`/merchant/machine-delete?id=${devices[0].id as number}`);
    expect(Number(await count())).toBe(before + 1);
    const noShop = await agentA.post("/merchant/machine-bind-shop", { id: [devices[1].id] });
    expect(errorFields(noShop)).toEqual(["shop_id"]);
  });

  it("sets the room, and initialising clears bindings and lanes but keeps the owner", async () => {
    const { machine } = await vendingWithLanes();
    const room = await agentA.post<Row>("/merchant/machine-bind-room", { id: machine.id, room_number: "B2-14" });
    expect(room.body.data.room_number).toBe("B2-14");
    const init = await agentA.post<Row>("/merchant/machine-init", { id: machine.id });
    expect(init.status, init.raw).toBe(200);
    for (const cleared of ["room_number", "shop_id", "channel_plan_id"])
      expect(init.body.data).not.toHaveProperty(cleared);
    expect(init.body.data.agent_id).toBe(t.ids.agent_a);
    const lanes = await t.db.query(`select 1 from machine_channel where machine_id = $1`, [machine.id]);
    expect(lanes.rows).toHaveLength(0);
    expect((await agentB.post("/merchant/machine-init", { id: machine.id })).status).toBe(404);
    expect((await operator.post("/merchant/machine-init", { id: machine.id })).status).toBe(403);
  });
});

describe("live state", () => {
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

  it("works out each status from the last report, the lanes, the battery and the expiry", async () => {
    const make = async (values: Row) => {
      const { machine, lanes } = await vendingWithLanes();
      await t.db.query(`update machine_channel set "left" = count where machine_id = $1`, [machine.id]);
      await t.db.query(`update machine set last_report_at = $2, battery_level = $3, expiry_date = $4 where id = $1`, [
        machine.id,
        values.last_report_at ?? minutesAgo(1),
        values.battery_level ?? 90,
        values.expiry_date ?? day(300),
      ]);
      if (values.left !== undefined)
        await t.db.query(`update machine_channel set "left" = $2 where id = $1`, [lanes[1].id, values.left]);
      return machine.id as number;
    };
    const expected: [Row, string, string, string][] = [
      [{}, "online", "online", "in_stock"],
      [{ last_report_at: minutesAgo(11) }, "offline", "offline", "in_stock"],
      [{ left: STOCK_ALERT }, "online", "online", "low_stock"],
      [{ left: STOCK_ALERT + 1 }, "online", "online", "in_stock"],
      [{ left: 0 }, "out_of_stock", "online", "out_of_stock"],
      [{ battery_level: 15 }, "low_battery", "online", "in_stock"],
      [{ expiry_date: day(2) }, "near_expiry", "online", "in_stock"],
      [{ expiry_date: day(NEAR_EXPIRY_DAYS + 2) }, "online", "online", "in_stock"],
    ];
    for (const [values, status, online, stock] of expected) {
      const id = await make(values);
      const detail = await agentA.get<Row>(`/merchant/machine-detail?id=${id}`);
      expect(
        [detail.body.data.status, detail.body.data.online_status, detail.body.data.stock_status],
        JSON.stringify(values),
      ).toEqual([status, online, stock]);
      // The list's filter sees the same state.
      expect(await listed(agentA, `/merchant/machine-list?id=${id}&status=${status}&limit=200`)).toContain(id);
    }
    const never = await fx.createRecord("machine", "agent_a");
    expect(never.status).toBe("inactive");
  });

  it("gives an agent's team size as the live agents below it", async () => {
    const team = async () =>
      Number((await admin.get<Row>(`/merchant/manage-detail?id=${t.ids.agent_a}`)).body.data.team_count);
    const before = await team();
    const sub = await fx.insertRecord("agent", "agent_a");
    expect(await team()).toBe(before + 1);
    await t.db.query(`update agent set deleted_at = now() where id = $1`, [sub.id]);
    expect(await team()).toBe(before);
  });

  it("shows the same takings in the list, the detail, machine-statistics and statistics-machine", async () => {
    const { machine } = await vendingWithLanes();
    const order = (money: number, refund: number, status: string, daysAgo: number) =>
      fx.insertRecord("order", "agent_a", {
        machine_id: machine.id,
        money,
        refund_money: refund,
        pay_status: status,
        order_time: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
        pay_time: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
      });
    await order(500, 0, "paid", 0);
    await order(300, 100, "partial_refund", 3);
    await order(700, 0, "paid", 20);
    await order(900, 0, "paid", 60);
    await order(400, 400, "refund_success", 0);
    await order(999, 0, "pending", 0);
    const figures = { day_money: 500, week_money: 700, month_money: 1400, total_money: 2300, total_number: 4 };
    const pick = (r: Row) => Object.fromEntries(Object.keys(figures).map((k) => [k, Number(r[k])]));
    const name = machine.mac_name as string;
    expect(
      pick((await agentA.get<{ list: Row[] }>(`/merchant/machine-list?mac_name_like=${name}`)).body.data.list[0]),
    ).toEqual(figures);
    expect(pick((await agentA.get<Row>(`/merchant/machine-detail?id=${machine.id as number}`)).body.data)).toEqual(
      figures,
    );
    expect(
      pick((await agentA.get<{ list: Row[] }>(`/merchant/machine-statistics?mac_name_like=${name}`)).body.data.list[0]),
    ).toEqual(figures);
    const stats = await agentA.get<Row & { trend: Row[] }>(
      `/merchant/statistics-machine?id=${machine.id as number}&days=7`,
    );
    expect(pick(stats.body.data)).toEqual(figures);
    expect(stats.body.data.trend).toHaveLength(7);
    expect(stats.body.data.trend.reduce((s, d) => s + Number(d.money), 0)).toBe(700);
    expect((await agentB.get(`/merchant/statistics-machine?id=${machine.id as number}`)).status).toBe(404);
    expect((await agentA.get(`/merchant/statistics-machine?id=${machine.id as number}&days=0`)).status).toBe(400);
    // Sorting by takings works over the live figure.
    const sorted = await agentA.get<{ list: Row[] }>(`/merchant/machine-list?sort=total_money&order=desc&limit=200`);
    const totals = sorted.body.data.list.map((r) => Number(r.total_money));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(totals[0]).toBeGreaterThanOrEqual(2300);
  });

  it("keeps the demo's reporting devices online, and only those with hardware", async () => {
    const [reporting, unbound, silent] = [
      await fx.createRecord("machine", "agent_a"),
      await fx.createRecord("machine", "agent_a"),
      await fx.createRecord("machine", "agent_a"),
    ];
    const ids = [reporting.id, unbound.id, silent.id];
    await t.db.query(`update machine set last_report_at = now() - interval '3 hours' where id = any($1::bigint[])`, [
      ids,
    ]);
    await t.db.query(`update machine set mac_id = null where id = $1`, [unbound.id]);
    await t.db.query(`insert into sys_state (key, value) values ('demo:reporting', $1)`, [
      JSON.stringify([reporting.id, unbound.id]),
    ]);
    try {
      expect(await reportDemoDevices(t.db)).toBe(1);
      const states = await Promise.all(
        ids.map(async (id) => (await agentA.get<Row>(`/merchant/machine-detail?id=${id as number}`)).body.data.status),
      );
      expect(states).toEqual(["online", "inactive", "offline"]);
    } finally {
      await t.db.query(`delete from sys_state where key = 'demo:reporting'`);
    }
  });

  it("serves the operator its devices' collection records", async () => {
    const reply = await operator.get<{ list: Row[] }>("/merchant/machine-clean-log-list");
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.list).toEqual([]);
  });
});

// The outlet manager (README "Outlet managers"): an account an agent makes for the outlets it runs, signing
// in on the same form, that reads its outlets, their devices, lanes, orders, restock records and takings,
// and nothing of money, settings, agents or operators. Its scope is read at every statement: an outlet
// taken off it, or moved to another agent, leaves its view at once. Every figure below is the fixtures'.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type ListData, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
/** agent_a's outlets: two the manager runs, one it does not; agent_a1's and agent_b's one each. */
let shops: { managed: number[]; other: number; a1: number; b: number };
/** Devices: two at the first managed outlet, one at the second, one at agent_a's other outlet, one at agent_b's. */
let devices: { managed: number[]; other: number; b: number };
let orders: { managed: number[]; other: number };
let managerId: number;
let manager: Client;

const ids = (reply: { body: { data: ListData } }) =>
  reply.body.data.list.map((r) => Number(r.id)).sort((x, y) => x - y);
const sorted = (list: number[]) => [...list].sort((x, y) => x - y);

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  const shop = async (owner: "agent_a" | "agent_a1" | "agent_b") => (await fx.insertRecord("shop", owner)).id as number;
  shops = {
    managed: [await shop("agent_a"), await shop("agent_a")],
    other: await shop("agent_a"),
    a1: await shop("agent_a1"),
    b: await shop("agent_b"),
  };
  const device = async (owner: "agent_a" | "agent_b", shopId: number) =>
    (await fx.insertRecord("machine", owner, { shop_id: shopId })).id as number;
  devices = {
    managed: [
      await device("agent_a", shops.managed[0]),
      await device("agent_a", shops.managed[0]),
      await device("agent_a", shops.managed[1]),
    ],
    other: await device("agent_a", shops.other),
    b: await device("agent_b", shops.b),
  };
  const order = async (machineId: number) =>
    (await fx.insertRecord("order", "agent_a", { machine_id: machineId })).id as number;
  orders = {
    managed: [await order(devices.managed[0]), await order(devices.managed[2])],
    other: await order(devices.other),
  };
  const agentA = await fx.client("agent_a");
  const made = await agentA.post<Row>("/merchant/shop-manager-add", {
    nickname: "Dara Kim",
    account: "manager_a",
    password: "demo123",
    confirm_password: "demo123",
    shop_ids: shops.managed,
  });
  expect(made.status, made.raw).toBe(200);
  managerId = Number(made.body.data.id);
  manager = await t.as("manager_a");
});
afterAll(() => t?.close());

describe("making an outlet manager", () => {
  it("belongs to the agent that makes it, with the outlets it was given", async () => {
    const row = await fx.row("shop_manager", managerId);
    expect(Number(row!.agent_id)).toBe(t.ids.agent_a);
    expect(row!.shop_ids).toEqual(shops.managed);
    expect(String(row!.password)).not.toBe("demo123");
  });

  it("refuses bad input on its fields: no outlets, an empty list, passwords that differ, a taken account", async () => {
    const agentA = await fx.client("agent_a");
    const base = {
      nickname: "X",
      account: "mgr_x",
      password: "demo123",
      confirm_password: "demo123",
      shop_ids: [shops.other],
    };
    const cases: [Row, string][] = [
      [{ ...base, shop_ids: undefined }, "shop_ids"],
      [{ ...base, shop_ids: [] }, "shop_ids"],
      [{ ...base, confirm_password: "demo124" }, "confirm_password"],
      [{ ...base, account: "operator_a" }, "account"],
      [{ ...base, account: "agent_b" }, "account"],
      [{ ...base, account: "manager_a" }, "account"],
    ];
    for (const [payload, field] of cases) {
      const reply = await agentA.post("/merchant/shop-manager-add", payload);
      expect(reply.status, JSON.stringify(payload)).toBe(400);
      expect(errorFields(reply)).toContain(field);
    }
    expect(await fx.count("shop_manager")).toBe(1);
  });

  it("refuses another agent's outlet, and a sub-agent's: a manager runs its own agent's outlets", async () => {
    const agentA = await fx.client("agent_a");
    for (const outlet of [shops.b, shops.a1]) {
      const reply = await agentA.post("/merchant/shop-manager-add", {
        nickname: "Y",
        account: `mgr_${outlet}`,
        password: "demo123",
        confirm_password: "demo123",
        shop_ids: [shops.managed[0], outlet],
      });
      expect(reply.status).toBe(400);
      expect(errorFields(reply)).toEqual(["shop_ids"]);
    }
    expect(await fx.count("shop_manager")).toBe(1);
  });

  it("is refused to a role without the permission (403), and to an operator and a manager", async () => {
    const payload = {
      nickname: "Z",
      account: "mgr_z",
      password: "demo123",
      confirm_password: "demo123",
      shop_ids: [shops.a1],
    };
    for (const who of [await fx.client("agent_a1"), await fx.client("operator_a"), manager])
      expect((await who.post("/merchant/shop-manager-add", payload)).status).toBe(403);
    expect(await fx.count("shop_manager")).toBe(1);
  });

  it("is seen by its agent and the admin, never by a sibling agent (404), a narrow role or an operator (403)", async () => {
    expect((await (await fx.client("agent_a")).get(`/merchant/shop-manager-detail?id=${managerId}`)).status).toBe(200);
    expect((await (await fx.client("admin")).get(`/merchant/shop-manager-detail?id=${managerId}`)).status).toBe(200);
    const b = await fx.client("agent_b");
    expect((await b.get(`/merchant/shop-manager-detail?id=${managerId}`)).status).toBe(404);
    expect(ids(await b.get<ListData>("/merchant/shop-manager-list"))).toEqual([]);
    expect((await (await fx.client("agent_a1")).get("/merchant/shop-manager-list")).status).toBe(403);
    expect((await (await fx.client("operator_a")).get("/merchant/shop-manager-list")).status).toBe(403);
  });
});

describe("the outlet manager signed in", () => {
  it("is a manager with the fixed read set, and a menu of what it may open", async () => {
    const info = await manager.get<{ user: Row; permissions: string[] }>("/merchant/user-info");
    expect(info.body.data.user).toMatchObject({
      kind: "manager",
      id: managerId,
      agent_id: t.ids.agent_a,
      is_admin: false,
    });
    expect(info.body.data.permissions).toEqual([
      "machine.all",
      "machine.detail",
      "machine.list",
      "machine_channel.list",
      "machine_restock.list",
      "order.detail",
      "order.list",
      "shop.all",
      "shop.detail",
      "shop.list",
      "stock_consumption.list",
    ]);
    const menu = await manager.get<{ id: string; routes: { id: string }[] }[]>("/merchant/menu");
    const routes = menu.body.data.flatMap((g) => g.routes.map((r) => r.id)).sort();
    expect(routes).toEqual([
      "goods_stock",
      "machine_channel",
      "machine_list",
      "machine_statistics",
      "order_application_list",
      "shop_list",
    ]);
  });

  it("lists its outlets, their devices, their orders and their restock records only", async () => {
    expect(ids(await manager.get<ListData>("/merchant/shop-list"))).toEqual(sorted(shops.managed));
    expect(ids(await manager.get<ListData>("/merchant/machine-list"))).toEqual(sorted(devices.managed));
    const orderList = await manager.get<ListData & { total: number }>("/merchant/order-list");
    expect(ids(orderList)).toEqual(sorted(orders.managed));
    // Its own orders counted, not its agent's (which the order roll-ups know by the agent's path).
    expect(orderList.body.data.total).toBe(orders.managed.length);
    const restock = await fx.insertRecord("machine_restock", "agent_a", { machine_id: devices.managed[1] });
    const elsewhere = await fx.insertRecord("machine_restock", "agent_a", { machine_id: devices.other });
    const listed = ids(
      await manager.get<ListData>(`/merchant/machine-replenishment-list?id=${restock.id},${elsewhere.id}`),
    );
    expect(listed).toEqual([Number(restock.id)]);
  });

  it("reads a record of its outlets, and 404 for its agent's others and another agent's", async () => {
    expect((await manager.get(`/merchant/machine-detail?id=${devices.managed[0]}`)).status).toBe(200);
    expect((await manager.get(`/merchant/order-detail?id=${orders.managed[0]}`)).status).toBe(200);
    expect((await manager.get(`/merchant/shop-detail?id=${shops.managed[1]}`)).status).toBe(200);
    for (const url of [
      `/merchant/machine-detail?id=${devices.other}`,
      `/merchant/machine-detail?id=${devices.b}`,
      `/merchant/order-detail?id=${orders.other}`,
      `/merchant/shop-detail?id=${shops.other}`,
      `/merchant/shop-detail?id=${shops.b}`,
    ])
      expect((await manager.get(url)).status, url).toBe(404);
  });

  it("is refused money, settings, writes, agents and operators (403)", async () => {
    const gets = [
      "/merchant/data-withdraw-list",
      "/merchant/data-payment-list",
      "/merchant/data-profit-list",
      "/merchant/manage-list",
      "/merchant/operator-list",
      "/merchant/shop-manager-list",
      "/merchant/statistics-total",
      "/merchant/statistics-trade",
      "/merchant/statistics-order",
      `/merchant/get-open-plugins?machine_id=${devices.managed[0]}`,
      "/merchant/machine-scan-log-user",
    ];
    for (const url of gets) expect((await manager.get(url)).status, url).toBe(403);
    const shop = await manager.get<Row>(`/merchant/shop-detail?id=${shops.managed[0]}`);
    const posts: [string, unknown][] = [
      ["/merchant/shop-update", { ...shop.body.data, name: "Renamed" }],
      ["/merchant/order-refund", { id: orders.managed[0], refund_amount: 1 }],
      ["/merchant/data-withdraw-apply", { amount: 100 }],
      ["/merchant/machine-bind-shop", { id: devices.managed[0], shop_id: shops.managed[1] }],
    ];
    for (const [url, payload] of posts) expect((await manager.post(url, payload)).status, url).toBe(403);
    expect((await manager.del(`/merchant/machine-delete?id=${devices.managed[0]}`)).status).toBe(403);
    expect((await fx.row("shop", shops.managed[0]))!.name).toBe(shop.body.data.name);
  });

  it("sees its outlets' takings in the device statistics, and no refund count on its to-do", async () => {
    const stats = await manager.get<{ breakdown: { list: { id: number | null }[]; total: number } }>(
      "/merchant/statistics-devices?period=today&by=shop",
    );
    expect(stats.status, stats.raw).toBe(200);
    expect(sorted(stats.body.data.breakdown.list.map((r) => Number(r.id)))).toEqual(sorted(shops.managed));
    const byDevice = await manager.get<{ breakdown: { list: { id: number | null }[] } }>(
      "/merchant/statistics-devices?period=today&by=machine",
    );
    expect(sorted(byDevice.body.data.breakdown.list.map((r) => Number(r.id)))).toEqual(sorted(devices.managed));
    const dealt = await manager.get<Row>("/merchant/statistics-dealt");
    expect(dealt.body.data).toMatchObject({ refund_requests: -1, withdrawals: -1, work_orders: -1 });
  });
});

describe("the manager's outlets change under it", () => {
  it("drops an outlet taken off it at once, and one moved to another agent", async () => {
    const own = await t.as("manager_a");
    const agentA = await fx.client("agent_a");
    const detail = await agentA.get<Row>(`/merchant/shop-manager-detail?id=${managerId}`);
    const updated = await agentA.post("/merchant/shop-manager-update", {
      ...detail.body.data,
      shop_ids: [shops.managed[0]],
    });
    expect(updated.status, updated.raw).toBe(200);
    expect(ids(await own.get<ListData>("/merchant/machine-list"))).toEqual(sorted(devices.managed.slice(0, 2)));
    expect(ids(await own.get<ListData>("/merchant/order-list"))).toEqual([orders.managed[0]]);
    expect((await own.get(`/merchant/shop-detail?id=${shops.managed[1]}`)).status).toBe(404);
    // The outlet moves to agent_b (by hand in the database): the manager no longer sees it nor its devices.
    const b = await fx.owner("agent_b");
    await t.db.query(`update "shop" set agent_id = $2, agent_path = $3 where id = $1`, [
      shops.managed[0],
      b.id,
      b.path,
    ]);
    expect(ids(await own.get<ListData>("/merchant/shop-list"))).toEqual([]);
    expect(ids(await own.get<ListData>("/merchant/machine-list"))).toEqual([]);
    const a = await fx.owner("agent_a");
    await t.db.query(`update "shop" set agent_id = $2, agent_path = $3 where id = $1`, [
      shops.managed[0],
      a.id,
      a.path,
    ]);
    expect(ids(await own.get<ListData>("/merchant/shop-list"))).toEqual([shops.managed[0]]);
  });

  it("changes its own password under Change password, which ends its sessions; never through an update", async () => {
    const own = await t.as("manager_a");
    const changed = await own.post("/merchant/modify-password", {
      old_password: "demo123",
      new_password: "own-pass-9",
      confirm_password: "own-pass-9",
    });
    expect(changed.status, changed.raw).toBe(200);
    expect((await own.get("/merchant/user-info")).status).toBe(401);
    manager = await t.as("manager_a", "own-pass-9");
    // Its own record is not its to update (no permission), password or not.
    const detail = await (await fx.client("agent_a")).get<Row>(`/merchant/shop-manager-detail?id=${managerId}`);
    expect(
      (await manager.post("/merchant/shop-manager-update", { ...detail.body.data, password: "x-pass-10" })).status,
    ).toBe(403);
  });

  it("ends its sessions when its agent sets its password, and when it is deleted", async () => {
    const agentA = await fx.client("agent_a");
    const before = await t.as("manager_a", "own-pass-9");
    const detail = await agentA.get<Row>(`/merchant/shop-manager-detail?id=${managerId}`);
    const set = await agentA.post("/merchant/shop-manager-update", {
      ...detail.body.data,
      password: "fresh-pass-3",
      confirm_password: "fresh-pass-3",
    });
    expect(set.status, set.raw).toBe(200);
    expect((await before.get("/merchant/user-info")).status).toBe(401);
    expect((await manager.get("/merchant/user-info")).status).toBe(401);
    const after = await t.as("manager_a", "fresh-pass-3");
    expect((await agentA.del(`/merchant/shop-manager-delete?id=${managerId}`)).status).toBe(200);
    expect((await after.get("/merchant/user-info")).status).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/merchant/login",
      payload: { account: "manager_a", password: "fresh-pass-3" },
    });
    expect(login.statusCode).toBe(401);
  });
});

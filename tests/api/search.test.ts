// The header's search box (GET /merchant/search): what each principal finds of the records this file
// inserts (never another agent's), ranked exact > prefix > inside, in five languages' scripts, and the
// refusals of bad input. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/passwords.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Owner } from "./fixtures.ts";
import { SEARCH } from "../../server/domain/search/search-store.ts";

interface Group {
  entity: string;
  label: string;
  items: { id: number; title: string; match: string; context: { field: string; label: string; value: string }[] }[];
}

let t: TestApp;
let fx: Fixtures;
const ids: Record<string, number> = {};

/** What a client finds for `q`: per kind, the titles in the order answered. */
async function found(who: Client, q: string, limit?: number): Promise<Record<string, string[]>> {
  const reply = await who.get<Group[]>(
    `/merchant/search?q=${encodeURIComponent(q)}${limit === undefined ? "" : `&limit=${limit}`}`,
  );
  expect(reply.status, reply.raw).toBe(200);
  return Object.fromEntries(reply.body.data.map((g) => [g.entity, g.items.map((i) => i.title)]));
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  const shop = async (owner: Owner, name: string) =>
    (ids[name] = (await fx.insertRecord("shop", owner, { name })).id as number);
  await shop("agent_a", "QZ Riverside");
  await shop("agent_a", "QZ Market");
  await shop("agent_a1", "QZ A1 Corner");
  await shop("agent_b", "QZ Beta Hall");
  await shop("agent_a", "ហាងកាហ្វេសុខា");
  await shop("agent_b", "ร้านกาแฟดีมาก");
  const device = async (owner: Owner, name: string, hardware: string, shopName: string) =>
    (ids[name] = (await fx.insertRecord("machine", owner, { mac_name: name, mac_id: hardware, shop_id: ids[shopName] }))
      .id as number);
  await device("agent_a", "QZ-ALPHA-01", "HW-QZ-0001", "QZ Riverside");
  await device("agent_a", "QZ-ALPHA-02", "HW-QZ-0002", "QZ Market");
  await device("agent_a1", "QZ-A1-07", "HW-QZ-0007", "QZ A1 Corner");
  await device("agent_b", "QZ-BETA-01", "HW-QZ-0101", "QZ Beta Hall");
  await device("agent_a", "X-KRO", "HW-KR-0003", "QZ Market");
  await device("agent_a", "KRO-2", "HW-KR-0002", "QZ Market");
  await device("agent_a", "KRO", "HW-KR-0001", "QZ Market");
  await device("agent_a", "MOSS-1", "HW-MO-0001", "QZ Market");
  await shop("agent_a", "Moss");
  const order = async (owner: Owner, no: string, deviceName: string) =>
    (ids[no] = (await fx.insertRecord("order", owner, { order_no: no, machine_id: ids[deviceName] })).id as number);
  await order("agent_a", "QZ-ORDER-A", "QZ-ALPHA-01");
  await order("agent_a", "QZ-ORDER-A2", "QZ-ALPHA-02");
  await order("agent_a1", "QZ-ORDER-A1", "QZ-A1-07");
  await order("agent_b", "QZ-ORDER-B", "QZ-BETA-01");
  ids.goodsZh = (await fx.insertRecord("goods", "agent_a", { title: "冰咖啡大杯" })).id as number;
  ids.goodsTh = (await fx.insertRecord("goods", "agent_b", { title: "กาแฟเย็นพิเศษ" })).id as number;
  // operator_a is bound to one device of agent_a's; manager_a manages the outlet of another.
  await fx.insertRecord("operator_binding", "agent_a", {
    operator_id: t.ids.operator_a,
    machine_id: ids["QZ-ALPHA-02"],
  });
  const made = await (
    await fx.client("agent_a")
  ).post("/merchant/shop-manager-add", {
    nickname: "Dara Kim",
    account: "manager_a",
    password: "demo123",
    confirm_password: "demo123",
    shop_ids: [ids["QZ Riverside"]],
  });
  expect(made.status, made.raw).toBe(200);
  // An agent whose role lists nothing.
  const role = await t.db.query<{ id: number }>(
    `insert into "role" (name, level, permissions) values ('Nothing', 2, '[]') returning id`,
  );
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "agent" (nickname, account, password, phone, role_id, parent_role_id, pid) values ('QZ None', 'agent_none', $1, '+85512000001', $2, $2, $3) returning id`,
    [await hashPassword("demo123"), role.rows[0].id, t.ids.agent_a],
  );
  const pathA = (await fx.row("agent", t.ids.agent_a))!.agent_path as string;
  await t.db.query(`update "agent" set agent_path = $1, agent_id = $2 where id = $2`, [
    `${pathA}${rows[0].id}/`,
    rows[0].id,
  ]);
});
afterAll(() => t?.close());

describe("each principal finds what its lists show", () => {
  const devices = ["QZ-A1-07", "QZ-BETA-01", "QZ-ALPHA-01", "QZ-ALPHA-02"];
  it("the admin finds every agent's records of every kind", async () => {
    expect(await found(await fx.client("admin"), "qz", 10)).toEqual({
      machine: devices,
      order: ["QZ-ORDER-A", "QZ-ORDER-B", "QZ-ORDER-A1", "QZ-ORDER-A2"],
      shop: ["QZ Market", "QZ A1 Corner", "QZ Beta Hall", "QZ Riverside"],
      agent: ["QZ None"],
    });
  });

  it("agent_a finds its own and its sub-agents' records, never agent_b's", async () => {
    expect(await found(await fx.client("agent_a"), "qz", 10)).toEqual({
      machine: ["QZ-A1-07", "QZ-ALPHA-01", "QZ-ALPHA-02"],
      order: ["QZ-ORDER-A", "QZ-ORDER-A1", "QZ-ORDER-A2"],
      shop: ["QZ Market", "QZ A1 Corner", "QZ Riverside"],
      agent: ["QZ None"],
    });
  });

  it("agent_b finds only its own", async () => {
    expect(await found(await fx.client("agent_b"), "qz", 10)).toEqual({
      machine: ["QZ-BETA-01"],
      order: ["QZ-ORDER-B"],
      shop: ["QZ Beta Hall"],
    });
    // agent_a's device by its whole code: nothing, not even the kind.
    expect(await found(await fx.client("agent_b"), "QZ-ALPHA-01")).toEqual({});
  });

  it("the sub-agent agent_a1 finds its own, and only the kinds its role may list", async () => {
    // Its role lists goods, orders and devices: its outlet "QZ A1 Corner" is not offered.
    expect(await found(await fx.client("agent_a1"), "qz", 10)).toEqual({
      machine: ["QZ-A1-07"],
      order: ["QZ-ORDER-A1"],
    });
  });

  it("operator_a finds the device bound to it, and no orders (it may not list them)", async () => {
    expect(await found(await fx.client("operator_a"), "qz", 10)).toEqual({ machine: ["QZ-ALPHA-02"] });
  });

  it("manager_a finds its outlet, the device standing there and that device's order", async () => {
    expect(await found(await t.as("manager_a"), "qz", 10)).toEqual({
      machine: ["QZ-ALPHA-01"],
      order: ["QZ-ORDER-A"],
      shop: ["QZ Riverside"],
    });
  });

  it("an agent whose role lists nothing finds nothing, though the records are in its scope", async () => {
    const none = await t.as("agent_none");
    expect(await found(none, "qz", 10)).toEqual({});
    expect(await found(none, "QZ None")).toEqual({});
  });

  it("another agent's record never appears, whichever of its fields is typed", async () => {
    const b = await fx.client("agent_b");
    for (const q of ["HW-QZ-0001", "QZ-ORDER-A", "QZ Riverside", "ALPHA", "ហាងកាហ្វេ", "冰咖啡"])
      expect(await found(b, q), q).toEqual({});
    const a = await fx.client("agent_a");
    for (const q of ["HW-QZ-0101", "QZ-ORDER-B", "Beta", "กาแฟ"]) expect(await found(a, q), q).toEqual({});
  });
});

describe("matching", () => {
  it("ranks an exact value first, then a prefix, then a match inside, case-insensitive", async () => {
    const reply = await (await fx.client("agent_a")).get<Group[]>("/merchant/search?q=kro");
    expect(reply.body.data).toHaveLength(1);
    expect(reply.body.data[0].items.map((i) => [i.title, i.match])).toEqual([
      ["KRO", "exact"],
      ["KRO-2", "prefix"],
      ["X-KRO", "inside"],
    ]);
  });

  it("finds a device by its hardware id, with that id as its line of context", async () => {
    const reply = await (await fx.client("agent_a")).get<Group[]>("/merchant/search?q=hw-qz-0001");
    expect(reply.body.data).toEqual([
      {
        entity: "machine",
        label: "Device",
        items: [
          {
            id: ids["QZ-ALPHA-01"],
            title: "QZ-ALPHA-01",
            match: "exact",
            context: [{ field: "mac_id", label: "Hardware ID", value: "HW-QZ-0001" }],
          },
        ],
      },
    ]);
  });

  it("puts the kinds with an exact match before those with a prefix match", async () => {
    // The outlet is named "Moss"; a device's code only starts so (devices come before outlets otherwise).
    const reply = await (await fx.client("agent_a")).get<Group[]>("/merchant/search?q=moss");
    expect(reply.body.data.map((g) => [g.entity, g.items.map((i) => [i.title, i.match])])).toEqual([
      ["shop", [["Moss", "exact"]]],
      ["machine", [["MOSS-1", "prefix"]]],
    ]);
  });

  it("matches inside words in Khmer, Thai and Chinese, which write no spaces between them", async () => {
    expect(await found(await fx.client("agent_a"), "កាហ្វេ")).toEqual({ shop: ["ហាងកាហ្វេសុខា"] });
    expect(await found(await fx.client("agent_b"), "กาแฟ")).toEqual({
      shop: ["ร้านกาแฟดีมาก"],
      goods: ["กาแฟเย็นพิเศษ"],
    });
    expect(await found(await fx.client("agent_a"), "咖啡")).toEqual({ goods: ["冰咖啡大杯"] });
  });

  it("names the kind and the context in the caller's language", async () => {
    const zh = await fx.clientIn("agent_a", "zh");
    const reply = await zh.get<Group[]>("/merchant/search?q=HW-QZ-0002");
    expect(reply.body.data[0].label).toBe("设备");
    expect(reply.body.data[0].items[0].context).toEqual([{ field: "mac_id", label: "硬件 ID", value: "HW-QZ-0002" }]);
  });

  it("takes % and _ as themselves, not as wildcards", async () => {
    const admin = await fx.client("admin");
    expect(await found(admin, "%")).toEqual({});
    expect(await found(admin, "Q_")).toEqual({});
  });

  it("answers at most `limit` records a kind, the best first", async () => {
    const a = await fx.client("agent_a");
    expect(await found(a, "kro", 2)).toEqual({ machine: ["KRO", "KRO-2"] });
    expect(await found(a, "kro", 1)).toEqual({ machine: ["KRO"] });
    const some = await found(await fx.client("admin"), "qz-", 2);
    expect(Object.keys(some)).toEqual(["machine", "order"]);
    expect(some.machine).toHaveLength(2);
    expect(some.order).toHaveLength(2);
  });
});

describe("refusals", () => {
  it("refuses an empty, blank or too long search, or a bad limit, naming the field", async () => {
    const admin = await fx.client("admin");
    const refused = async (query: string) => {
      const reply = await admin.get(`/merchant/search?${query}`);
      expect(reply.status, query).toBe(400);
      return [...new Set(errorFields(reply))];
    };
    expect(await refused("q=")).toEqual(["q"]);
    expect(await refused("q=%20%20")).toEqual(["q"]);
    expect(await refused(`q=${"a".repeat(101)}`)).toEqual(["q"]);
    expect(await refused("")).toEqual(["q"]);
    expect(await refused("q=qz&limit=0")).toEqual(["limit"]);
    expect(await refused("q=qz&limit=21")).toEqual(["limit"]);
    const longest = await admin.get(`/merchant/search?q=${"a".repeat(100)}`);
    expect(longest.status).toBe(200);
    expect(longest.body.data).toEqual([]);
  });

  it("needs a session", async () => {
    const reply = await t.app.inject({ method: "GET", url: "/merchant/search?q=qz" });
    expect(reply.statusCode).toBe(401);
  });
});

describe("a fragment of one or two characters", () => {
  it("is looked for inside among each kind's newest ids only; three characters search them all", async () => {
    const a = await fx.client("agent_a");
    const window = SEARCH.shortWindow;
    const { rows } = await t.db.query<{ max: number }>(`select max(id)::int as max from machine`);
    try {
      // The window ends just after QZ-ALPHA-01: QZ-ALPHA-02, added after it, is inside.
      SEARCH.shortWindow = rows[0].max - ids["QZ-ALPHA-01"];
      expect((await found(a, "LP")).machine).toEqual(["QZ-ALPHA-02"]);
      expect((await found(a, "ALP")).machine).toEqual(["QZ-ALPHA-01", "QZ-ALPHA-02"]);
      // A prefix match is not windowed: it is an index's.
      expect((await found(a, "qz")).machine).toEqual(["QZ-A1-07", "QZ-ALPHA-01", "QZ-ALPHA-02"]);
      expect((await found(a, "OS")).machine).toEqual(["MOSS-1"]);
    } finally {
      SEARCH.shortWindow = window;
    }
    expect((await found(a, "LP")).machine).toEqual(["QZ-ALPHA-01", "QZ-ALPHA-02"]);
  });
});

// Pages and applications beyond CRUD: the show types and the layout palette, the three-grid rule, and an
// application's charge and upgrade. Each with valid input, invalid input, and a role without the permission.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1] = await Promise.all(["admin", "agent_a", "agent_a1"].map((a) => fx.client(a)));
}, 60_000);
afterAll(() => t?.close());

const grid = (id: string, style: string) => ({
  id,
  type: "grid",
  columns: 3,
  style,
  ratio: "4:3",
  items: [{ image: "/uploads/demo/grid.png" }],
});

describe("renovation-type and renovation-home-type", () => {
  it("name each show type with the caller's page count, and the modules of the layout document", async () => {
    await fx.createRecord("page", "agent_a", { show_type: "logo" });
    await fx.createRecord("page", "agent_a", { show_type: "logo" });
    await fx.createRecord("page", "agent_b", { show_type: "logo" });
    const types = await agentA.get<Row[]>("/merchant/renovation-type");
    expect(types.status, types.raw).toBe(200);
    expect(types.body.data.map((r) => r.value)).toEqual(["logo", "long_logo", "banner"]);
    expect(types.body.data[0]).toMatchObject({ value: "logo", pages: 2 });
    const zh = await (await fx.clientIn("agent_a", "zh")).get<Row[]>("/merchant/renovation-home-type");
    expect(zh.body.data.map((m) => m.type)).toEqual(["banner", "grid", "goods", "notice", "image", "spacer"]);
    expect(zh.body.data[1]).toEqual({ type: "grid", label: "图片宫格", once: ["three_grid"] });
    expect((await agentA1.get("/merchant/renovation-type")).status).toBe(403);
    expect((await agentA.get("/merchant/renovation-type?x=1")).status).toBe(400);
  });

  it("refuses a second three-grid module on a page, with words on the layout", async () => {
    const once = await fx.createRecord("page", "agent_a", {
      layout: { modules: [grid("a", "three_grid"), grid("b", "plain")] },
    });
    expect(once.id).toBeGreaterThan(0);
    const twice = await agentA.post("/merchant/renovation-add", {
      ...(await fx.makeRecord("page", "agent_a")),
      layout: { modules: [grid("a", "three_grid"), grid("b", "three_grid")] },
    });
    expect(twice.status).toBe(400);
    expect(errorFields(twice)).toEqual(["layout"]);
    expect((twice.body.data as unknown as { errors: { message: string }[] }).errors[0].message).toBe(
      "A page may use the three-grid module only once",
    );
  });
});

describe("application-charge-get and -set", () => {
  it("sets an application's charge through the call only, and reads it back", async () => {
    const app = await fx.createRecord("application", "admin");
    const set = await admin.post<Row>("/merchant/application-charge-set", {
      id: app.id,
      charge_type: "per_order",
      charge_amount: 50,
    });
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data).toMatchObject({ charge_type: "per_order", charge_amount: 50 });
    const got = await admin.get<Row>(`/merchant/application-charge-get?id=${app.id}`);
    expect(got.body.data).toEqual({ id: app.id, name: app.name, charge_type: "per_order", charge_amount: 50 });
    // Free means 0, whatever was there.
    await admin.post("/merchant/application-charge-set", { id: app.id, charge_type: "free" });
    expect((await admin.get<Row>(`/merchant/application-charge-get?id=${app.id}`)).body.data.charge_amount).toBe(0);
    // A paid charge needs its amount; the update form cannot set either field.
    const missing = await admin.post("/merchant/application-charge-set", { id: app.id, charge_type: "monthly" });
    expect(missing.status).toBe(400);
    expect(errorFields(missing)).toEqual(["charge_amount"]);
    const record = (await admin.get<Row>(`/merchant/application-list?page=1&limit=100`)).body.data as unknown as {
      list: Row[];
    };
    const current = record.list.find((a) => a.id === app.id)!;
    const sneaky = await admin.post("/merchant/application-update", { ...current, charge_type: "monthly" });
    expect(sneaky.status).toBe(400);
    expect((await admin.get(`/merchant/application-charge-get?id=999999`)).status).toBe(404);
    expect((await agentA.post("/merchant/application-charge-set", { id: app.id, charge_type: "free" })).status).toBe(
      403,
    );
  });
});

describe("an application's upgrade", () => {
  const upgrade = (client: Client, id: number, version?: number) =>
    client.post<Row>("/merchant/application-upgrade", { id, action: "upgrade", ...(version ? { version } : {}) });

  it("installs the newest published version, and is refused when none newer is published", async () => {
    const app = await fx.createRecord("application", "admin", {
      name: "Dryer Pro",
      version_number: "1.9.3",
      latest_version: "1.10.0",
    });
    // Not installed yet: installing comes first.
    expect((await upgrade(admin, app.id as number)).status).toBe(409);
    expect((await admin.post("/merchant/application-install", { id: app.id, action: "install" })).status).toBe(200);

    // 1.10.0 is newer than 1.9.3 (release numbers compare as numbers, not as text).
    const done = await upgrade(admin, app.id as number);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data).toMatchObject({
      version_number: "1.10.0",
      latest_version: "1.10.0",
      install_status: "installed",
    });

    const again = await upgrade(admin, app.id as number);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      "Dryer Pro already runs the newest published version (1.10.0); publish a newer one first",
    );
    // An older "newest" changes nothing either; the refusal is in the caller's language.
    await t.db.query(`update application set latest_version = '1.2.0' where id = $1`, [app.id]);
    const older = await call(t.app, {
      method: "POST",
      url: "/merchant/application-upgrade",
      headers: { authorization: `Bearer ${admin.token}`, locale: "zh" },
      payload: { id: app.id, action: "upgrade" },
    });
    expect([older.status, older.body.message]).toEqual([
      409,
      "Dryer Pro 已是最新发布的版本（1.10.0）；请先发布更新的版本",
    ]);
    const stored = await t.db.query<{ version_number: string }>(
      `select version_number from application where id = $1`,
      [app.id],
    );
    expect(stored.rows[0].version_number).toBe("1.10.0");
  });

  it("refuses a stale version, a bad id and a role without the permission", async () => {
    const app = await fx.createRecord("application", "admin", { version_number: "2.0.0", latest_version: "2.1.0" });
    await admin.post("/merchant/application-install", { id: app.id, action: "install" });
    expect((await upgrade(admin, app.id as number, 999)).status).toBe(409);
    expect((await admin.post("/merchant/application-upgrade", { id: "x", action: "upgrade" })).status).toBe(400);
    expect((await upgrade(admin, 999999)).status).toBe(404);
    expect((await upgrade(agentA, app.id as number)).status).toBe(403);
    const stored = await t.db.query<{ version_number: string }>(
      `select version_number from application where id = $1`,
      [app.id],
    );
    expect(stored.rows[0].version_number).toBe("2.0.0");
  });
});

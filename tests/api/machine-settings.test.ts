// Device settings (SPEC §7): each call with valid input, invalid input, another agent's device, a role
// without the permission, and a device kind it does not apply to; operators bound to devices with their
// shares, which never add up to more than 100 % of a device, even under 30 concurrent binds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type FieldErrors, type ListData, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentB: Client;
let operatorA: Client;
let agentA1: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentB, operatorA, agentA1] = await Promise.all(
    ["admin", "agent_a", "agent_b", "operator_a", "agent_a1"].map((a) => fx.client(a)),
  );
}, 60_000);
afterAll(() => t?.close());

let serial = 0;
type Kind = "vending" | "charging_cable" | "charging_pile" | "dryer" | "car_wash";

/** A new device of the owner's, of the given kind, with its own code and hardware id. */
async function device(owner: "agent_a" | "agent_b" | "agent_a1", kind: Kind, extra: Row = {}): Promise<number> {
  const n = ++serial;
  const row = await fx.createRecord("machine", owner, {
    kind,
    mac_name: `SET-${n}`,
    mac_id: `SETHW${String(n).padStart(6, "0")}`,
    ...extra,
  });
  return row.id as number;
}

/** A device bound to operator_a (which sees only its bound devices). */
async function boundDevice(kind: Kind): Promise<number> {
  const id = await device("agent_a", kind);
  await fx.insertRecord("operator_binding", "agent_a", {
    operator_id: t.ids.operator_a,
    machine_id: id,
    profit_type: "fixed",
    profit_amount: 1,
    profit_percent: null,
  });
  return id;
}

const message = (reply: Reply) => reply.body.message;

describe("machine-cup-set", () => {
  it("sets a vending device's max cups, audited, and only through this call", async () => {
    const id = await device("agent_a", "vending");
    const before = await fx.row("machine", id);
    const reply = await agentA.post<Row>("/merchant/machine-cup-set", { id, maxnumber: 150 });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.maxnumber).toBe(150);
    const after = (await fx.row("machine", id))!;
    expect(after.maxnumber).toBe(150);
    expect(after.version).toBe((before!.version as number) + 1);
    const history = await agentA.get<Row[]>(`/merchant/record-history?entity=machine&id=${id}`);
    expect(history.body.data[0]).toMatchObject({ action: "machine-cup-set", changes: { maxnumber: [null, 150] } });
    // The same value again writes and records nothing.
    expect((await agentA.post("/merchant/machine-cup-set", { id, maxnumber: 150 })).status).toBe(200);
    expect((await fx.row("machine", id))!.version).toBe(after.version);
    expect((await agentA.get<Row[]>(`/merchant/record-history?entity=machine&id=${id}`)).body.data).toHaveLength(
      history.body.data.length,
    );
    // The field is the call's alone: the update form cannot set it for a dryer, or for anyone.
    const record = (await agentA.get<Row>(`/merchant/machine-detail?id=${id}`)).body.data;
    const update = await agentA.post("/merchant/machine-update", { ...record, maxnumber: 99 });
    expect(update.status).toBe(400);
    expect((update.body.data as FieldErrors).errors).toContainEqual(
      expect.objectContaining({ field: "maxnumber", keyword: "readOnly" }),
    );
  });

  it("refuses invalid input, other kinds, other agents' devices and roles without the permission", async () => {
    const id = await device("agent_a", "vending");
    for (const body of [{ id, maxnumber: 0 }, { id, maxnumber: 100000 }, { id, maxnumber: "12" }, { id }]) {
      const reply = await agentA.post("/merchant/machine-cup-set", body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(reply)).toEqual(["maxnumber"]);
    }
    expect(errorFields(await agentA.post("/merchant/machine-cup-set", { maxnumber: 5 }))).toEqual(["id"]);
    const dryer = await device("agent_a", "dryer");
    const zh = await fx.clientIn("agent_a", "zh");
    const wrong = await zh.post("/merchant/machine-cup-set", { id: dryer, maxnumber: 5 });
    expect(wrong.status).toBe(409);
    expect(message(wrong)).toBe("此设置仅适用于以下类型的设备：售货机");
    expect((await fx.row("machine", dryer))!.maxnumber).toBeNull();
    const other = await agentB.post("/merchant/machine-cup-set", { id, maxnumber: 5 });
    expect(other.status).toBe(404);
    const bound = await boundDevice("vending");
    expect((await operatorA.post("/merchant/machine-cup-set", { id: bound, maxnumber: 5 })).status).toBe(403);
    expect((await fx.row("machine", id))!.maxnumber).toBeNull();
    expect((await fx.row("machine", bound))!.maxnumber).toBeNull();
  });
});

describe("machine-baketime-set", () => {
  it("sets a dryer's bake time; refuses other kinds, bad minutes, agent_b and the operator", async () => {
    const dryer = await device("agent_a", "dryer");
    const reply = await agentA.post<Row>("/merchant/machine-baketime-set", { id: dryer, bake_time: 45 });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.bake_time).toBe(45);
    expect((await fx.row("machine", dryer))!.bake_time).toBe(45);

    for (const bake_time of [0, 241, 1.5]) {
      const bad = await agentA.post("/merchant/machine-baketime-set", { id: dryer, bake_time });
      expect(errorFields(bad), String(bake_time)).toEqual(["bake_time"]);
    }
    const vending = await device("agent_a", "vending");
    const wrong = await agentA.post("/merchant/machine-baketime-set", { id: vending, bake_time: 30 });
    expect(wrong.status).toBe(409);
    expect(message(wrong)).toBe("This applies only to devices of kind: Dryer");
    expect((await agentB.post("/merchant/machine-baketime-set", { id: dryer, bake_time: 30 })).status).toBe(404);
    const bound = await boundDevice("dryer");
    expect((await operatorA.post("/merchant/machine-baketime-set", { id: bound, bake_time: 30 })).status).toBe(403);
    expect((await fx.row("machine", dryer))!.bake_time).toBe(45);
  });
});

describe("machine-towel-set", () => {
  it("sets towels off, free or paid at a price for car-wash units and dryers", async () => {
    const wash = await device("agent_a", "car_wash");
    const paid = await agentA.post<Row>("/merchant/machine-towel-set", {
      id: wash,
      towel_mode: "paid",
      towel_price: 250,
    });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data).toMatchObject({ towel_mode: "paid", towel_price: 250 });
    // Free towels carry no price: the old one is cleared.
    const free = await agentA.post<Row>("/merchant/machine-towel-set", {
      id: wash,
      towel_mode: "free",
      towel_price: 9,
    });
    expect(free.body.data.towel_mode).toBe("free");
    expect(free.body.data).not.toHaveProperty("towel_price");
    expect((await fx.row("machine", wash))!.towel_price).toBeNull();
    const dryer = await device("agent_a", "dryer");
    expect((await agentA.post("/merchant/machine-towel-set", { id: dryer, towel_mode: "off" })).status).toBe(200);
  });

  it("refuses a paid mode without a price, unknown modes, other kinds, agent_b and the operator", async () => {
    const wash = await device("agent_a", "car_wash");
    expect(errorFields(await agentA.post("/merchant/machine-towel-set", { id: wash, towel_mode: "paid" }))).toEqual([
      "towel_price",
    ]);
    expect(errorFields(await agentA.post("/merchant/machine-towel-set", { id: wash, towel_mode: "wet" }))).toEqual([
      "towel_mode",
    ]);
    const vending = await device("agent_a", "vending");
    const wrong = await agentA.post("/merchant/machine-towel-set", { id: vending, towel_mode: "free" });
    expect(wrong.status).toBe(409);
    expect(message(wrong)).toBe("This applies only to devices of kind: Car wash, Dryer");
    expect((await agentB.post("/merchant/machine-towel-set", { id: wash, towel_mode: "free" })).status).toBe(404);
    const bound = await boundDevice("car_wash");
    expect((await operatorA.post("/merchant/machine-towel-set", { id: bound, towel_mode: "free" })).status).toBe(403);
    expect((await fx.row("machine", wash))!.towel_mode).toBe("off");
  });
});

describe("machine-bg-set", () => {
  it("sets the screen background of devices with a screen, not of charging cables", async () => {
    const vending = await device("agent_a", "vending");
    const image = "/uploads/machine/2026-11/0123456789abcdef.png";
    const reply = await agentA.post<Row>("/merchant/machine-bg-set", { id: vending, bg_image: image });
    expect(reply.status, reply.raw).toBe(200);
    expect((await fx.row("machine", vending))!.bg_image).toBe(image);

    expect(errorFields(await agentA.post("/merchant/machine-bg-set", { id: vending }))).toEqual(["bg_image"]);
    const long = `/uploads/${"x".repeat(1100)}.png`;
    expect(errorFields(await agentA.post("/merchant/machine-bg-set", { id: vending, bg_image: long }))).toEqual([
      "bg_image",
    ]);
    const cable = await device("agent_a", "charging_cable");
    expect((await agentA.post("/merchant/machine-bg-set", { id: cable, bg_image: image })).status).toBe(409);
    expect((await agentB.post("/merchant/machine-bg-set", { id: vending, bg_image: "/x.png" })).status).toBe(404);
    const bound = await boundDevice("vending");
    expect((await operatorA.post("/merchant/machine-bg-set", { id: bound, bg_image: image })).status).toBe(403);
    expect((await fx.row("machine", vending))!.bg_image).toBe(image);
  });
});

describe("machine-mode-set", () => {
  it("switches a device's mode from an allowed mode only", async () => {
    const id = await device("agent_a", "vending");
    const reply = await agentA.post<Row>("/merchant/machine-mode-set", { id, action: "to_scan" });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.mode).toBe("scan");
    expect((await fx.row("machine", id))!.mode).toBe("scan");
    const again = await agentA.post("/merchant/machine-mode-set", { id, action: "to_scan" });
    expect(again.status).toBe(409);
    expect(errorFields(await agentA.post("/merchant/machine-mode-set", { id, action: "to_moon" }))).toEqual(["action"]);
    expect((await agentB.post("/merchant/machine-mode-set", { id, action: "to_normal" })).status).toBe(404);
    const bound = await boundDevice("vending");
    expect((await operatorA.post("/merchant/machine-mode-set", { id: bound, action: "to_4g" })).status).toBe(403);
    expect((await fx.row("machine", id))!.mode).toBe("scan");
    expect((await agentA.post<Row>("/merchant/machine-mode-set", { id, action: "to_normal" })).body.data.mode).toBe(
      "normal",
    );
  });
});

describe("machine-iccid", () => {
  it("answers the SIM number of a 4G device", async () => {
    const id = await device("agent_a", "vending", { network_type: "4g" });
    const before = await agentA.get<Row>(`/merchant/machine-iccid?id=${id}`);
    expect(before.body.data).toEqual({ id, mac_name: `SET-${serial}`, iccid: null });
    await fx.setColumn("machine", id, "iccid", "8985504012345678901");
    const reply = await agentA.get<Row>(`/merchant/machine-iccid?id=${id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.iccid).toBe("8985504012345678901");
    // The operator bound to it may read it too (machine.detail).
    const bound = await boundDevice("vending");
    expect((await operatorA.get(`/merchant/machine-iccid?id=${bound}`)).status).toBe(200);
  });

  it("refuses devices without a SIM, bad ids, agent_b and roles without machine.detail", async () => {
    const id = await device("agent_a", "charging_cable", { network_type: "bluetooth" });
    const noSim = await agentA.get(`/merchant/machine-iccid?id=${id}`);
    expect(noSim.status).toBe(409);
    expect(message(noSim)).toBe("This device is not on the 4G network and has no SIM card");
    expect(errorFields(await agentA.get("/merchant/machine-iccid?id=abc"))).toEqual(["id"]);
    expect(errorFields(await agentA.get("/merchant/machine-iccid"))).toEqual(["id"]);
    const g4 = await device("agent_a", "vending", { network_type: "4g" });
    expect((await agentB.get(`/merchant/machine-iccid?id=${g4}`)).status).toBe(404);
    expect((await agentA1.get(`/merchant/machine-iccid?id=${g4}`)).status).toBe(403);
  });
});

describe("machine-application-plan", () => {
  it("offers the plans of the device's kind that the caller may use", async () => {
    const own = await fx.createRecord("channel_plan", "agent_a", { name: "Own lanes" });
    const foreign = await fx.createRecord("channel_plan", "agent_b", { name: "Foreign lanes" });
    const dryerPlan = await fx.createRecord("dryer_plan", "agent_a", { name: "Own drying" });
    const vending = await device("agent_a", "vending");
    const reply = await agentA.get<{ kind: string; entity: string; list: Row[] }>(
      `/merchant/machine-application-plan?id=${vending}`,
    );
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.kind).toBe("vending");
    expect(reply.body.data.entity).toBe("channel_plan");
    // Plans of different kinds share ids (one table each): told apart by their names.
    const titles = reply.body.data.list.map((r) => r.title);
    expect(titles).toContain("Own lanes");
    expect(titles).not.toContain("Foreign lanes");
    expect(titles).not.toContain("Own drying");
    expect(reply.body.data.list.map((r) => r.id)).not.toContain(foreign.id);
    expect(reply.body.data.list.find((r) => r.id === own.id)).toEqual({ id: own.id, title: "Own lanes" });

    const dryer = await device("agent_a", "dryer");
    const drying = await agentA.get<{ entity: string; list: Row[] }>(`/merchant/machine-application-plan?id=${dryer}`);
    expect(drying.body.data.entity).toBe("dryer_plan");
    expect(drying.body.data.list).toContainEqual({ id: dryerPlan.id, title: "Own drying" });
    expect(drying.body.data.list.map((r) => r.title)).not.toContain("Own lanes");
  });

  it("shows an operator the plan its bound device runs, none of its agent's others", async () => {
    const runs = await fx.createRecord("channel_plan", "agent_a", { name: "Runs here" });
    await fx.createRecord("channel_plan", "agent_a", { name: "Not here" });
    const bound = await boundDevice("vending");
    await fx.setColumn("machine", bound, "channel_plan_id", runs.id);
    const reply = await operatorA.get<{ list: Row[] }>(`/merchant/machine-application-plan?id=${bound}`);
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.list).toEqual([{ id: runs.id, title: "Runs here" }]);
  });

  it("refuses bad ids, agent_b and roles without machine.detail", async () => {
    const vending = await device("agent_a", "vending");
    expect(errorFields(await agentA.get("/merchant/machine-application-plan?id=0"))).toEqual(["id"]);
    expect((await agentB.get(`/merchant/machine-application-plan?id=${vending}`)).status).toBe(404);
    expect((await agentA1.get(`/merchant/machine-application-plan?id=${vending}`)).status).toBe(403);
  });
});

describe("get-open-plugins", () => {
  it("lists the enabled plugins with the device owner's profit-sharing settings", async () => {
    const on = await fx.insertRecord("plugin", "admin", { code: "share_on", name: "Sharing", status: 1, sort: 1 });
    const off = await fx.insertRecord("plugin", "admin", { code: "share_off", name: "Old", status: 0, sort: 2 });
    const saved = await agentA.post("/merchant/set-config-plugins", {
      daily_max_amount: 20000,
      per_order_amount: 500,
      application_ids: [],
      version: 0,
    });
    expect(saved.status, saved.raw).toBe(200);
    const vending = await device("agent_a", "vending");
    // The platform admin asks about agent_a's device: agent_a's settings, not its own (none).
    const reply = await admin.get<{ agent_id: number; plugins: Row[]; setting: Row | null }>(
      `/merchant/get-open-plugins?machine_id=${vending}`,
    );
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.agent_id).toBe(t.ids.agent_a);
    expect(reply.body.data.plugins).toContainEqual({ id: on.id, code: "share_on", name: "Sharing" });
    expect(reply.body.data.plugins.map((p) => p.id)).not.toContain(off.id);
    expect(reply.body.data.setting).toEqual({ daily_max_amount: 20000, per_order_amount: 500, application_ids: [] });
    const own = await admin.get<{ agent_id: number; setting: Row | null }>("/merchant/get-open-plugins");
    expect(own.body.data).toMatchObject({ agent_id: t.ids.admin, setting: null });
  });

  it("refuses bad ids, agent_b on agent_a's device and roles without machine.detail", async () => {
    const vending = await device("agent_a", "vending");
    expect(errorFields(await agentA.get("/merchant/get-open-plugins?machine_id=x"))).toEqual(["machine_id"]);
    const other = await agentB.get(`/merchant/get-open-plugins?machine_id=${vending}`);
    expect(other.status).toBe(400);
    expect((other.body.data as FieldErrors).errors).toEqual([expect.objectContaining({ keyword: "x-relation" })]);
    expect((await agentA1.get("/merchant/get-open-plugins")).status).toBe(403);
  });

  it("refuses an operator: the owner's profit-sharing limits are the agent's, not its operators'", async () => {
    const bound = await boundDevice("vending");
    expect((await operatorA.get(`/merchant/get-open-plugins?machine_id=${bound}`)).status).toBe(403);
    expect((await operatorA.get("/merchant/get-open-plugins")).status).toBe(403);
  });
});

describe("renovation-all-my", () => {
  it("offers the caller's own pages, those fitting the device when one is named", async () => {
    const lanes = await fx.relatedId("channel_plan", "agent_a");
    const charging = await fx.relatedId("charge_plan", "agent_a");
    const sales = await fx.insertRecord("page", "agent_a", { name: "My sales", channel_plan_id: lanes });
    const charge = await fx.insertRecord("page", "agent_a", {
      name: "My charging",
      channel_plan_id: null,
      charge_plan_id: charging,
    });
    const sub = await fx.insertRecord("page", "agent_a1", { name: "Sub's page" });
    const foreign = await fx.insertRecord("page", "agent_b", { name: "B's page" });
    const all = await agentA.get<Row[]>("/merchant/renovation-all-my");
    expect(all.status, all.raw).toBe(200);
    const ids = all.body.data.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([sales.id, charge.id]));
    expect(ids).not.toContain(sub.id);
    expect(ids).not.toContain(foreign.id);
    expect(all.body.data.find((r) => r.id === sales.id)).toEqual({ id: sales.id, title: "My sales" });

    const vending = await device("agent_a", "vending");
    const forVending = (await agentA.get<Row[]>(`/merchant/renovation-all-my?machine_id=${vending}`)).body.data;
    expect(forVending.map((r) => r.id)).toContain(sales.id);
    expect(forVending.map((r) => r.id)).not.toContain(charge.id);
    const cable = await device("agent_a", "charging_cable");
    const forCable = (await agentA.get<Row[]>(`/merchant/renovation-all-my?machine_id=${cable}`)).body.data;
    expect(forCable.map((r) => r.id)).toContain(charge.id);
    expect(forCable.map((r) => r.id)).not.toContain(sales.id);
  });

  it("refuses bad ids, agent_b on agent_a's device and roles without page.all", async () => {
    const vending = await device("agent_a", "vending");
    expect(errorFields(await agentA.get("/merchant/renovation-all-my?machine_id=-1"))).toEqual(["machine_id"]);
    expect((await agentB.get(`/merchant/renovation-all-my?machine_id=${vending}`)).status).toBe(400);
    expect((await agentA1.get("/merchant/renovation-all-my")).status).toBe(403);
    expect((await operatorA.get("/merchant/renovation-all-my")).status).toBe(403);
  });
});

describe("machine-put-ad and machine-ad-delete", () => {
  const ad = (machine_id: number) => ({ machine_id, type: "image", image: "/uploads/ads/a.png", sort: 1 });

  it("puts an ad on a device with a screen, owned by the device's agent, and removes it", async () => {
    const vending = await device("agent_a", "vending");
    const put = await admin.post<Row>("/merchant/machine-put-ad", ad(vending));
    expect(put.status, put.raw).toBe(200);
    expect(put.body.data.agent_id).toBe(t.ids.agent_a);
    const listed = await agentA.get<ListData>(`/merchant/machine-ad-list?machine_id=${vending}`);
    expect(listed.body.data.list.map((r) => r.id)).toEqual([put.body.data.id]);
    expect((await agentB.del(`/merchant/machine-ad-delete?id=${put.body.data.id}`)).status).toBe(404);
    expect((await agentA.del(`/merchant/machine-ad-delete?id=${put.body.data.id}`)).status).toBe(200);
    expect(await fx.row("machine_ad", put.body.data.id)).toBeUndefined();
  });

  it("refuses charging cables, broken ads, agent_b and the operator", async () => {
    const cable = await device("agent_a", "charging_cable");
    expect((await agentA.post("/merchant/machine-put-ad", ad(cable))).status).toBe(409);
    const vending = await device("agent_a", "vending");
    expect(errorFields(await agentA.post("/merchant/machine-put-ad", { machine_id: vending, type: "image" }))).toEqual([
      "image",
    ]);
    const other = await agentB.post("/merchant/machine-put-ad", ad(vending));
    expect(other.status).toBe(400);
    expect(errorFields(other)).toEqual(["machine_id"]);
    const bound = await boundDevice("vending");
    expect((await operatorA.post("/merchant/machine-put-ad", ad(bound))).status).toBe(403);
    const { id } = (await agentA.post<Row>("/merchant/machine-put-ad", ad(vending))).body.data;
    expect((await operatorA.del(`/merchant/machine-ad-delete?id=${id}`)).status).toBe(403);
    expect(await fx.row("machine_ad", id)).toBeDefined();
  });
});

describe("operator-bind-machine and operator-unbind-machine", () => {
  const percent = (operator_id: number, machine_id: number, profit_percent: number) => ({
    operator_id,
    machine_id,
    profit_type: "percent",
    profit_percent,
  });
  const operator = async (owner: "agent_a" | "agent_a1" | "agent_b") =>
    (await fx.insertRecord("operator", owner)).id as number;

  it("binds once per operator and device, the binding its operator's agent's", async () => {
    const machine = await device("agent_a", "vending");
    const bound = await admin.post<Row>("/merchant/operator-bind-machine", percent(t.ids.operator_a, machine, 0.4));
    expect(bound.status, bound.raw).toBe(200);
    expect(bound.body.data).toMatchObject({ agent_id: t.ids.agent_a, profit_percent: 0.4, profit_type: "percent" });
    const listed = await agentA.get<ListData>(`/merchant/operator-machine-list?machine_id=${machine}`);
    expect(listed.body.data.list.map((r) => r.id)).toEqual([bound.body.data.id]);
    const zh = await fx.clientIn("agent_a", "zh");
    const twice = await zh.post("/merchant/operator-bind-machine", percent(t.ids.operator_a, machine, 0.1));
    expect(twice.status).toBe(400);
    expect((twice.body.data as FieldErrors).errors).toEqual([
      { field: "machine_id", keyword: "unique", message: "该运维人员已绑定此设备" },
    ]);
  });

  it("keeps a device's percent shares at or below 100 %; fixed amounts do not count", async () => {
    const machine = await device("agent_a", "vending");
    const [o1, o2, o3, o4] = [
      await operator("agent_a"),
      await operator("agent_a"),
      await operator("agent_a"),
      await operator("agent_a"),
    ];
    expect((await agentA.post("/merchant/operator-bind-machine", percent(o1, machine, 0.3))).status).toBe(200);
    expect((await agentA.post("/merchant/operator-bind-machine", percent(o2, machine, 0.45))).status).toBe(200);
    const over = await agentA.post("/merchant/operator-bind-machine", percent(o3, machine, 0.3));
    expect(over.status).toBe(400);
    expect((over.body.data as FieldErrors).errors).toEqual([
      {
        field: "profit_percent",
        keyword: "sharesOver100",
        message: "The device's operator shares would exceed 100 %; at most 25 % is left",
      },
    ]);
    // Exactly the rest fits (0.3 + 0.45 + 0.25 is 1 in decimal, not just in floating point).
    expect((await agentA.post("/merchant/operator-bind-machine", percent(o3, machine, 0.25))).status).toBe(200);
    const fixed = await agentA.post<Row>("/merchant/operator-bind-machine", {
      operator_id: o4,
      machine_id: machine,
      profit_type: "fixed",
      profit_amount: 300,
      profit_percent: 0.5,
    });
    expect(fixed.status, fixed.raw).toBe(200);
    expect(fixed.body.data).not.toHaveProperty("profit_percent");
    expect(errorFields(await agentA.post("/merchant/operator-bind-machine", percent(o4, machine, 1.5)))).toEqual([
      "profit_percent",
    ]);
    expect(
      errorFields(
        await agentA.post("/merchant/operator-bind-machine", {
          operator_id: o4,
          machine_id: machine,
          profit_type: "percent",
        }),
      ),
    ).toEqual(["profit_percent"]);
  });

  it("binds only operators and devices in the caller's scope, of the operator's own agent", async () => {
    const machineA = await device("agent_a", "vending");
    const machineB = await device("agent_b", "vending");
    const operatorB = await operator("agent_b");
    const onA = await agentB.post("/merchant/operator-bind-machine", percent(operatorB, machineA, 0.1));
    expect(onA.status).toBe(400);
    expect(errorFields(onA)).toEqual(["machine_id"]);
    const takeA = await agentB.post("/merchant/operator-bind-machine", percent(t.ids.operator_a, machineB, 0.1));
    expect(errorFields(takeA)).toEqual(["operator_id"]);
    // agent_a sees its sub-agent's operators, but they restock only their own agent's devices.
    const operatorA1 = await operator("agent_a1");
    const upward = await agentA.post("/merchant/operator-bind-machine", percent(operatorA1, machineA, 0.1));
    expect(upward.status).toBe(400);
    expect((upward.body.data as FieldErrors).errors).toEqual([
      {
        field: "machine_id",
        keyword: "operatorOtherAgent",
        message: "The device must belong to the operator's own agent or its sub-agents",
      },
    ]);
    const machineA1 = await device("agent_a1", "vending");
    expect(
      (await agentA.post("/merchant/operator-bind-machine", percent(t.ids.operator_a, machineA1, 0.1))).status,
    ).toBe(200);
    expect(
      (await operatorA.post("/merchant/operator-bind-machine", percent(t.ids.operator_a, machineA, 0.1))).status,
    ).toBe(403);
    expect((await agentA1.post("/merchant/operator-bind-machine", percent(operatorA1, machineA1, 0.1))).status).toBe(
      403,
    );
    const { rows } = await t.db.query(`select 1 from operator_binding where machine_id = any($1)`, [
      [machineA, machineB],
    ]);
    expect(rows).toHaveLength(0);
  });

  it("unbinds by id or by operator and device, in the caller's scope, with POST", async () => {
    const m1 = await device("agent_a", "vending");
    const m2 = await device("agent_a", "vending");
    const b1 = (await agentA.post<Row>("/merchant/operator-bind-machine", percent(t.ids.operator_a, m1, 0.2))).body
      .data;
    const b2 = (await agentA.post<Row>("/merchant/operator-bind-machine", percent(t.ids.operator_a, m2, 0.2))).body
      .data;

    expect((await agentB.post("/merchant/operator-unbind-machine", { id: b1.id })).status).toBe(404);
    expect((await agentB.post("/merchant/operator-unbind-machine", { id: [b1.id, b2.id] })).status).toBe(404);
    expect((await operatorA.post("/merchant/operator-unbind-machine", { id: b1.id })).status).toBe(403);
    expect((await agentA1.post("/merchant/operator-unbind-machine", { id: b1.id })).status).toBe(403);
    const none = await agentA.post("/merchant/operator-unbind-machine", {});
    expect(none.status).toBe(400);
    expect(errorFields(none)).toEqual(["operator_id", "machine_id"]);
    expect(
      errorFields(await agentA.post("/merchant/operator-unbind-machine", { operator_id: t.ids.operator_a })),
    ).toEqual(["machine_id"]);
    expect(new Set(errorFields(await agentA.post("/merchant/operator-unbind-machine", { id: "x" })))).toEqual(
      new Set(["id"]),
    );
    // All or nothing: one binding outside the caller's reach undoes the whole call.
    const foreignMachine = await device("agent_b", "vending");
    const foreignOperator = await operator("agent_b");
    const foreign = (
      await agentB.post<Row>("/merchant/operator-bind-machine", percent(foreignOperator, foreignMachine, 0.2))
    ).body.data;
    expect((await agentA.post("/merchant/operator-unbind-machine", { id: [b1.id, foreign.id] })).status).toBe(404);
    expect(await fx.row("operator_binding", b1.id)).toBeDefined();
    // The entity's DELETE is gone: SPEC's POST is the one way.
    expect((await agentA.del(`/merchant/operator-unbind-machine?id=${b1.id}`)).status).toBe(404);

    const byPair = await agentA.post("/merchant/operator-unbind-machine", {
      operator_id: t.ids.operator_a,
      machine_id: m1,
    });
    expect(byPair.status, byPair.raw).toBe(200);
    expect(byPair.body.data).toEqual({ count: 1 });
    expect(await fx.row("operator_binding", b1.id)).toBeUndefined();
    const byId = await agentA.post("/merchant/operator-unbind-machine", { id: b2.id });
    expect(byId.body.data).toEqual({ count: 1 });
    expect(await fx.row("operator_binding", b2.id)).toBeUndefined();
    expect((await agentA.post("/merchant/operator-unbind-machine", { id: b2.id })).status).toBe(404);
    expect(await fx.row("operator_binding", foreign.id)).toBeDefined();
  });

  it("30 concurrent binds of 40 % each to one device: 2 are bound, 28 refused", async () => {
    const machine = await device("agent_a", "vending");
    const operators: number[] = [];
    for (let i = 0; i < 30; i++) operators.push(await operator("agent_a"));
    const replies = await Promise.all(
      operators.map((o) => agentA.post("/merchant/operator-bind-machine", percent(o, machine, 0.4))),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 400)).toHaveLength(28);
    for (const reply of replies.filter((r) => r.status === 400))
      expect((reply.body.data as FieldErrors).errors.map((e) => e.keyword)).toEqual(["sharesOver100"]);
    const { rows } = await t.db.query<{ n: number; total: number }>(
      `select count(*)::int as n, sum(profit_percent) as total from operator_binding where machine_id = $1`,
      [machine],
    );
    expect(rows[0]).toEqual({ n: 2, total: 0.8 });
  });
});

// The security suite, generated from the models rather than written per endpoint: agent scope on every
// call of every scoped entity, mass assignment on every add and update, relations across scopes, and
// role and operator permissions on every call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessOfCall, permissionOfCall } from "../../src/schema/permissions.ts";
import type { CallKind } from "../../src/schema/types.ts";
import { models, modelOf } from "../../server/model/model.ts";
import { createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import {
  clientField,
  editOf,
  errorFields,
  exampleOf,
  Fixtures,
  has,
  otherValueOf,
  relationOf,
  sampleOf,
  transitionBody,
  transitionsOf,
  urlOf,
  type FieldErrors,
  type ListData,
  type Row,
} from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let agentA: Client;
let agentB: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  agentA = await fx.client("agent_a");
  agentB = await fx.client("agent_b");
});
afterAll(() => t?.close());

const stored = [...models.values()];
const tables = stored.filter((m) => m.x.storage === "table");
// Agents' tables: a user's own rows (x-entity.scope "owner", saved views) are swept by saved-views.test.ts.
const scopedTables = tables.filter((m) => m.scoped && !m.owned).map((m) => m.name);
const scopedSingletons = stored.filter((m) => m.singleton && m.scoped).map((m) => m.name);
const addable = tables.filter((m) => has(m, "add")).map((m) => m.name);

// What the generators below produce, from the models as they are: a model change that removes cases
// changes a number here (and the per-entity `if`s below cannot drop cases unseen).
describe("the generated cases", () => {
  it("cover 50 stored entities: 46 tables (33 scoped, 30 addable) and 2 scoped singletons", () => {
    expect(stored).toHaveLength(50);
    expect(tables).toHaveLength(46);
    expect(scopedTables).toHaveLength(33);
    expect(scopedSingletons).toHaveLength(2);
    expect(addable).toHaveLength(30);
  });

  it("reach each scoped table's detail, picker, export, update, transition, delete and recycle bin", () => {
    const scoped = scopedTables.map(modelOf);
    expect(scoped.filter((m) => has(m, "detail"))).toHaveLength(16);
    expect(scoped.filter((m) => has(m, "all"))).toHaveLength(15);
    expect(scoped.filter((m) => has(m, "export"))).toHaveLength(3);
    expect(scoped.filter((m) => has(m, "update"))).toHaveLength(18);
    expect(scoped.flatMap((m) => transitionsOf(m))).toHaveLength(14);
    expect(scoped.filter((m) => has(m, "delete"))).toHaveLength(18);
    expect(scoped.filter((m) => m.recycle)).toHaveLength(13);
  });

  it("try mass assignment on 30 adds and 28 updates, 24 transitions in 10 tables, 19 cross-scope relations", () => {
    expect(addable.filter((name) => has(modelOf(name), "update"))).toHaveLength(28);
    const withTransitions = tables.filter((m) => transitionsOf(m).length > 0);
    expect(withTransitions).toHaveLength(10);
    expect(withTransitions.flatMap((m) => transitionsOf(m))).toHaveLength(24);
    expect(crossScope).toHaveLength(19);
  });

  it("send every one of the 252 served calls", () => {
    expect(calls).toHaveLength(252);
    expect(new Set(calls.map((c) => c.label)).size).toBe(252);
  });
});

const expectRefused = (reply: Reply, field: string, keyword = "readOnly") => {
  expect(reply.status, `${field}: ${reply.raw}`).toBe(400);
  expect((reply.body.data as FieldErrors).errors).toContainEqual(expect.objectContaining({ field, keyword }));
};

describe.each(scopedTables)("agent_a against agent_b's %s", (name) => {
  const model = modelOf(name);
  let id: number;
  /** agent_b's record as detail (or the list) shows it to the platform admin. */
  let asAdmin: Row;

  beforeAll(async () => {
    id = (await fx.createRecord(name, "agent_b")).id as number;
    asAdmin = (await fx.read(name, "admin", id))!;
  });

  /** Runs a check and proves agent_b's row is the same afterwards, to the last column. */
  const unchangedAfter = async (check: () => Promise<void>) => {
    const before = await fx.row(name, id);
    expect(before).toBeDefined();
    await check();
    expect(await fx.row(name, id)).toEqual(before);
  };

  it("cannot read it: detail, list, picker, export and history", async () => {
    expect(await fx.listed(name, "agent_b", [id])).toEqual([id]);
    expect(await fx.listed(name, "agent_a", [id])).toEqual([]);
    const all = await agentA.get<ListData>(`${urlOf(model, "list")}?limit=200`);
    expect(all.body.data.list.map((r) => r.id)).not.toContain(id);
    if (has(model, "detail")) {
      expect((await agentB.get(`${urlOf(model, "detail")}?id=${id}`)).status).toBe(200);
      expect((await agentA.get(`${urlOf(model, "detail")}?id=${id}`)).status).toBe(404);
    }
    if (has(model, "all")) {
      const picker = await agentA.get<Row[]>(urlOf(model, "all"));
      expect(picker.status).toBe(200);
      expect(picker.body.data.map((r) => r.id)).not.toContain(id);
      expect((await agentB.get<Row[]>(urlOf(model, "all"))).body.data.map((r) => r.id)).toContain(id);
    }
    if (has(model, "export")) {
      const file = await agentA.get(`${urlOf(model, "export")}?format=csv`);
      expect(file.status).toBe(200);
      expect(file.raw.split("\r\n").some((line) => line.startsWith(`${id},`))).toBe(false);
    }
    const history = `/merchant/record-history?entity=${name}&id=${id}`;
    expect((await agentB.get(history)).status).toBe(200);
    expect((await agentA.get(history)).status).toBe(404);
  });

  if (has(model, "update")) {
    it("cannot update it", () =>
      unchangedAfter(async () => {
        const edit = editOf(model, asAdmin);
        const body = edit ? { ...asAdmin, [edit.field]: edit.value } : asAdmin;
        const reply = await agentA.post(urlOf(model, "update"), body);
        expect(reply.status, reply.raw).toBe(404);
      }));
  }

  for (const { field, tr } of transitionsOf(model)) {
    it(`cannot ${tr.action} it (${tr.call})`, async () => {
      await fx.setColumn(name, id, field, tr.from[0]);
      await unchangedAfter(async () => {
        const reply = await agentA.post(urlOf(model, tr.call), transitionBody(model, tr, id));
        expect(reply.status, reply.raw).toBe(404);
      });
    });
  }

  if (has(model, "delete")) {
    it("cannot delete it, alone or among its own records", async () => {
      const own = (await fx.createRecord(name, "agent_a")).id;
      await unchangedAfter(async () => {
        expect((await agentA.del(`${urlOf(model, "delete")}?id=${id}`)).status).toBe(404);
        expect((await agentA.del(`${urlOf(model, "delete")}?id=${own},${id}`)).status).toBe(404);
      });
      // All or nothing: agent_a's own record was not deleted either.
      expect(await fx.listed(name, "agent_a", [own])).toEqual([own]);
    });
  }

  if (model.recycle) {
    it("cannot see, recover or destroy it in agent_b's recycle bin", async () => {
      expect((await agentB.del(`${urlOf(model, "delete")}?id=${id}`)).status).toBe(200);
      await unchangedAfter(async () => {
        expect(await fx.listed(name, "agent_a", [id], true)).toEqual([]);
        expect((await agentA.post(urlOf(model, "recover"), { id: [id] })).status).toBe(404);
        expect((await agentA.del(`${urlOf(model, "destroy")}?id=${id}`)).status).toBe(404);
      });
      expect(await fx.listed(name, "agent_b", [id], true)).toEqual([id]);
      expect((await agentB.post(urlOf(model, "recover"), { id: [id] })).status).toBe(200);
    });
  }

  it("can read the rows of its subordinate agent_a1", async () => {
    const sub = (await fx.createRecord(name, "agent_a1")).id;
    expect(await fx.listed(name, "agent_a", [sub])).toEqual([sub]);
    expect(await fx.listed(name, "agent_b", [sub])).toEqual([]);
    if (has(model, "detail")) expect((await agentA.get(`${urlOf(model, "detail")}?id=${sub}`)).status).toBe(200);
  });
});

describe.each(scopedSingletons)("agent_a against agent_b's %s (singleton)", (name) => {
  const model = modelOf(name);

  it("neither sees nor changes agent_b's settings", async () => {
    const body = await fx.makeRecord(name, "agent_b");
    const set = await agentB.post<Row>(urlOf(model, "set"), { ...body, version: 0 });
    expect(set.status, set.raw).toBe(200);
    const before = await fx.row(name, set.body.data.id);

    const seen = await agentA.get<Row>(urlOf(model, "get"));
    expect(seen.status).toBe(200);
    expect(seen.body.data.version).toBe(0);
    expect(seen.body.data.id).toBeUndefined();

    const own = await fx.makeRecord(name, "agent_a");
    expect((await agentA.post(urlOf(model, "set"), { ...own, version: set.body.data.version })).status).toBe(409);
    // Sending agent_b's record (its id, owner, timestamps) as one's own is refused, and changes nothing.
    const hijack = await agentA.post(urlOf(model, "set"), { ...set.body.data, ...own, version: 0 });
    expect(hijack.status).toBe(400);
    expect(JSON.stringify(hijack.body.data)).toContain('"field":"id"');
    expect(await fx.row(name, set.body.data.id)).toEqual(before);
    expect((await agentA.post(urlOf(model, "set"), { ...own, version: 0 })).status).toBe(200);
    expect((await agentB.get<Row>(urlOf(model, "get"))).body.data).toEqual(set.body.data);
    const a = await fx.owner("agent_a");
    const { rows } = await t.db.query(
      `select agent_id, agent_path, singleton_key from "${model.table}" where id <> $1`,
      [set.body.data.id],
    );
    expect(rows).toEqual([{ agent_id: a.id, agent_path: a.path, singleton_key: a.path }]);
  });
});

describe.each(addable)("mass assignment on %s", (name) => {
  const model = modelOf(name);
  const managed = [
    ...new Set([
      "id",
      "version",
      "created_at",
      "updated_at",
      "deleted_at",
      "agent_id",
      "agent_path",
      ...model.readOnly,
      ...model.stateFields.keys(),
    ]),
  ];
  /** agent_a where its role may add this entity, else the platform admin. */
  let caller: "agent_a" | "admin";
  let client: Client;
  let forged: Row;

  beforeAll(async () => {
    caller = (await fx.may("agent_a", permissionOfCall(name, "add"))) ? "agent_a" : "admin";
    client = await fx.client(caller);
    const b = await fx.owner("agent_b");
    const example = exampleOf(model);
    const when = "2020-01-01T00:00:00.000Z";
    forged = {
      id: 999_999,
      version: 7,
      created_at: when,
      updated_at: when,
      deleted_at: when,
      agent_id: b.id,
      agent_path: b.path,
    };
    for (const field of managed) {
      const spec = model.fields.get(field);
      if (spec && field !== "agent_id") forged[field] = example[field] ?? sampleOf(spec);
    }
  });

  // A state a new record may start in (x-states initial) is the add form's to choose.
  const startable = Object.entries(model.schema["x-states"] ?? {}).flatMap(([field, machine]) =>
    machine.initial ? [{ field, values: machine.initial }] : [],
  );
  const refusedOnAdd = managed.filter((f) => !startable.some((s) => s.field === f));

  it(`add refuses ${refusedOnAdd.join(", ")}`, async () => {
    const body = await fx.makeRecord(name, caller);
    const before = await fx.count(name);
    for (const field of refusedOnAdd) {
      expectRefused(await client.post(urlOf(model, "add"), { ...body, [field]: forged[field] }), field);
    }
    expect(await fx.count(name)).toBe(before);
  });

  for (const { field, values } of startable) {
    it(`add starts ${field} at each of ${values.join(", ")}, and at nothing else`, async () => {
      for (const value of values) {
        const created = await client.post<Row>(urlOf(model, "add"), {
          ...(await fx.makeRecord(name, caller)),
          [field]: value,
        });
        expect(created.status, created.raw).toBe(200);
        expect((await fx.row(name, created.body.data.id as number))![field]).toBe(value);
      }
      const other = await client.post(urlOf(model, "add"), { ...(await fx.makeRecord(name, caller)), [field]: 7 });
      expectRefused(other, field, "enum");
    });
  }

  if (has(model, "update")) {
    it("update refuses a change of owner, version, read-only or state field", async () => {
      const { id } = await fx.createRecord(name, caller);
      const record = (await fx.read(name, caller, id))!;
      const before = await fx.row(name, id);
      for (const field of managed.filter((f) => !["id", "version"].includes(f))) {
        const spec = model.fields.get(field);
        const value = spec ? otherValueOf(spec, record[field])[0] : forged[field];
        expectRefused(await client.post(urlOf(model, "update"), { ...record, [field]: value }), field);
      }
      const edit = editOf(model, record);
      const ahead = await client.post(urlOf(model, "update"), {
        ...record,
        ...(edit && { [edit.field]: edit.value }),
        version: 7,
      });
      expect(ahead.status, ahead.raw).toBe(409);
      expect(await fx.row(name, id)).toEqual(before);
    });
  }
});

describe.each(tables.filter((m) => transitionsOf(m).length > 0).map((m) => m.name))(
  "transition input on %s",
  (name) => {
    const model = modelOf(name);

    for (const { field, tr } of transitionsOf(model)) {
      it(`${tr.action} refuses fields outside its input`, async () => {
        const { id } = await fx.createRecord(name, "admin");
        await fx.setColumn(name, id, field, tr.from[0]);
        const before = await fx.row(name, id);
        const admin = await fx.client("admin");
        const b = await fx.owner("agent_b");
        const extra: Row = {
          agent_id: b.id,
          agent_path: b.path,
          deleted_at: "2020-01-01T00:00:00.000Z",
          [field]: tr.to,
        };
        for (const f of model.readOnly)
          if (!(tr.input ?? []).includes(f)) extra[f] = exampleOf(model)[f] ?? sampleOf(model.fields.get(f)!);
        for (const [f, value] of Object.entries(extra)) {
          const reply = await admin.post(urlOf(model, tr.call), {
            ...transitionBody(model, tr, id),
            [f]: value,
          });
          expect(reply.status, `${f}: ${reply.raw}`).toBe(400);
          expect(errorFields(reply), f).toContain(f);
        }
        expect(await fx.row(name, id)).toEqual(before);
      });
    }
  },
);

/** Relation fields a client sets that point at scoped entities: agent_b's records must be refused. */
const crossScope = addable.flatMap((name) => {
  const model = modelOf(name);
  return [...model.fields.keys()]
    .filter((f) => clientField(model, f) && relationOf(model, f) && modelOf(relationOf(model, f)!).scoped)
    .map((field) => ({ name, field, target: relationOf(model, field)!, label: `${name}.${field}` }));
});

describe.each(crossScope)("relation $label → agent_b's $target", ({ name, field, target }) => {
  const model = modelOf(name);

  it("is refused on add and on update (x-relation)", async () => {
    const foreign = target === "agent" ? (await fx.owner("agent_b")).id : await fx.relatedId(target, "agent_b");
    const value = model.fields.get(field)!.node.type === "array" ? [foreign] : foreign;
    const body = await fx.makeRecord(name, "agent_a");
    const before = await fx.count(name);
    expectRefused(await agentA.post(urlOf(model, "add"), { ...body, [field]: value }), field, "x-relation");
    expect(await fx.count(name)).toBe(before);
    if (has(model, "update") && !model.immutable.has(field)) {
      const { id } = await fx.createRecord(name, "agent_a");
      const record = (await fx.read(name, "agent_a", id))!;
      const row = await fx.row(name, id);
      expectRefused(await agentA.post(urlOf(model, "update"), { ...record, [field]: value }), field, "x-relation");
      expect(await fx.row(name, id)).toEqual(row);
    }
  });
});

/** One request per call of every stored entity (and per transition), enough to reach the permission check. */
const calls = stored.flatMap((model) => {
  const kinds = (Object.keys(model.x.calls) as CallKind[]).map((kind) => ({
    model,
    label: `${model.x.calls[kind]}`,
    permission: accessOfCall(model.schema, kind),
    send: (c: Client) => {
      const url = urlOf(model, kind);
      if (["add", "update", "set", "recover"].includes(kind)) return c.post(url, { id: [1] });
      if (["delete", "destroy"].includes(kind)) return c.del(`${url}?id=1`);
      return c.get(kind === "detail" ? `${url}?id=1` : url);
    },
  }));
  const actions = transitionsOf(model).map(({ tr }) => ({
    model,
    label: `${tr.call} (${tr.action})`,
    permission: `${model.name}.${tr.action}`,
    send: (c: Client) => c.post(urlOf(model, tr.call), transitionBody(model, tr, 1)),
  }));
  return [...kinds, ...actions];
});

/**
 * What each role may do, written by hand from SPEC section 2 and README "Outlet managers" (not read from
 * the server's constants): agent_a1's narrow role (tests/api/helper.ts), an operator allowed to restock and
 * an outlet manager of one of agent_a's outlets (reads only: its outlets, their devices, lanes, restocks,
 * orders and stock consumption). Each allowed call is sent as the user would send it and must succeed
 * (200); every other call is 403, every write and every recycle-bin call of the manager's included.
 */
const MAY: Record<"agent_a1" | "operator_a" | "manager_a", Record<string, (c: Client) => Promise<Reply>>> = {
  agent_a1: {
    "goods.list": (c) => c.get("/merchant/goods-list"),
    "goods.detail": async (c) => c.get(`/merchant/goods-detail?id=${(await fx.createRecord("goods", "agent_a1")).id}`),
    "order.list": (c) => c.get("/merchant/order-list"),
    "machine.list": (c) => c.get("/merchant/machine-list"),
  },
  operator_a: {
    "machine.list": (c) => c.get("/merchant/machine-list"),
    "machine.detail": async (c) => c.get(`/merchant/machine-detail?id=${await boundMachine()}`),
    "machine.all": (c) => c.get("/merchant/machine-all"),
    "machine_channel.list": (c) => c.get("/merchant/machine-channel-list"),
    "clean_record.list": (c) => c.get("/merchant/machine-clean-log-list"),
    "machine_restock.list": (c) => c.get("/merchant/machine-replenishment-list"),
  },
  manager_a: {
    "shop.list": (c) => c.get(urlOf(modelOf("shop"), "list")),
    "shop.detail": async (c) => c.get(`${urlOf(modelOf("shop"), "detail")}?id=${(await managed()).shop}`),
    "shop.all": (c) => c.get(urlOf(modelOf("shop"), "all")),
    "machine.list": (c) => c.get("/merchant/machine-list"),
    "machine.detail": async (c) => c.get(`/merchant/machine-detail?id=${(await managed()).machine}`),
    "machine.all": (c) => c.get("/merchant/machine-all"),
    "machine_channel.list": (c) => c.get("/merchant/machine-channel-list"),
    "machine_restock.list": (c) => c.get("/merchant/machine-replenishment-list"),
    "order.list": (c) => c.get("/merchant/order-list"),
    "order.detail": async (c) => c.get(`${urlOf(modelOf("order"), "detail")}?id=${(await managed()).order}`),
    "stock_consumption.list": (c) => c.get(urlOf(modelOf("stock_consumption"), "list")),
  },
};

let managing: Promise<{ shop: number; machine: number; order: number }> | undefined;
/** manager_a: an outlet manager of a new outlet of agent_a's, with a device there and an order of it. */
function managed(): Promise<{ shop: number; machine: number; order: number }> {
  managing ??= (async () => {
    const shop = Number((await fx.insertRecord("shop", "agent_a")).id);
    const machine = Number((await fx.insertRecord("machine", "agent_a", { shop_id: shop })).id);
    const order = Number((await fx.insertRecord("order", "agent_a", { machine_id: machine })).id);
    const made = await agentA.post("/merchant/shop-manager-add", {
      nickname: "Dara Kim",
      account: "manager_a",
      password: "demo123",
      confirm_password: "demo123",
      shop_ids: [shop],
    });
    expect(made.status, made.raw).toBe(200);
    return { shop, machine, order };
  })();
  return managing;
}

/** A new machine of agent_a's, bound to operator_a. */
async function boundMachine(): Promise<number> {
  const machine_id = (await fx.createRecord("machine", "agent_a")).id as number;
  await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id });
  return machine_id;
}

describe("permissions", () => {
  describe.each(Object.keys(MAY) as (keyof typeof MAY)[])("%s", (who) => {
    it("may make each call of its role, which succeeds", async () => {
      if (who === "manager_a") await managed();
      const client = await fx.client(who);
      for (const [permission, send] of Object.entries(MAY[who])) {
        expect(
          calls.some((c) => c.permission === permission),
          `${permission} is a served call`,
        ).toBe(true);
        const reply = await send(client);
        expect(reply.status, `${permission}: ${reply.raw}`).toBe(200);
      }
    });

    it("is refused every other call (403)", async () => {
      if (who === "manager_a") await managed();
      const client = await fx.client(who);
      // A saved view's calls (x-entity.scope "owner") are every signed-in user's, on their own rows
      // (saved-views.test.ts).
      const refused = calls.filter((c) => c.permission !== "signed-in" && !(c.permission in MAY[who]));
      expect(refused).toHaveLength(248 - { agent_a1: 4, operator_a: 6, manager_a: 11 }[who]);
      for (const call of refused) expect((await call.send(client)).status, call.label).toBe(403);
    });
  });

  it("agent_a1 cannot add goods or list shops", async () => {
    const a1 = await fx.client("agent_a1");
    expect((await a1.post(urlOf(modelOf("goods"), "add"), await fx.makeRecord("goods", "agent_a1"))).status).toBe(403);
    expect((await a1.get(urlOf(modelOf("shop"), "list"))).status).toBe(403);
  });

  it("agent_a1 sees its own rows but not those of its superior agent_a", async () => {
    for (const name of ["goods", "order", "machine"]) {
      const own = (await fx.createRecord(name, "agent_a1")).id;
      const superior = (await fx.createRecord(name, "agent_a")).id;
      const reply = await (
        await fx.client("agent_a1")
      ).get<ListData>(`${urlOf(modelOf(name), "list")}?id=${own},${superior}`);
      expect(
        reply.body.data.list.map((r) => r.id),
        name,
      ).toEqual([own]);
    }
  });

  it("operator_a sees only the machines bound to it, and their lanes", async () => {
    const machines = [];
    for (let i = 0; i < 3; i++) machines.push((await fx.createRecord("machine", "agent_a")).id as number);
    const [bound1, bound2, unbound] = machines;
    for (const machine_id of [bound1, bound2]) {
      await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id });
    }
    const lanes = [];
    for (const machine_id of machines)
      lanes.push((await fx.insertRecord("machine_channel", "agent_a", { machine_id })).id);

    const op = await fx.client("operator_a");
    // Every machine bound to operator_a so far (other tests bind some too), and none other.
    const { rows } = await t.db.query<{ machine_id: number }>(
      `select machine_id from "operator_binding" where operator_id = $1`,
      [t.ids.operator_a],
    );
    const allBound = rows.map((r) => Number(r.machine_id)).sort();
    expect(allBound).toEqual(expect.arrayContaining([bound1, bound2]));
    expect(allBound).not.toContain(unbound);
    const list = await op.get<ListData>(`${urlOf(modelOf("machine"), "list")}?limit=200`);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r) => r.id).sort()).toEqual(allBound);
    expect((await op.get(`${urlOf(modelOf("machine"), "detail")}?id=${bound1}`)).status).toBe(200);
    expect((await op.get(`${urlOf(modelOf("machine"), "detail")}?id=${unbound}`)).status).toBe(404);
    const picker = await op.get<Row[]>(urlOf(modelOf("machine"), "all"));
    expect(picker.body.data.map((r) => r.id).sort()).toEqual(allBound);
    expect(await fx.listed("machine_channel", "operator_a", lanes)).toEqual(lanes.slice(0, 2));
    const lane = (await fx.read("machine_channel", "agent_a", lanes[2]))!;
    // Lanes are changed by their owner; an operator only restocks them (machine-replenishment-goods).
    expect((await op.post(urlOf(modelOf("machine_channel"), "update"), { ...lane, count: 11 })).status).toBe(403);
  });

  it("agent_a cannot give a new subordinate a role with more permissions than its own", async () => {
    const { rows } = await t.db.query<{ id: number }>(`select id from "role" where level = 0`);
    const platformRole = Number(rows[0].id);
    const before = await fx.count("agent");
    const body = { ...(await fx.makeRecord("agent", "agent_a")), role_id: platformRole };
    const reply = await agentA.post(urlOf(modelOf("agent"), "add"), body);
    expect(reply.status, reply.raw).toBe(400);
    expect(errorFields(reply)).toEqual(["role_id"]);
    expect(await fx.count("agent")).toBe(before);
  });
});

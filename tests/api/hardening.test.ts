// Issue 9, the input half: every malformed input is a 400 with the envelope and translated field errors,
// never a 5xx; nested relations stay in the caller's scope; a device is bound to an operator once; the
// first save of a per-agent setting survives a race. Each case broke the server before its fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, Queryable } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { modelOf } from "../../server/model/model.ts";
import * as repo from "../../server/entities/repository.ts";
import { client, createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, urlOf, type FieldErrors, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let goodsId: number;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  admin = await fx.client("admin");
  agentA = await fx.client("agent_a");
  goodsId = (await fx.createRecord("goods", "agent_a")).id as number;
});
afterAll(() => t?.close());

/** A 400 with the envelope, naming the field, its message in the caller's language. */
function expect400(reply: Reply, field: string, script = /[A-Za-z]/) {
  expect(reply.status, reply.raw).toBe(400);
  expect(reply.body.code).toBe(400);
  const errors = (reply.body.data as FieldErrors).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  for (const error of errors) expect(error.message).toMatch(script);
}

const goods = modelOf("goods");

describe("ids out of range", () => {
  it.each(["99999999999999999999", "9223372036854775808", "-1", "0", "1.5", "1e3", "0x10", "1,,2"])(
    "?id=%s is a 400 on detail, delete and pickers",
    async (id) => {
      expect400(await agentA.get(`${urlOf(goods, "detail")}?id=${id}`), "id");
      expect400(await agentA.del(`${urlOf(goods, "delete")}?id=${id}`), "id");
      expect400(await agentA.get(`${urlOf(goods, "all")}?id=${id}`), "id");
    },
  );

  it("ids beyond int8 in a body are a 400: recover, update, transitions", async () => {
    expect400(await agentA.post(urlOf(goods, "recover"), { id: [1, 9223372036854776000] }), "id");
    expect400(await agentA.post(urlOf(goods, "update"), { id: 1e20, version: 1 }), "id");
    expect400(await admin.post("/merchant/data-withdraw-action", { id: 2 ** 63, action: "refuse" }), "id");
  });

  it("integer filters beyond int8 are a 400", async () => {
    expect400(await agentA.get(`${urlOf(goods, "list")}?unit_price_gte=99999999999999999999`), "unit_price");
    expect400(await agentA.get(`${urlOf(goods, "list")}?cate_id=9223372036854775808`), "cate_id");
  });

  it("more ids than a page holds are a 400", async () => {
    const ids = Array.from({ length: 201 }, (_, i) => i + 1).join(",");
    expect400(await agentA.del(`${urlOf(goods, "delete")}?id=${ids}`), "id");
  });
});

describe("versions", () => {
  it.each([1.5, "abc", 2 ** 40, -1])("version %s is a 400 on update, settings and transitions", async (version) => {
    const record = (await agentA.get<Row>(`${urlOf(goods, "detail")}?id=${goodsId}`)).body.data;
    expect400(await agentA.post(urlOf(goods, "update"), { ...record, version }), "version");
    expect400(await agentA.post("/merchant/goods-setting-set", { version }), "version");
    const withdrawal = await fx.createWithdrawal("agent_a");
    expect400(
      await admin.post("/merchant/data-withdraw-action", { id: withdrawal.id, action: "refuse", version }),
      "version",
    );
  });
});

describe("pages", () => {
  it.each([
    ["page=1e308", "page"],
    ["page=99999999999", "page"],
    ["page=100001", "page"],
    ["limit=1e10", "limit"],
    ["page=1&page=2", "page"],
  ])("%s is a 400", async (query, field) => {
    expect400(await agentA.get(`${urlOf(goods, "list")}?${query}`), field);
  });

  it("the last page is served", async () => {
    expect((await agentA.get(`${urlOf(goods, "list")}?page=100000&limit=200`)).status).toBe(200);
  });
});

describe("dates JavaScript takes and the database refuses", () => {
  const versions = modelOf("version");
  it.each([
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00+14:00",
    "275760-09-13T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "-103810-06-17T17:46:36.577Z",
    "2023-02-29T00:00:00Z",
    "0",
    "2024-01-01T00:00:00+25:00",
  ])("%s: a 400 as a list filter and as a field", async (value) => {
    const encoded = encodeURIComponent(value);
    expect400(await admin.get(`${urlOf(versions, "list")}?upgrade_time_gte=${encoded}`), "upgrade_time");
    expect400(await admin.get(`${urlOf(goods, "list")}?created_at_lte=${encoded}`), "created_at");
    const body = { version_number: "V9.9.9", upgrade_time: value, content: "x" };
    expect400(await admin.post(urlOf(versions, "add"), body), "upgrade_time");
  });

  it("ordinary dates and days still filter", async () => {
    const day = encodeURIComponent("2024-02-29");
    const instant = encodeURIComponent("9999-12-31T23:59:59.999Z");
    expect((await admin.get(`${urlOf(versions, "list")}?upgrade_time_gte=${day}`)).status).toBe(200);
    expect((await admin.get(`${urlOf(versions, "list")}?upgrade_time_lte=${instant}`)).status).toBe(200);
  });
});

describe("text the database cannot store", () => {
  it("a NUL in a body field, a nested field or a query is a 400 naming it, in the caller's language", async () => {
    const zh = await fx.clientIn("agent_a", "zh");
    const record = await fx.makeRecord("goods", "agent_a");
    expect400(await zh.post(urlOf(goods, "add"), { ...record, title: "a\u0000b" }), "title", /[\u4e00-\u9fff]/);
    expect400(await agentA.get(`${urlOf(goods, "list")}?title_like=%00`), "title_like");
    const plan = await fx.makeRecord("channel_plan", "agent_a");
    const channels = structuredClone(plan.channels) as Row[];
    channels[0] = { ...channels[0], ["k\u0000"]: 1 };
    expect((await agentA.post(urlOf(modelOf("channel_plan"), "add"), { ...plan, channels })).status).toBe(400);
  });

  it("a lone surrogate is a 400, in text and in a JSON document", async () => {
    const record = await fx.makeRecord("goods", "agent_a");
    const raw = JSON.stringify({ ...record, title: "PLACEHOLDER" }).replace("PLACEHOLDER", "x\\ud800");
    const reply = await t.app.inject({
      method: "POST",
      url: urlOf(goods, "add"),
      headers: { authorization: `Bearer ${agentA.token}`, "content-type": "application/json" },
      payload: raw,
    });
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json().data.errors.map((e: { field: string }) => e.field)).toEqual(["title"]);
    expect400(
      await agentA.post(urlOf(goods, "add"), { ...record, spec_attributes: [{ name: "\udc00", values: ["a"] }] }),
      "spec_attributes/0/name",
    );
  });
});

describe("messages", () => {
  it("name a field by its label, never by a translation key: an operation's hidden id is its common label", async () => {
    for (const [lng, script] of [
      ["en", /ID/],
      ["km", /[\u1780-\u17ff]/],
    ] as const) {
      const reply = await client(t.app, admin.token, lng).post<FieldErrors>("/merchant/order-refund", {
        id: "x",
        refund_money: 1,
      });
      expect(reply.status).toBe(400);
      const [error] = reply.body.data.errors;
      expect(error.field).toBe("id");
      expect(error.message).not.toMatch(/fields|label|operations/);
      expect(error.message).toMatch(/\bID\b/);
      expect(error.message).toMatch(script);
    }
  });
});

describe("bodies", () => {
  const send = (payload: string, type = "application/json") =>
    t.app.inject({
      method: "POST",
      url: urlOf(goods, "add"),
      headers: { authorization: `Bearer ${agentA.token}`, "content-type": type, locale: "th" },
      payload,
    });

  it.each([
    ["[".repeat(200_000)],
    [`${"[".repeat(40)}${"]".repeat(40)}`],
    [`{"a":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`],
  ])("nesting deeper than 32 levels is a 400 in the caller's language (%#)", async (payload) => {
    const reply = await send(payload);
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ code: 400, data: null });
    expect(reply.json().message).toMatch(/[\u0e00-\u0e7f]/);
  });

  it("brackets inside strings do not count as nesting", async () => {
    const record = await fx.makeRecord("goods", "agent_a");
    const reply = await agentA.post(urlOf(goods, "add"), { ...record, title: "[".repeat(60) });
    expect(reply.status, reply.raw).toBe(200);
  });

  it.each([
    ["no boundary", "multipart/form-data", "--x\r\n\r\n"],
    [
      "cut short",
      "multipart/form-data; boundary=x",
      '--x\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    ],
    ["empty", "multipart/form-data; boundary=x", ""],
  ])("a broken multipart upload (%s) is a 400 on file", async (_what, type, payload) => {
    const reply = await t.app.inject({
      method: "POST",
      url: "/merchant/upload?entity=goods&field=pic_url",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": type },
      payload,
    });
    expect(reply.statusCode, reply.body).toBe(400);
    expect(reply.json().data.errors.map((e: { field: string }) => e.field)).toEqual(["file"]);
  });
});

describe("scope", () => {
  it("an operator's collection records and the calls open to any account keep the operator's scope", async () => {
    const operator = await fx.client("operator_a");
    expect((await operator.get(`${urlOf(modelOf("clean_record"), "list")}`)).status).toBe(200);
    const withdrawal = await fx.createWithdrawal("agent_b");
    const reply = await operator.post("/merchant/recycle-withdraw-action", { id: withdrawal.id, action: "refuse" });
    expect(reply.status, reply.raw).toBe(404);
  });

  it("relations inside arrays are checked against the caller's scope, one query per related entity", async () => {
    const plan = await fx.makeRecord("channel_plan", "agent_a");
    const theirs = (await fx.createRecord("goods", "agent_b")).id;
    const channels = structuredClone(plan.channels) as Row[];
    expect(channels.length).toBeGreaterThan(0);
    const last = channels.length - 1;
    channels[last] = { ...channels[last], goods_id: theirs };
    const reply = await agentA.post(urlOf(modelOf("channel_plan"), "add"), { ...plan, channels });
    expect400(reply, `channels/${last}/goods_id`);
  });

  it("an operator is bound to a device once, however many binds race", async () => {
    const binding = modelOf("operator_binding");
    const body = await fx.makeRecord("operator_binding", "agent_a");
    const first = await agentA.post(urlOf(binding, "add"), body);
    expect(first.status, first.raw).toBe(200);
    expect400(await agentA.post(urlOf(binding, "add"), body), "machine_id");
    // Five first binds of another device at once (side by side on PostgreSQL's pool): one wins.
    const machine_id = (await fx.createRecord("machine", "agent_a")).id;
    const raced = await Promise.all(
      Array.from({ length: 5 }, () => agentA.post(urlOf(binding, "add"), { ...body, machine_id })),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from operator_binding where operator_id = $1 and machine_id = any($2)`,
      [body.operator_id, [body.machine_id, machine_id]],
    );
    expect(rows[0].n).toBe(2);
  });

  it("a database whose rows already break the rule is not migrated until the duplicates are gone", async () => {
    const [row] = (await t.db.query<Row>(`select * from operator_binding limit 1`)).rows;
    await t.db.query(`drop index operator_binding_operator_id_machine_id_key`);
    const { id: _id, ...copy } = row;
    await repo.insert(t.db, modelOf("operator_binding"), copy);
    await expect(migrate(t.db)).rejects.toThrow(/share \(operator_id, machine_id\)/);
    await t.db.query(`delete from operator_binding where id > $1 and operator_id = $2 and machine_id = $3`, [
      row.id,
      row.operator_id,
      row.machine_id,
    ]);
    expect((await migrate(t.db)).statements).toEqual([
      `create unique index "operator_binding_operator_id_machine_id_key" on "operator_binding" ("operator_id", "machine_id")`,
    ]);
  });
});

describe("linear cost", () => {
  /** Statements run inside transactions while fn runs (the engine's writes all run in one). */
  async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
    const db = t.db;
    const original = db.transaction;
    let count = 0;
    db.transaction = ((body: (tx: Queryable) => Promise<unknown>) =>
      original.call(db, (tx) =>
        body({
          query: (sql, params, options) => {
            count++;
            return tx.query(sql, params, options);
          },
        }),
      )) as Db["transaction"];
    try {
      await fn();
    } finally {
      db.transaction = original;
    }
    return count;
  }

  it("200 lanes naming goods cost one lookup of the goods, not one per lane", async () => {
    const plan = await fx.makeRecord("channel_plan", "agent_a");
    const lane = (plan.channels as Row[])[0];
    const channels = Array.from({ length: 200 }, (_, i) => ({ ...lane, channel_number: i + 1, goods_id: goodsId }));
    let status = 0;
    const n = await statementsOf(async () => {
      status = (await agentA.post(urlOf(modelOf("channel_plan"), "add"), { ...plan, channels })).status;
    });
    expect(status).toBe(200);
    expect(n).toBeLessThan(15);
  });

  it("deleting, recovering and destroying 150 records at once is a handful of statements", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 150; i++) ids.push((await fx.insertRecord("goods", "admin")).id as number);
    const all = ids.join(",");
    let statuses: number[] = [];
    const n = await statementsOf(async () => {
      statuses = [
        (await admin.del(`${urlOf(goods, "delete")}?id=${all}`)).status,
        // Half back out of the bin: destroying all of them is refused, since some are live again.
        (await admin.post(urlOf(goods, "recover"), { id: ids.slice(0, 75) })).status,
        (await admin.del(`${urlOf(goods, "destroy")}?id=${all}`)).status,
      ];
    });
    expect(statuses).toEqual([200, 200, 409]);
    expect(n).toBeLessThan(20);
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from sys_audit where entity = 'goods' and record_id = any($1)`,
      [ids],
    );
    expect(rows[0].n).toBe(225);
  });
});

describe("a per-agent setting's first save", () => {
  it("two at once: one is saved, the other is told the record changed (409), never a 500", async () => {
    const b = await fx.client("agent_b");
    const saves = await Promise.all([
      b.post<Row>("/merchant/goods-setting-set", { version: 0 }),
      b.post<Row>("/merchant/goods-setting-set", { version: 0 }),
      b.post<Row>("/merchant/goods-setting-set", { version: 0 }),
    ]);
    const statuses = saves.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(
      statuses.slice(1).every((s) => s === 200 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(errorFields(saves.find((r) => r.status === 409) ?? saves[0])).toEqual([]);
  });
});

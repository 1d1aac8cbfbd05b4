// The generic entity API, generated from the schemas: for every stored entity, what its x-entity calls
// and x-states allow (list paging, sorting and filters; add; update with optimistic locking; recycle
// bin; transitions; singletons; export), acting as the platform admin on a fresh database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MASK } from "../../server/entities/engine.ts";
import { models, modelOf, type EntityModel, type Field } from "../../server/model/model.ts";
import { MAX_LIMIT } from "../../server/entities/query.ts";
import { translate } from "../../server/core/i18n.ts";
import { entityNameKey } from "../../src/schema/keys.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import {
  clientField,
  editOf,
  errorFields,
  Fixtures,
  has,
  otherValueOf,
  relationOf,
  transitionBody,
  transitionsOf,
  urlOf,
  type FieldErrors,
  type ListData,
  type Row,
} from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  admin = await fx.client("admin");
});
afterAll(() => t?.close());

const tables = [...models.values()].filter((m) => m.x.storage === "table").map((m) => m.name);
const singletons = [...models.values()].filter((m) => m.x.storage === "singleton").map((m) => m.name);

/** Checks that a record shows what was sent: secrets masked or absent, hashed and unstored fields never. */
function expectShows(model: EntityModel, sent: Row, shown: Row): void {
  for (const [name, value] of Object.entries(sent)) {
    const field = model.fields.get(name)!;
    if (model.hashed.has(name) || !field.stored) expect(shown[name], name).toBeUndefined();
    else if (model.writeOnly.has(name)) expect([MASK, undefined], name).toContain(shown[name]);
    else if (field.kind === "datetime")
      expect(Date.parse(shown[name] as string), name).toBe(Date.parse(value as string));
    else expect(shown[name], name).toEqual(value);
  }
  for (const name of model.writeOnly) {
    if (typeof sent[name] === "string") expect(JSON.stringify(shown)).not.toContain(sent[name]);
  }
}

/** Three distinct values of a field, ascending. */
function ascending(field: Field): unknown[] {
  switch (field.kind) {
    case "integer":
      return [1, 2, 3];
    case "number":
      return [1.5, 2.5, 3.5];
    case "datetime":
      return ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"];
    case "date":
      return ["2026-01-01", "2026-01-02", "2026-01-03"];
    default:
      return ["alpha", "bravo", "charlie"];
  }
}

/** Two distinct values a filter on the field can tell apart. */
function twoValues(field: Field): [unknown, unknown] {
  if (field.node.enum) return [field.node.enum[0], field.node.enum[1]];
  switch (field.kind) {
    case "integer":
      return [11, 12];
    case "number":
      return [1.5, 2.5];
    case "boolean":
      return [true, false];
    case "datetime":
      return ["2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z"];
    case "date":
      return ["2026-01-01", "2026-02-01"];
    default:
      return ["Alpha-one", "Bravo-two"];
  }
}

/** An id no record has, as the relation field takes it (one id or a list). */
const missing = (model: EntityModel, field: string) =>
  model.fields.get(field)!.node.type === "array" ? [999_999] : 999_999;

const q = (value: unknown) => encodeURIComponent(String(value));
const sorted = (ids: unknown[]) => [...ids].map(Number).sort((a, b) => a - b);

// What the generated suites below cover, from the models as they are: the per-entity `if`s cannot drop
// cases unseen, a model change that removes some changes a number here.
describe("the generated cases", () => {
  it("cover 46 tables and 4 singletons, each call kind where a table has it", () => {
    expect(tables).toHaveLength(46);
    expect(singletons).toHaveLength(4);
    const of = (test: (m: EntityModel) => boolean) => tables.map(modelOf).filter(test).length;
    expect(of((m) => has(m, "add"))).toBe(30);
    expect(of((m) => has(m, "add") && m.scoped)).toBe(19);
    expect(of((m) => has(m, "update"))).toBe(31);
    expect(of((m) => has(m, "update") && m.immutable.size > 0)).toBe(6);
    expect(of((m) => has(m, "delete"))).toBe(30);
    expect(of((m) => has(m, "delete") && m.recycle)).toBe(13);
    expect(of((m) => transitionsOf(m).length > 0)).toBe(10);
    expect(of((m) => has(m, "export"))).toBe(3);
    expect(singletons.map(modelOf).filter((m) => [...m.fields.keys()].some((f) => relationOf(m, f)))).toHaveLength(1);
  });
});

describe.each(tables)("%s", (name) => {
  const model = modelOf(name);
  const list = urlOf(model, "list");

  describe("list", () => {
    let ids: number[];
    beforeAll(async () => {
      ids = [];
      for (let i = 0; i < 3; i++) ids.push((await fx.createRecord(name, "admin")).id as number);
    });

    it("pages with limit and page", async () => {
      const first = await admin.get<ListData>(`${list}?limit=2`);
      expect(first.status, first.raw).toBe(200);
      expect(first.body.data.list).toHaveLength(2);
      expect(first.body.data.total).toBeGreaterThanOrEqual(3);
      expect(first.body.data).toMatchObject({ page: 1, limit: 2 });
      const second = await admin.get<ListData>(`${list}?limit=2&page=2`);
      expect(second.body.data.page).toBe(2);
      expect(second.body.data.list.length).toBeGreaterThanOrEqual(1);
      const seen = first.body.data.list.map((r) => r.id);
      for (const row of second.body.data.list) expect(seen).not.toContain(row.id);
    });

    const sortField =
      [...model.sortable].find((f) => model.fields.get(f)?.stored && model.fields.get(f)?.kind !== "json") ?? "id";
    it(`sorts by ${sortField} both ways`, async () => {
      if (sortField !== "id") {
        // Values opposite to the ids' order, so a sort that ignored the field would show.
        const values = ascending(model.fields.get(sortField)!).reverse();
        for (const [i, id] of ids.entries()) await fx.setColumn(name, id, sortField, values[i]);
      }
      const expected = sortField === "id" ? ids : [...ids].reverse();
      const asc = await admin.get<ListData>(`${list}?id=${ids.join(",")}&sort=${sortField}&order=asc`);
      expect(asc.status, asc.raw).toBe(200);
      expect(asc.body.data.list.map((r) => r.id)).toEqual(expected);
      const desc = await admin.get<ListData>(`${list}?id=${ids.join(",")}&sort=${sortField}&order=desc`);
      expect(desc.body.data.list.map((r) => r.id)).toEqual([...expected].reverse());
    });

    for (const [field, kind] of model.filters) {
      const spec = model.fields.get(field);
      if (!spec?.stored || spec.kind === "json") continue;
      it(`filters by ${field} (${kind})`, async () => {
        // A relation filters by real records' ids: an invented id would point at whatever record gets it
        // later, and a record in use cannot be deleted for good.
        const target = relationOf(model, field);
        const [a, b] = target
          ? [(await fx.createRecord(target, "admin")).id, (await fx.createRecord(target, "admin")).id]
          : twoValues(spec);
        // Rows sharing a value of a field in a unique set must differ in its other fields.
        for (const other of new Set((model.x.unique ?? []).filter((set) => set.includes(field)).flat()))
          if (other !== field)
            for (const [i, id] of ids.entries()) {
              const target = relationOf(model, other);
              // A value of the field's own kind, one per row (a stock row's date is a day).
              const day = model.fields.get(other)?.kind === "date";
              const value = target ? (await fx.createRecord(target, "admin")).id : day ? `2026-01-${10 + i}` : 900 + i;
              await fx.setColumn(name, id, other, value);
            }
        // A value no two rows may share on its own (a device code): the second row's only contains it.
        const alone = (model.x.unique ?? []).some((set) => set.length === 1 && set[0] === field);
        if (alone && kind !== "like") throw new Error(`${name}.${field}: unique on its own, filtered ${kind}`);
        await fx.setColumn(name, ids[0], field, a);
        await fx.setColumn(name, ids[1], field, alone ? `${String(a)}9` : a);
        await fx.setColumn(name, ids[2], field, b);
        const only = `${list}?id=${ids.join(",")}&`;
        const match = async (query: string) => {
          const reply = await admin.get<ListData>(only + query);
          expect(reply.status, `${query}: ${reply.raw}`).toBe(200);
          return sorted(reply.body.data.list.map((r) => r.id));
        };
        if (kind === "like")
          expect(await match(`${field}_like=${q(String(a).slice(2, 7))}`)).toEqual(sorted(ids.slice(0, 2)));
        if (kind === "eq" || kind === "in") expect(await match(`${field}=${q(a)}`)).toEqual(sorted(ids.slice(0, 2)));
        if (kind === "in") expect(await match(`${field}=${q(a)},${q(b)}`)).toEqual(sorted(ids));
        if (kind === "range") {
          expect(await match(`${field}_gte=${q(a)}&${field}_lte=${q(a)}`)).toEqual(sorted(ids.slice(0, 2)));
          expect(await match(`${field}_gte=${q(b)}`)).toEqual(sorted(ids.slice(2)));
        }
      });
    }

    it("refuses an unknown query parameter or sort field", async () => {
      const unknown = await admin.get(`${list}?no_such_field=1`);
      expect(unknown.status).toBe(400);
      expect(errorFields(unknown)).toContain("no_such_field");
      const badSort = await admin.get(`${list}?sort=no_such_field`);
      expect(badSort.status).toBe(400);
      expect(errorFields(badSort)).toContain("sort");
    });

    it(`caps limit at ${MAX_LIMIT}`, async () => {
      const reply = await admin.get<ListData>(`${list}?limit=1000`);
      expect(reply.status).toBe(200);
      expect(reply.body.data.limit).toBe(200);
    });
  });

  if (has(model, "add")) {
    describe("add", () => {
      it("accepts a valid record and shows the same values", async () => {
        const body = await fx.makeRecord(name, "admin");
        const reply = await admin.post<Row>(urlOf(model, "add"), body);
        expect(reply.status, reply.raw).toBe(200);
        expect(reply.body.data.version).toBe(1);
        const shown = await fx.read(name, "admin", reply.body.data.id);
        expect(shown).toBeDefined();
        expectShows(model, body, shown!);
      });

      it("refuses a record without each required field, one at a time", async () => {
        const body = await fx.makeRecord(name, "admin");
        const before = await fx.count(name);
        const mustSend = (model.schema.required ?? []).filter(
          (f) => clientField(model, f) && model.fields.get(f)!.node.default === undefined,
        );
        for (const field of mustSend) {
          const { [field]: _omitted, ...rest } = body;
          const reply = await admin.post(urlOf(model, "add"), rest);
          expect(reply.status, field).toBe(400);
          expect(errorFields(reply), field).toContain(field);
        }
        expect(await fx.count(name)).toBe(before);
      });

      it("refuses a value of the wrong type", async () => {
        const body = await fx.makeRecord(name, "admin");
        const [field, value] = Object.entries(body)[0];
        const wrong = typeof value === "string" ? 12345 : "not a number";
        const reply = await admin.post(urlOf(model, "add"), { ...body, [field]: wrong });
        expect(reply.status).toBe(400);
        expect(errorFields(reply)).toContain(field);
      });

      const relations = [...model.fields.keys()].filter((f) => clientField(model, f) && relationOf(model, f));
      if (relations.length > 0) {
        it(`refuses ${relations.join(", ")} pointing at a record that does not exist`, async () => {
          const body = await fx.makeRecord(name, "admin");
          for (const field of relations) {
            const reply = await admin.post<FieldErrors>(urlOf(model, "add"), {
              ...body,
              [field]: missing(model, field),
            });
            expect(reply.status, field).toBe(400);
            expect(reply.body.data.errors).toContainEqual(expect.objectContaining({ field, keyword: "x-relation" }));
          }
        });
      }

      if (model.scoped) {
        it("gives a record added by agent_a to agent_a", async () => {
          const record = await fx.createRecord(name, "agent_a");
          const { path } = await fx.owner("agent_a");
          expect(((await fx.row(name, record.id))!.agent_path as string).startsWith(path)).toBe(true);
          // A user's own row (a saved view) is read by its owner alone, the admin too (saved-views.test.ts).
          expect(await fx.read(name, model.owned ? "agent_a" : "admin", record.id)).toBeDefined();
        });
      }
    });
  }

  if (has(model, "update")) {
    describe("update", () => {
      it("takes back the record as read with one field changed, and refuses the stale version", async () => {
        const created = await fx.createRecord(name, "admin");
        const record = (await fx.read(name, "admin", created.id))!;
        const edit = editOf(model, record);
        expect(edit, "an editable field").toBeDefined();
        const body = { ...record, [edit!.field]: edit!.value };
        const reply = await admin.post<Row>(urlOf(model, "update"), body);
        expect(reply.status, reply.raw).toBe(200);
        expect(reply.body.data.version).toBe((record.version as number) + 1);
        expect(reply.body.data[edit!.field]).toEqual(edit!.value);
        const stale = await admin.post(urlOf(model, "update"), body);
        expect(stale.status, stale.raw).toBe(409);
        expect((await fx.row(name, created.id))!.version).toBe((record.version as number) + 1);
      });

      it("refuses a field the entity does not have", async () => {
        const { id } = await fx.createRecord(name, "admin");
        const record = (await fx.read(name, "admin", id))!;
        const reply = await admin.post(urlOf(model, "update"), { ...record, no_such_field: 1 });
        expect(reply.status).toBe(400);
        expect(errorFields(reply)).toContain("no_such_field");
        expect((await fx.row(name, id))!.version).toBe(record.version);
      });

      if (model.immutable.size > 0) {
        it(`refuses a change to ${[...model.immutable].join(", ")} (x-immutable)`, async () => {
          const created = await fx.createRecord(name, "admin");
          for (const field of model.immutable) {
            const record = (await fx.read(name, "admin", created.id))!;
            const [other] = otherValueOf(model.fields.get(field)!, record[field]);
            const reply = await admin.post<FieldErrors>(urlOf(model, "update"), { ...record, [field]: other });
            expect(reply.status, field).toBe(400);
            expect(reply.body.data.errors).toContainEqual(expect.objectContaining({ field, keyword: "x-immutable" }));
            expect((await fx.row(name, created.id))![field]).toEqual(record[field]);
          }
        });
      }
    });
  }

  if (has(model, "delete")) {
    describe("delete", () => {
      if (model.recycle) {
        it("moves to the recycle bin; recover brings back; destroy from the bin removes for good", async () => {
          const { id } = await fx.createRecord(name, "admin");
          const deleted = await admin.del(`${urlOf(model, "delete")}?id=${id}`);
          expect(deleted.status, deleted.raw).toBe(200);
          expect(await fx.listed(name, "admin", [id])).toEqual([]);
          expect(await fx.listed(name, "admin", [id], true)).toEqual([id]);

          const recovered = await admin.post(urlOf(model, "recover"), { id: [id] });
          expect(recovered.status, recovered.raw).toBe(200);
          expect(await fx.listed(name, "admin", [id])).toEqual([id]);
          expect(await fx.listed(name, "admin", [id], true)).toEqual([]);

          await admin.del(`${urlOf(model, "delete")}?id=${id}`);
          const destroyed = await admin.del(`${urlOf(model, "destroy")}?id=${id}`);
          expect(destroyed.status, destroyed.raw).toBe(200);
          expect(await fx.listed(name, "admin", [id], true)).toEqual([]);
          if (has(model, "detail")) expect((await admin.get(`${urlOf(model, "detail")}?id=${id}`)).status).toBe(404);
          expect(await fx.row(name, id)).toBeUndefined();
        });

        if (model.x.unique?.length)
          it("refuses with a 409 naming it to recover a record whose unique value a live one took meanwhile", async () => {
            for (const set of model.x.unique!) {
              const binned = await fx.insertRecord(name, "admin");
              expect((await admin.del(`${urlOf(model, "delete")}?id=${binned.id}`)).status).toBe(200);
              // A live record takes the binned one's values of the set (written as SQL: some are the server's;
              // an empty one, such as the original of a copy, is given the binned record's own id on both).
              const taker = await fx.insertRecord(name, "admin");
              const row = (await fx.row(name, binned.id as number))!;
              const values = set.map((f) => row[f] ?? binned.id);
              const assign = set.map((f, i) => `"${f}" = $${i + 2}`).join(", ");
              for (const id of [binned.id, taker.id])
                await t.db.query(`update "${model.table}" set ${assign} where id = $1`, [id, ...values]);
              const reply = await admin.post(urlOf(model, "recover"), { id: [binned.id] });
              expect(reply.status, reply.raw).toBe(409);
              // Named by its title; a record without one by its kind in words, never by its id.
              const title =
                model.titleField && row[model.titleField] !== null
                  ? String(row[model.titleField])
                  : `${translate("en", entityNameKey(name))} without a name`;
              expect(reply.body.message).toContain(`“${title}” cannot be recovered: its `);
              expect(reply.body.message).not.toMatch(/#\d/);
              expect(await fx.listed(name, "admin", [binned.id as number], true)).toEqual([binned.id]);
            }
          });

        it("refuses to destroy a record that is not in the bin", async () => {
          const { id } = await fx.createRecord(name, "admin");
          const reply = await admin.del(`${urlOf(model, "destroy")}?id=${id}`);
          expect(reply.status, reply.raw).toBe(409);
          expect(await fx.listed(name, "admin", [id])).toEqual([id]);
        });
      } else {
        it("removes the record", async () => {
          const { id } = await fx.createRecord(name, "admin");
          const reply = await admin.del(`${urlOf(model, "delete")}?id=${id}`);
          expect(reply.status, reply.raw).toBe(200);
          expect(await fx.listed(name, "admin", [id])).toEqual([]);
          if (has(model, "detail")) expect((await admin.get(`${urlOf(model, "detail")}?id=${id}`)).status).toBe(404);
          expect(await fx.row(name, id)).toBeUndefined();
        });
      }

      it("takes many ids at once", async () => {
        const ids = [(await fx.createRecord(name, "admin")).id, (await fx.createRecord(name, "admin")).id];
        const reply = await admin.del<{ count: number }>(`${urlOf(model, "delete")}?id=${ids.join(",")}`);
        expect(reply.status, reply.raw).toBe(200);
        expect(reply.body.data.count).toBe(2);
        expect(await fx.listed(name, "admin", ids)).toEqual([]);
        if (model.recycle) {
          const recovered = await admin.post(urlOf(model, "recover"), { id: ids });
          expect(recovered.status).toBe(200);
          expect(sorted(await fx.listed(name, "admin", ids))).toEqual(sorted(ids));
        }
      });
    });
  }

  const transitions = transitionsOf(model);
  if (transitions.length > 0) {
    describe("transitions", () => {
      for (const { field, tr } of transitions) {
        it(`${tr.action}: ${field} ${tr.from.join("|")} → ${tr.to} (${tr.call})`, async () => {
          const { id } = await fx.createRecord(name, "admin");
          await fx.setColumn(name, id, field, tr.from[0]);
          // A transition offered only for some records (end charging on charging orders): one of those.
          for (const [other, values] of Object.entries(tr.when ?? {})) await fx.setColumn(name, id, other, values[0]);
          const url = urlOf(model, tr.call);
          const reply = await admin.post<Row>(url, transitionBody(model, tr, id));
          expect(reply.status, reply.raw).toBe(200);
          expect(reply.body.data[field]).toEqual(tr.to);
          expect((await fx.row(name, id))![field]).toEqual(tr.to);
          if (!tr.from.includes(tr.to)) {
            const again = await admin.post(url, transitionBody(model, tr, id));
            expect(again.status, again.raw).toBe(409);
          }
        });
        if (tr.when) {
          it(`${tr.action} only where ${Object.keys(tr.when).join(", ")} allows it`, async () => {
            const { id } = await fx.createRecord(name, "admin");
            await fx.setColumn(name, id, field, tr.from[0]);
            for (const [other, values] of Object.entries(tr.when!)) {
              const outside = model.fields.get(other)!.node.enum!.find((v) => !values.includes(v));
              await fx.setColumn(name, id, other, outside);
            }
            const reply = await admin.post(urlOf(model, tr.call), transitionBody(model, tr, id));
            expect(reply.status, reply.raw).toBe(409);
            expect((await fx.row(name, id))![field]).toEqual(tr.from[0]);
          });
        }
      }
    });
  }

  if (has(model, "export")) {
    it("exports the records as a CSV attachment with format=csv", async () => {
      // A file reads like the list (no record numbers): the two new records are two more lines of it.
      const rowsNow = async () => (await admin.get(`${urlOf(model, "export")}?format=csv`)).raw.split("\r\n").length;
      const before = await rowsNow();
      await fx.createRecord(name, "admin");
      await fx.createRecord(name, "admin");
      const reply = await admin.get(`${urlOf(model, "export")}?format=csv`);
      expect(reply.status).toBe(200);
      expect(String(reply.headers["content-type"])).toMatch(/^text\/csv/);
      expect(String(reply.headers["content-disposition"])).toMatch(
        /^attachment; filename="[^"]+\.csv"; filename\*=UTF-8''[^"]+\.csv$/,
      );
      expect(reply.raw.split("\r\n")).toHaveLength(before + 2);
    });
  }
});

describe.each(singletons)("%s (singleton)", (name) => {
  const model = modelOf(name);

  it("answers the defaults at version 0, stores a valid record, refuses a stale version", async () => {
    const empty = await admin.get<Row>(urlOf(model, "get"));
    expect(empty.status, empty.raw).toBe(200);
    expect(empty.body.data.version).toBe(0);
    for (const field of model.fields.values()) {
      if (field.node.default !== undefined) expect(empty.body.data[field.name], field.name).toEqual(field.node.default);
    }

    const body = await fx.makeRecord(name, "admin");
    const set = await admin.post<Row>(urlOf(model, "set"), { ...body, version: 0 });
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data.version).toBe(1);
    const stored = await admin.get<Row>(urlOf(model, "get"));
    expect(stored.body.data.version).toBe(1);
    expectShows(model, body, stored.body.data);

    const stale = await admin.post(urlOf(model, "set"), { ...body, version: 0 });
    expect(stale.status, stale.raw).toBe(409);
    expect((await admin.get<Row>(urlOf(model, "get"))).body.data.version).toBe(1);
  });

  const relations = [...model.fields.keys()].filter((f) => relationOf(model, f));
  if (relations.length > 0) {
    it(`refuses ${relations.join(", ")} pointing at a record that does not exist`, async () => {
      const current = (await admin.get<Row>(urlOf(model, "get"))).body.data;
      const body = await fx.makeRecord(name, "admin");
      for (const field of relations) {
        const reply = await admin.post<FieldErrors>(urlOf(model, "set"), {
          ...body,
          [field]: missing(model, field),
          version: current.version,
        });
        expect(reply.status, `${field}: ${reply.raw}`).toBe(400);
        expect(reply.body.data.errors).toContainEqual(expect.objectContaining({ field, keyword: "x-relation" }));
      }
      expect((await admin.get<Row>(urlOf(model, "get"))).body.data.version).toBe(current.version);
    });
  }

  it("takes back what get answered (masked secrets kept) with one field changed", async () => {
    const current = (await admin.get<Row>(urlOf(model, "get"))).body.data;
    const before = (await t.db.query<Row>(`select * from "${model.table}" where id = $1`, [current.id])).rows[0];
    const edit = editOf(model, current)!;
    const reply = await admin.post<Row>(urlOf(model, "set"), { ...current, [edit.field]: edit.value });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.version).toBe((current.version as number) + 1);
    expect(reply.body.data[edit.field]).toEqual(edit.value);
    const after = (await t.db.query<Row>(`select * from "${model.table}" where id = $1`, [current.id])).rows[0];
    for (const secret of model.writeOnly) expect(after[secret], secret).toEqual(before[secret]);
  });
});

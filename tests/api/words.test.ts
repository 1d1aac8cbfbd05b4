// No key or id shown to a person (issue 31): every declared error and every history kind, in each of the
// five languages, reads as words. Fails on any key-shaped text ("layout.modules.count", "fields.x.label",
// "actions.refund", "common:..."), a {{placeholder}} left unfilled, a field named by its column
// ("agent_id") or a record named by its id ("#3").
//   Declared errors: every message of the locales' error namespaces (errors, <entity>:errors) and of
//   validation, rendered with the placeholders the server's code gives them (read from the code: every
//   HttpError, conflict, unauthorized and fieldMessage with its key and parameters); then every operation
//   and entity call refused for missing, mistyped and unknown-record fields, and page layouts refused.
//   History kinds: every action any record's history may hold (audit.ts historyActions: record actions,
//   state actions, the domain's), each with every field of the entity changed, through the history's words.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "../../src/schema/constants.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import { resolveDefs } from "../../src/schema/refs.ts";
import { defsSchema } from "../../src/generated/schemas.ts";
import type { JsonSchemaNode } from "../../src/schema/types.ts";
import { serverI18n, translate } from "../../server/core/i18n.ts";
import { ROOT } from "../../server/core/root.ts";
import { actionLabelKey, describe as describeHistory, historyActions } from "../../server/entities/audit.ts";
import type { Ctx } from "../../server/entities/context.ts";
import { models, type EntityModel } from "../../server/model/model.ts";
import { urlOf } from "../../server/http/routes.ts";
import { unnamed } from "../../server/entities/references.ts";
import { entityNameKey } from "../../src/schema/keys.ts";
import { createTestApp, type Reply, type TestApp } from "./helper.ts";
import { Fixtures, relationOf, sampleOf, otherValueOf, type Row } from "./fixtures.ts";

/** What a person must never read, each with why. */
const NOT_WORDS: [RegExp, string][] = [
  [/\{\{|\}\}/, "a placeholder left unfilled"],
  [/(?<![A-Za-z])#\d+/, "a record's id"],
  [/\.(?:fields|label|enum|rules|actions|operations)\b|\b(?:fields|actions|enum|rules)\.[a-z]/, "a translation key"],
  [/\b(?:errors|validation|common|operations|defs|menu|permissions|[a-z]+_[a-z_]+):[a-zA-Z]/, "a namespaced key"],
  [/(?<![\w/:.@-])[a-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+){2,}(?![\w/])/, "a dotted key"],
  [/\b[a-z][a-z0-9_]*\/[a-z][a-z0-9_]*(?:\/\d+)?/, "a field's path"],
];
/** Labels and messages also never name a field by its column (agent_id): values may (a person typed them). */
const COLUMN_NAME: [RegExp, string] = [/\b[a-z]+_[a-z0-9_]+\b/, "a column's name"];

function problems(text: string, strict: boolean): string[] {
  return [...NOT_WORDS, ...(strict ? [COLUMN_NAME] : [])]
    .filter(([pattern]) => pattern.test(text))
    .map(([, why]) => `${why}: ${JSON.stringify(text)}`);
}

// ---------------------------------------------------------------- the messages the locales declare

const LOCALES = join(ROOT, "locales");

/** Every leaf of a locale file: dotted key → text. */
function leaves(value: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  else if (typeof value === "string") out.set(prefix, value);
  return out;
}

/** The declared error messages: the errors namespace, each namespace's `errors`, and validation. */
function declaredMessages(): string[] {
  const keys: string[] = [];
  for (const file of readdirSync(join(LOCALES, "en"))) {
    const ns = file.slice(0, -".json".length);
    const texts = leaves(JSON.parse(readFileSync(join(LOCALES, "en", file), "utf8")));
    for (const key of texts.keys()) {
      const plain = key.replace(/_(?:zero|one|two|few|many|other)$/, "");
      if (ns === "errors" || ns === "validation" || plain.startsWith("errors.")) keys.push(`${ns}:${plain}`);
    }
  }
  return [...new Set(keys)];
}

/** The placeholders of a text, in every language. */
function placeholders(key: string): Set<string> {
  const names = new Set<string>();
  const resources = serverI18n().store.data;
  const [ns, path] = key.split(":");
  for (const lng of LANGUAGES) {
    const texts = leaves(resources[lng]?.[ns] ?? {});
    for (const [k, text] of texts)
      if (k === path || k.startsWith(`${path}_`))
        for (const [, name] of text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)) names.add(name.split(".")[0]);
  }
  return names;
}

/** Whether the language has its own text for the key (a plural one in its plural forms). */
const declared = (key: string, lng: Language): boolean =>
  [key, `${key}_other`].some((k) => serverI18n().exists(k, { lng, fallbackLng: false }));

/** A sample value of a placeholder (a count is a number; anything else a word). */
const sample = (name: string): unknown => (/count|days|limit|free|lane/.test(name) ? 3 : "Sample");

// ---------------------------------------------------------------- the errors the server's code throws

interface ThrownError {
  where: string;
  key: string;
  /** The parameters the code gives; undefined when it spreads an object the scan cannot read. */
  params: Set<string> | undefined;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The property names of the object literal that starts at `at` (the "{"), at its first level. */
function objectKeys(source: string, at: number): Set<string> | undefined {
  let depth = 0;
  let end = at;
  for (; end < source.length; end++) {
    if ("{([".includes(source[end])) depth++;
    else if ("})]".includes(source[end]) && --depth === 0) break;
  }
  const body = source.slice(at + 1, end);
  // Only the first level: nested brackets blanked out.
  let flat = "";
  depth = 0;
  for (const ch of body) {
    if ("{([".includes(ch)) depth++;
    if (depth === 0) flat += ch;
    if ("})]".includes(ch)) depth--;
  }
  if (/\.\.\./.test(flat)) return undefined;
  return new Set([...flat.matchAll(/(?:^|,)\s*([A-Za-z_$][\w$]*)\s*(?=[:,]|$)/g)].map((m) => m[1]));
}

/** Every error the server's code throws with a message key, and any it throws whose key it cannot read. */
/** A source file's string constants (`const NS = "..."`), its own and those it imports by name from a sibling. */
function constantsOf(file: string, source: string): Map<string, string> {
  const own = (text: string) => [...text.matchAll(/const (\w+) = "([^"]+)";/g)].map((m) => [m[1], m[2]] as const);
  const constants = new Map(own(source));
  for (const [, names, from] of source.matchAll(/^import \{([^}]+)\} from "(\.{1,2}\/[^"]+\.ts)";/gm)) {
    const wanted = new Set(names.split(",").map((n) => n.trim()));
    for (const [name, value] of own(readFileSync(join(dirname(file), from), "utf8")))
      if (wanted.has(name) && !constants.has(name)) constants.set(name, value);
  }
  return constants;
}

function thrownErrors(): { found: ThrownError[]; unread: string[] } {
  const found: ThrownError[] = [];
  const unread: string[] = [];
  const calls =
    /\bnew HttpError\(\s*\d+,\s*|\b(?:conflict|unauthorized)\(\s*|\bfieldMessage\(\s*(?:[^,()]|\([^()]*\))+,\s*/g;
  for (const file of sourceFiles(join(ROOT, "server"))) {
    const source = readFileSync(file, "utf8");
    const constants = constantsOf(file, source);
    for (const call of source.matchAll(calls)) {
      const at = call.index + call[0].length;
      const line = source.slice(0, call.index).split("\n").length;
      const where = `${file.slice(ROOT.length + 1)}:${line}`;
      const rest = source.slice(at);
      if (/^(?:\)|key\b)/.test(rest)) continue; // the defaults (errors.ts) and the definition (validation.ts)
      // A choice between two keys (engine.ts: staleVersion or stateConflict): both.
      const choice = /^[^()"]*\?\s*"(\w+)"\s*:\s*"(\w+)"\s*\)/.exec(rest);
      if (choice) {
        for (const key of [choice[1], choice[2]]) found.push({ where, key: `errors:${key}`, params: new Set() });
        continue;
      }
      const literal = /^(?:"([^"]+)"|`\$\{(\w+)\}:([^`]+)`)/.exec(rest);
      if (!literal) {
        unread.push(where);
        continue;
      }
      const raw = literal[1] ?? `${constants.get(literal[2])}:${literal[3]}`;
      const key = raw.includes(":") ? raw : `errors:${raw}`;
      const after = rest.slice(literal[0].length);
      const object = /^\s*,\s*(?:ctx\.lng|lng|[\w.]+)?\s*,?\s*\{/.exec(after);
      // Parameters in a variable (place.ts: params) cannot be read here: their placeholders go unchecked.
      const named =
        /^\s*,\s*(?:ctx\.lng|lng)\s*,\s*[A-Za-z_$]/.test(after) || /^\s*,\s*[A-Za-z_$][\w$]*\s*[,)]/.test(after);
      const params = object ? objectKeys(after, object[0].length - 1) : named ? undefined : new Set<string>();
      found.push({ where, key, params });
    }
  }
  return { found, unread };
}

describe("every declared error, in five languages", () => {
  it("each message of the errors namespaces and of validation reads as words in every language", () => {
    const messages = declaredMessages();
    expect(messages.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const key of messages) {
      const params = Object.fromEntries([...placeholders(key)].map((p) => [p, sample(p)]));
      if (params.field !== undefined) params.field = "Name";
      for (const lng of LANGUAGES) {
        if (!declared(key, lng)) wrong.push(`${lng} ${key}: no text`);
        for (const problem of problems(translate(lng, key, params), false)) wrong.push(`${lng} ${key}: ${problem}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a record without a title is named by its kind in words, in a refusal's message", () => {
    const wrong: string[] = [];
    for (const model of models.values())
      for (const lng of LANGUAGES) {
        const name = unnamed(lng, model.name);
        const message = translate(lng, "errors:inUse", { title: name, uses: "x" });
        for (const problem of problems(message, true)) wrong.push(`${lng} ${model.name}: ${problem}`);
        if (!name.includes(translate(lng, entityNameKey(model.name)))) wrong.push(`${lng} ${model.name}: ${name}`);
      }
    expect(wrong).toEqual([]);
    expect(unnamed("en", "goods_sku")).toBe("Goods variant without a name");
  });

  it("each error the server's code throws has a message in every language, every placeholder given", () => {
    const { found, unread } = thrownErrors();
    expect(unread).toEqual([]);
    expect(found.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const { where, key, params } of found) {
      for (const lng of LANGUAGES) if (!declared(key, lng)) wrong.push(`${where}: ${key} has no message in ${lng}`);
      if (!params) continue;
      for (const name of placeholders(key))
        if (!params.has(name) && !(name === "count" && key.endsWith("validation")))
          wrong.push(`${where}: ${key} uses {{${name}}}, not given`);
      const values = Object.fromEntries([...params].map((p) => [p, sample(p)]));
      for (const lng of LANGUAGES)
        for (const problem of problems(translate(lng, key, values), false)) wrong.push(`${where} ${lng}: ${problem}`);
    }
    expect(wrong).toEqual([]);
  });
});

// ---------------------------------------------------------------- refusals through the API

let t: TestApp;
let fx: Fixtures;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
}, 120_000);
afterAll(() => t?.close());

const resolved = (node: JsonSchemaNode): JsonSchemaNode => resolveDefs(defsSchema, node).node;

/** A value of the wrong type for the node. */
function wrongValue(raw: JsonSchemaNode): unknown {
  const node = resolved(raw);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (type === "string") return 12345;
  if (type === "array" || type === "object") return "x";
  if (node.oneOf || node.anyOf) return { x: 1 };
  return "x";
}

/** A body with every relation pointing at a record that does not exist, the rest of the example kept. */
function unknownRecords(schema: JsonSchemaNode & { properties: Record<string, JsonSchemaNode> }, example: Row): Row {
  const body: Row = { ...example };
  for (const [name, raw] of Object.entries(schema.properties)) {
    const node = resolved(raw);
    const items = node.items && !Array.isArray(node.items) ? resolved(node.items) : undefined;
    if (node["x-relation"]) body[name] = 2_000_000_000;
    else if (items?.["x-relation"]) body[name] = [2_000_000_000];
  }
  return body;
}

/** The message and every field error of a reply, each with where it came from. */
function textsOf(reply: Reply, where: string): [string, string][] {
  const texts: [string, string][] = [[where, reply.body.message]];
  const errors = (reply.body.data as { errors?: { field: string; message: string }[] } | null)?.errors ?? [];
  for (const e of errors) texts.push([`${where} ${e.field}`, e.message]);
  return texts;
}

const query = (input: Row) =>
  Object.entries(input)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === "object" ? JSON.stringify(v) : String(v))}`,
    )
    .join("&");

describe("every call's refusals, in five languages", () => {
  it("operations: missing, mistyped and unknown-record fields are refused in words", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const lng of LANGUAGES) {
      const admin = await fx.clientIn("admin", lng);
      for (const operation of Object.values(operationSchemas)) {
        const x = operation["x-operation"];
        const names = Object.keys(operation.properties ?? {});
        // Calls that take a file, or nothing at all (logout would end the session), have nothing to refuse.
        if (x.body === "multipart" || names.length === 0) continue;
        const url = urlOf(x.basePath, operation.$id);
        const send = (input: Row) =>
          x.method === "POST"
            ? admin.post(url, input)
            : x.method === "DELETE"
              ? admin.del(`${url}?${query(input)}`)
              : admin.get(`${url}?${query(input)}`);
        const example = (operation.examples?.[0] ?? {}) as Row;
        const bodies: [string, Row][] = [
          ["nothing", {}],
          ["mistyped", Object.fromEntries(names.map((n) => [n, wrongValue(operation.properties[n])]))],
          ["unknown records", unknownRecords(operation, example)],
        ];
        for (const [what, body] of bodies) {
          if (what === "unknown records" && JSON.stringify(body) === JSON.stringify(example)) continue;
          const reply = await send(body);
          if (reply.status >= 500) wrong.push(`${lng} ${operation.$id} ${what}: ${reply.status}`);
          if (reply.status < 400) continue;
          refused++;
          for (const [where, text] of textsOf(reply, `${lng} ${operation.$id} ${what}`))
            for (const problem of problems(text, true)) wrong.push(`${where}: ${problem}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(LANGUAGES.length * 100);
  }, 300_000);

  it("entities: a record created empty, mistyped or pointing at unknown records is refused in words", async () => {
    const wrong: string[] = [];
    for (const lng of LANGUAGES) {
      const admin = await fx.clientIn("admin", lng);
      for (const model of models.values()) {
        const create = model.x.calls.add;
        if (!create) continue;
        const url = urlOf(model.x.basePath, create);
        const example = (model.schema.examples?.[0] ?? {}) as Row;
        const names = Object.keys(model.schema.properties);
        for (const [what, body] of [
          ["nothing", {}],
          ["mistyped", Object.fromEntries(names.map((n) => [n, wrongValue(model.schema.properties[n])]))],
          ["unknown records", unknownRecords(model.schema, example)],
        ] as [string, Row][]) {
          const reply = await admin.post(url, body);
          if (reply.status >= 500) wrong.push(`${lng} ${model.name} ${what}: ${reply.status}`);
          for (const [where, text] of textsOf(reply, `${lng} ${model.name} ${what}`))
            for (const problem of problems(text, true)) wrong.push(`${where}: ${problem}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it("page layouts: a module's setting out of range, a wrong cell, an unknown module are refused by the setting's name", async () => {
    const base = await fx.makeRecord("page", "agent_a");
    const layouts = [
      { modules: [{ id: "a", type: "banner", count: 99, interval: 5 }] },
      { modules: [{ id: "a", type: "grid", style: "plain", columns: 2, ratio: "2:1", items: [{ image: 5 }] }] },
      { modules: [{ id: "a", type: "banner", count: 3, interval: 3000, colour: "red" }] },
      { modules: [{ id: "a", type: "carousel" }] },
      { modules: "x" },
    ];
    const wrong: string[] = [];
    const seen: Record<string, string[]> = {};
    for (const lng of LANGUAGES) {
      const agent = await fx.clientIn("agent_a", lng);
      for (const [n, layout] of layouts.entries()) {
        const reply = await agent.post("/merchant/renovation-add", { ...base, layout });
        expect(reply.status).toBe(400);
        const texts = textsOf(reply, `${lng} layout ${n}`);
        if (lng === "en") seen[n] = texts.slice(1).map(([, text]) => text);
        for (const [where, text] of texts)
          for (const problem of problems(text, true)) wrong.push(`${where}: ${problem}`);
      }
    }
    expect(wrong).toEqual([]);
    // A banner is judged as a banner (not asked for a grid's columns), by its settings' labels.
    expect(seen[0]).toEqual(["Banners must be at most 10", "Interval (ms) must be at least 1000"]);
    expect(seen[1]).toEqual(["Image address has the wrong type"]);
    expect(seen[2]).toEqual(["colour is not a field of this form"]);
    expect(seen[3]).toEqual(["Module type has a value that is not allowed"]);
  }, 120_000);
});

// ---------------------------------------------------------------- history

/** Two values of the field, before and after, that the history shows (records for relations). */
async function changeOf(model: EntityModel, name: string): Promise<[unknown, unknown] | undefined> {
  const field = model.fields.get(name)!;
  const target = relationOf(model, name);
  if (target) {
    if (target === "agent") return [t.ids.agent_a, t.ids.agent_b];
    if (target === "role") return [t.ids.roleAgent, t.ids.roleNarrow];
    const before = await fx.insertRecord(target, "admin");
    const after = await fx.insertRecord(target, "admin");
    const list = field.node.type === "array";
    return list ? [[before.id], [before.id, after.id]] : [before.id, after.id];
  }
  if (field.kind === "json") return undefined;
  const first = sampleOf(field);
  const other = otherValueOf(field, first);
  return [first, other[0] ?? first];
}

describe("every history kind, in five languages", () => {
  it("names each action in words, each changed field by its label, records by their titles, the value before", async () => {
    const wrong: string[] = [];
    let lines = 0;
    for (const model of models.values()) {
      const changes: Record<string, [unknown, unknown]> = {};
      for (const name of model.fields.keys()) {
        if (name === "id" || name === "version") continue;
        const change = await changeOf(model, name).catch(() => undefined);
        if (change) changes[name] = change;
      }
      const actions = historyActions(model);
      for (const action of actions)
        if (!actionLabelKey(model.name, action)) wrong.push(`${model.name} ${action}: no words for the action`);
      // Oldest first: its creation, then each action with every field changed; a last binding that kept
      // only the value it set reads its "before" from the history.
      let id = 1;
      const entries = [
        { action: "create", changes: Object.fromEntries(Object.entries(changes).map(([f, [v]]) => [f, v])) },
        ...actions.filter((a) => a !== "create").map((action) => ({ action, changes })),
        {
          action: actions[actions.length - 1],
          changes: Object.fromEntries(Object.entries(changes).map(([f, [v]]) => [f, v])),
        },
      ]
        .map((e) => ({
          ...e,
          id: id++,
          at: "2026-11-28T08:00:00.000Z",
          actor_kind: "agent",
          actor_id: t.ids.agent_a,
          actor_name: null,
        }))
        .reverse();
      for (const lng of LANGUAGES) {
        const ctx = { db: t.db, lng: lng as Language } as unknown as Ctx;
        const described = await describeHistory(ctx, model, entries);
        for (const entry of described) {
          const where = `${lng} ${model.name} ${entry.action}`;
          for (const problem of problems(entry.action_label, true)) wrong.push(`${where}: ${problem}`);
          for (const problem of problems(entry.actor_name ?? "", true)) wrong.push(`${where} actor: ${problem}`);
          for (const line of entry.lines) {
            lines++;
            for (const problem of problems(line.label, true)) wrong.push(`${where} ${line.field} label: ${problem}`);
            for (const value of [line.before, line.after])
              for (const problem of problems(value ?? "", false)) wrong.push(`${where} ${line.field}: ${problem}`);
            const [before] = changes[line.field] ?? [];
            if (entry.action !== "create" && before !== null && before !== undefined && line.before === null)
              wrong.push(`${where} ${line.field}: no value before`);
          }
        }
        // Every field changed has a line (none left out for want of a label).
        const edit = described.find((e) => e.action === "update")!;
        expect(edit.lines.map((l) => l.field).sort(), `${lng} ${model.name}`).toEqual(
          Object.keys(changes)
            .filter((f) => model.schema.properties[f])
            .sort(),
        );
      }
    }
    expect(wrong.slice(0, 60)).toEqual([]);
    expect(lines).toBeGreaterThan(1000);
  }, 300_000);

  it("reads a time on the business's clock (Asia/Bangkok, UTC+7), the same in every language", async () => {
    const model = models.get("clean_record")!;
    const entries = [
      {
        id: 1,
        action: "update",
        // 05:30 and 17:45 UTC: 12:30 that day and 00:45 the next, in Bangkok.
        changes: { cleaned_at: ["2026-11-20T05:30:00.000Z", "2026-11-20T17:45:00.000Z"] },
        at: "2026-11-28T08:00:00.000Z",
        actor_kind: "agent",
        actor_id: t.ids.agent_a,
        actor_name: null,
      },
    ];
    for (const lng of LANGUAGES) {
      const ctx = { db: t.db, lng: lng as Language } as unknown as Ctx;
      const [entry] = await describeHistory(ctx, model, entries);
      expect(
        entry.lines.map((line) => [line.field, line.before, line.after]),
        lng,
      ).toEqual([["cleaned_at", "2026-11-20 12:30:00", "2026-11-21 00:45:00"]]);
    }
  });

  it("names an actor whose account is gone by its kind, each kind that signs in, in words", async () => {
    const model = models.get("shop")!;
    const wrong: string[] = [];
    for (const kind of ["agent", "operator", "manager"])
      for (const lng of LANGUAGES) {
        const ctx = { db: t.db, lng: lng as Language } as unknown as Ctx;
        const [entry] = await describeHistory(ctx, model, [
          {
            id: 1,
            at: "2026-11-28T08:00:00.000Z",
            action: "delete",
            changes: {},
            actor_kind: kind,
            actor_id: 1,
            actor_name: null,
          },
        ]);
        for (const problem of problems(entry.actor_name ?? "", true)) wrong.push(`${lng} ${kind}: ${problem}`);
        expect(entry.actor_name).toBe(translate(lng as Language, `common:history.actor.${kind}`));
      }
    expect(wrong).toEqual([]);
  });

  it("a device moved to another agent and refunded orders read names and states, before and after, in Khmer", async () => {
    const agentA = await fx.client("agent_a");
    const machine = await fx.createRecord("machine", "agent_a");
    const moved = await agentA.post("/merchant/machine-bind-manage", { id: [machine.id], agent_id: t.ids.agent_a1 });
    expect(moved.status).toBe(200);
    const km = await fx.clientIn("agent_a", "km");
    const history = await km.get<{ action_label: string; lines: { label: string; before: string; after: string }[] }[]>(
      `/merchant/record-history?entity=machine&id=${machine.id}`,
    );
    expect(history.status).toBe(200);
    const [bind] = history.body.data;
    expect(bind.action_label).toBe("បានផ្ទេរទៅភ្នាក់ងារផ្សេង");
    // The agents by their names (the helper names agent_a "agent a"), the one before included.
    expect(bind.lines).toEqual([
      {
        field: "agent_id",
        label: translate("km", "machine:fields.agent_id.label"),
        before: "agent a",
        after: "agent a1",
      },
    ]);
  });
});

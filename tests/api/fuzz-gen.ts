// Requests for every served call, generated from the OpenAPI document's input schemas with fast-check and
// then broken: wrong types, values out of bounds, unicode edge cases, missing and extra fields, huge and
// deep values, other agents' ids, malformed bodies. Shared by the fuzz suite (tests/api/fuzz.test.ts)
// and its longer run in `npm run bench`.
import fc from "fast-check";
import type { FastifyInstance, InjectOptions } from "fastify";
import openapi from "../../src/generated/openapi.json" with { type: "json" };
import { LANGUAGES } from "../../src/schema/constants.ts";
import { hashPassword } from "../../server/core/passwords.ts";
import { models } from "../../server/model/model.ts";
import { Fixtures } from "./fixtures.ts";
import type { TestApp } from "./helper.ts";

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export interface FuzzCall {
  method: "GET" | "POST" | "DELETE";
  path: string;
  /** Query parameters (GET and DELETE, and list parameters). */
  params: { name: string; schema: Schema }[];
  /** JSON body (POST), or "multipart" for the upload. */
  body?: Schema | "multipart";
}

const components = (openapi as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;

/** Every call of the OpenAPI document (which tests/api/calls.test.ts proves equal to the served routes). */
export function fuzzCalls(): FuzzCall[] {
  const calls: FuzzCall[] = [];
  const paths = (openapi as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
  for (const [path, item] of Object.entries(paths))
    for (const [method, op] of Object.entries(item)) {
      const content = op.requestBody?.content ?? {};
      calls.push({
        method: method.toUpperCase() as FuzzCall["method"],
        path,
        params: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema })),
        body: content["multipart/form-data"] ? "multipart" : content["application/json"]?.schema,
      });
    }
  return calls;
}

const deref = (schema: Schema): Schema => {
  let node = schema;
  for (let i = 0; node.$ref && i < 10; i++) {
    const { $ref, ...rest } = node;
    node = { ...components[$ref.replace("#/components/schemas/", "")], ...rest };
  }
  if (node.allOf) {
    const parts = node.allOf.map(deref);
    const { allOf: _a, ...rest } = node;
    node = {
      ...Object.assign({}, ...parts),
      ...rest,
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), rest.properties ?? {}),
      required: [...parts.flatMap((p) => p.required ?? []), ...(rest.required ?? [])],
    };
  }
  return node;
};

/** The ids the generators draw relation values from: the caller's own records, others', and none. */
export interface IdPool {
  own: number[];
  others: number[];
}

/** A valid-looking value of the schema (bounded sizes, so the breakers decide what is huge). */
export function valueOf(raw: Schema, pool: IdPool, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(raw);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valueOf(s, pool, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const num = (key: string, fallback: number) => (typeof schema[key] === "number" ? (schema[key] as number) : fallback);
  const isId = schema["x-relation"] !== undefined || (type === "integer" && schema.maximum === 9007199254740991);
  switch (type) {
    case "integer":
      if (isId) return fc.constantFrom(...pool.own, ...pool.others, 1);
      return fc.integer({ min: Math.max(num("minimum", -1000), -1e9), max: Math.min(num("maximum", 1000), 1e9) });
    case "number":
      return fc.double({ min: num("minimum", -1000), max: num("maximum", 1000), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "string":
      if (schema.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === "date") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (typeof schema.pattern === "string" && schema.pattern.length < 60)
        return fc.stringMatching(new RegExp(schema.pattern)).map((s) => s.slice(0, num("maxLength", 64)));
      return fc.string({ minLength: num("minLength", 0), maxLength: Math.min(num("maxLength", 20), 20) });
    case "array":
      if (depth > 3) return fc.constant([]);
      return fc.array(valueOf(schema.items ?? {}, pool, depth + 1), {
        minLength: Math.min(num("minItems", 0), 3),
        maxLength: Math.min(num("maxItems", 3), 3),
      });
    case "object": {
      if (depth > 3 || !schema.properties) return fc.constant({});
      const props = schema.properties;
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueOf(s, pool, depth + 1)])), {
        requiredKeys: (schema.required ?? []).filter((k) => k in props),
      });
    }
    default:
      return fc.constantFrom(1, "x", null);
  }
}

const deep = (n: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

/** Values that have broken servers: wrong types, out of range, edge unicode, dates the database refuses. */
export const EVIL: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  -0.5,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  1e20,
  -1e20,
  1e308,
  "",
  " ",
  "x".repeat(70_000),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00",
  "😀",
  "\u202e\u0301",
  "\uffff",
  "0000-01-01",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "275760-09-13T00:00:00Z",
  "+275760-09-13",
  "2020-02-30",
  "9999-12-31T23:59:59-12:00",
  "2024-01-01T00:00:00.12345678901234567890Z",
  "0",
  "1e3",
  "99999999999999999999",
  "-0",
  "NaN",
  "Infinity",
  "' or 1=1 --",
  "%_\\",
  [],
  {},
  [1, 2, 3],
  Array.from({ length: 3000 }, (_, i) => i + 1),
  Array.from({ length: 300 }, () => ({ a: 1 })),
  deep(20),
  deep(200),
  { constructor: { prototype: { polluted: 1 } } },
];

export interface FuzzRequest {
  call: FuzzCall;
  options: InjectOptions;
  lng: string;
  /** Whether the request was built to be well-formed (a 400 is then still fine: the data may not fit). */
  label: string;
}

type Mutation = (value: unknown) => fc.Arbitrary<unknown>;

/** Replaces the value at a random path (the root included) with an evil one or another agent's id. */
function mutateAt(value: unknown, replacement: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const paths: (string | number)[][] = [[]];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (path.length > 4) return;
    const children: [string | number, unknown][] = Array.isArray(v)
      ? v.slice(0, 3).map((item, i) => [i, item])
      : v && typeof v === "object"
        ? Object.entries(v)
        : [];
    for (const [key, item] of children) {
      paths.push([...path, key]);
      walk(item, [...path, key]);
    }
  };
  walk(value, []);
  return fc.tuple(fc.constantFrom(...paths), replacement).map(([path, evil]) => {
    if (path.length === 0) return evil;
    const copy = structuredClone(value) as Record<string | number, unknown>;
    let node = copy;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[path[path.length - 1]] = evil;
    return copy;
  });
}

function breakers(pool: IdPool): Mutation[] {
  const evil = fc.oneof(fc.constantFrom(...EVIL), fc.constantFrom(...pool.others));
  return [
    (v) => fc.constant(v), // as generated
    (v) => mutateAt(v, evil),
    (v) => mutateAt(v, evil).chain((w) => mutateAt(w, evil)),
    (v) =>
      // a field missing
      fc.constant(v).chain((w) => {
        const keys = w && typeof w === "object" && !Array.isArray(w) ? Object.keys(w) : [];
        if (!keys.length) return fc.constant(w);
        return fc.constantFrom(...keys).map((k) => {
          const { [k]: _gone, ...rest } = w as Record<string, unknown>;
          return rest;
        });
      }),
    (v) =>
      fc
        .tuple(fc.constantFrom("extra", "agent_id", "agent_path", "deleted_at", "version", "__proto__", "id"), evil)
        .map(([k, e]) => (v && typeof v === "object" && !Array.isArray(v) ? { ...v, [k]: e } : { [k]: e })),
  ];
}

/** A query-string value as clients write it; lone surrogates travel as invalid UTF-8. */
function encode(value: unknown): string {
  const text =
    typeof value === "string"
      ? value
      : Array.isArray(value) && value.every((v) => typeof v !== "object")
        ? value.join(",")
        : typeof value === "object" && value !== null
          ? JSON.stringify(value)
          : String(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .replace(/[\ud800-\udfff]/g, "\u0001")
      .split("\u0001")
      .map(encodeURIComponent)
      .join("%ED%A0%80");
  }
}

const RAW_QUERIES = [
  "page=1e308",
  "page=99999999999",
  "limit=1e10",
  "page=-1&limit=0",
  "id=%00",
  "id=%ED%A0%80",
  "%=%",
  "sort=id,id,id,id&order=asc",
  "id=1,2,,3",
  "id[]=1&id[]=2",
  "id=1&id=2",
];
const RAW_BODIES = [
  "[".repeat(100_000),
  `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  `{"a":${'{"a":'.repeat(2_000)}1${"}".repeat(2_000)}}`,
  "{",
  '{"id": 1,}',
  '"just a string"',
  "null",
  '{"__proto__": {"polluted": 1}}',
  '{"id": 1e400}',
  '{"title": "\\ud800"}',
  '{"title": "a\\u0000b"}',
];

/** One request for a call, as one principal: generated from its schema, then (usually) broken. */
export function requestOf(call: FuzzCall, pool: IdPool): fc.Arbitrary<FuzzRequest> {
  const lng = fc.constantFrom(...LANGUAGES);
  const headers = (language: string, extra: Record<string, string> = {}) => ({
    locale: language,
    source: "pc",
    ...extra,
  });
  const mutations = breakers(pool);
  const mutate = (arb: fc.Arbitrary<unknown>) =>
    fc.tuple(arb, fc.integer({ min: 0, max: mutations.length - 1 })).chain(([v, i]) => mutations[i](v));

  if (call.body === "multipart") {
    const boundary = "----fuzz";
    const parts = [
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`,
      `--${boundary}\r\ncontent-disposition: form-data; name="file"\r\n\r\nabc\r\n--${boundary}--\r\n`,
      `--${boundary}\r\n\r\n`,
      "not multipart at all",
      "",
    ];
    return fc
      .tuple(
        lng,
        fc.constantFrom(...parts),
        fc.constantFrom(`multipart/form-data; boundary=${boundary}`, "multipart/form-data", "application/json"),
        fc.constantFrom("entity=goods&field=pic_url", "entity=nope&field=x", "entity=goods&field=%00", ""),
      )
      .map(([language, payload, type, query]) => ({
        call,
        lng: language,
        label: "multipart",
        options: {
          method: "POST",
          url: `${call.path}?${query}`,
          headers: headers(language, { "content-type": type }),
          payload,
        },
      }));
  }

  const queryArb = call.params.length
    ? mutate(
        fc.record(Object.fromEntries(call.params.map((p) => [p.name, valueOf(p.schema, pool)])), { requiredKeys: [] }),
      )
    : fc.constant({});
  const query = fc.oneof(
    {
      weight: 5,
      arbitrary: queryArb.map((q) =>
        q && typeof q === "object" && !Array.isArray(q)
          ? Object.entries(q)
              .map(([k, v]) => `${encode(k)}=${encode(v)}`)
              .join("&")
          : `q=${encode(q)}`,
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
  const body =
    call.body && call.method === "POST"
      ? fc.oneof(
          { weight: 6, arbitrary: mutate(valueOf(call.body, pool)).map((v) => JSON.stringify(v) ?? "null") },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
        )
      : fc.constant(undefined);
  return fc.tuple(lng, query, body).map(([language, q, payload]) => ({
    call,
    lng: language,
    label: payload === undefined ? `?${q.slice(0, 120)}` : payload.slice(0, 120),
    options: {
      method: call.method,
      url: q ? `${call.path}?${q}` : call.path,
      headers: headers(language, payload === undefined ? {} : { "content-type": "application/json" }),
      ...(payload === undefined ? {} : { payload }),
    },
  }));
}

/** The scripts of the languages: a translated message holds at least one character of its script. */
export const SCRIPT: Record<string, RegExp> = {
  en: /[A-Za-z]/,
  zh: /[\u4e00-\u9fff]/,
  tw: /[\u4e00-\u9fff]/,
  th: /[\u0e00-\u0e7f]/,
  km: /[\u1780-\u17ff]/,
};

/** A translation key where a text belongs ("operations.order-refund.fields.id.label", "errors:busy"). */
export const RAW_KEY = /\.(?:fields|label|enum|rules)\b|\b(?:errors|validation|common|operations):[a-z]/;

export interface Outcome {
  status: number;
  problem?: string;
}

/** Sends one request and judges the answer: 2xx, or a 4xx with the envelope; never a 5xx, never a hang. */
export async function judge(
  app: FastifyInstance,
  request: FuzzRequest,
  token: string,
  timeoutMs = 15_000,
): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), timeoutMs)));
  const options = { ...request.options, headers: { ...request.options.headers, authorization: `Bearer ${token}` } };
  const response = await Promise.race([app.inject(options), hung]);
  clearTimeout(timer);
  const what = `${request.options.method} ${String(request.options.url).slice(0, 160)} [${request.label}]`;
  if (response === "hung") return { status: 0, problem: `${what}: no answer within ${timeoutMs} ms` };
  const status = response.statusCode;
  if (status >= 200 && status < 300) return { status };
  let body: { code?: unknown; message?: unknown; data?: { errors?: { field?: unknown; message?: unknown }[] } | null };
  try {
    body = response.json();
  } catch {
    return { status, problem: `${what}: ${status} without a JSON envelope: ${response.body.slice(0, 200)}` };
  }
  if (status >= 500) return { status, problem: `${what}: ${status} ${response.body.slice(0, 300)}` };
  if (body.code !== status || typeof body.message !== "string" || body.message === "")
    return { status, problem: `${what}: ${status} with a broken envelope ${response.body.slice(0, 200)}` };
  if (!SCRIPT[request.lng].test(body.message))
    return { status, problem: `${what}: message not in ${request.lng}: ${body.message}` };
  if (RAW_KEY.test(body.message))
    return { status, problem: `${what}: a translation key in the message: ${body.message}` };
  if (status === 400 && body.data?.errors) {
    for (const error of body.data.errors)
      if (
        typeof error.field !== "string" ||
        typeof error.message !== "string" ||
        !SCRIPT[request.lng].test(error.message) ||
        RAW_KEY.test(error.message)
      )
        return { status, problem: `${what}: field error not in ${request.lng}: ${JSON.stringify(error)}` };
  }
  return { status };
}

export const PRINCIPALS = ["admin", "agent_a", "operator_a", "manager_a"] as const;
type Principal = (typeof PRINCIPALS)[number];

/**
 * Records of every scoped kind for agent_b (ids the others may not use) and for agent_a (their own), and
 * manager_a, agent_a's outlet manager of one of its outlets.
 */
export async function fuzzPool(t: TestApp): Promise<IdPool> {
  const fx = new Fixtures(t);
  const pool: IdPool = { own: [], others: [] };
  for (const model of models.values()) {
    if (!model.scoped || model.singleton) continue;
    for (const [owner, into] of [
      ["agent_b", pool.others],
      ["agent_a", pool.own],
    ] as const) {
      try {
        into.push((await fx.createRecord(model.name, owner)).id as number);
      } catch {
        // a kind the fixtures cannot make on its own: the other kinds' ids stand in
      }
    }
  }
  const outlet = (await fx.createRecord("shop", "agent_a")).id as number;
  await fx.outletManager([outlet]);
  return pool;
}

export interface FuzzReport {
  sent: number;
  statuses: Map<number, number>;
  problems: string[];
  calls: number;
  ms: number;
}

/**
 * Sends perCall requests per call and principal, judged one by one. The same seed sends the same requests.
 * The admin may change a principal's password or recycle its account on the way: it is then put back.
 */
export async function runFuzz(t: TestApp, pool: IdPool, perCall: number, seed: number): Promise<FuzzReport> {
  const start = performance.now();
  const tokens = new Map<Principal, string>();
  const signIn = async (who: Principal): Promise<string> => {
    const token = tokens.get(who);
    if (token) {
      const check = await t.app.inject({
        method: "GET",
        url: "/merchant/user-info",
        headers: { authorization: `Bearer ${token}` },
      });
      if (check.statusCode === 200) return token;
      const password = await hashPassword(who === "admin" ? "admin123" : "demo123");
      for (const table of ["agent", "operator", "shop_manager"])
        await t.db.query(`update "${table}" set password = $1, deleted_at = null where account = $2`, [password, who]);
    }
    // The fuzzed sign-ins fail by the hundred from one address: the throttle would lock the principals out.
    await t.db.query(`delete from sys_login_throttle`);
    return (await t.as(who)).token;
  };
  for (const who of PRINCIPALS) tokens.set(who, await signIn(who));
  const calls = fuzzCalls();
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  for (const [i, call] of calls.entries()) {
    const requests = fc.sample(requestOf(call, pool), { seed: seed + i, numRuns: perCall * PRINCIPALS.length });
    for (const [j, request] of requests.entries()) {
      const who = PRINCIPALS[j % PRINCIPALS.length];
      const outcome = await judge(t.app, request, tokens.get(who)!);
      sent++;
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.problem) problems.push(`${who}: ${outcome.problem}`);
      // A sign-out, a password change or an account's deletion ends the session: sign in again.
      if (outcome.status === 401 || (outcome.status === 200 && /logout|password|manage|operator/.test(call.path)))
        tokens.set(who, await signIn(who));
    }
  }
  return { sent, statuses, problems, calls: calls.length, ms: performance.now() - start };
}

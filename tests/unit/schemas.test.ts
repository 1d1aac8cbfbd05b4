// Every entity schema compiles with ajv in strict mode, accepts its own example, and rejects the
// example broken in each way its rules forbid; plus the SPEC section 5 rules case by case.
import { describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv";
import { createAjv } from "../../src/schema/ajv.ts";
import { defsSchema, documentSchemas, entitySchemas } from "../../src/generated/schemas.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import type { JsonSchemaEntity, JsonSchemaNode } from "../../src/schema/types.ts";
import { resolve as resolvePath } from "node:path";
import { resolveRef } from "../../codegen/keys.ts";
import { lintProject } from "../../codegen/lint.ts";
import { REFUNDABLE_STATES } from "../../src/schema/groups.ts";
import { loadProject } from "../../codegen/load.ts";
import type { EntitySchema } from "../../codegen/model.ts";

const ajv = createAjv([
  defsSchema,
  ...documentSchemas,
  ...Object.values(entitySchemas),
  ...Object.values(operationSchemas),
]);
const validatorOf = (entity: string) => ajv.getSchema(entity)!;
const clone = <T>(value: T): T => structuredClone(value);
const resolve = (node: JsonSchemaNode) => resolveRef({ defs: defsSchema }, node).node;

function errorsOf(entity: string, data: unknown): ErrorObject[] {
  const validate = validatorOf(entity);
  return validate(data) ? [] : (validate.errors ?? []);
}

/** Where an error points: the field it names (required) or the path it sits at. */
const fieldOf = (e: ErrorObject) =>
  e.keyword === "required"
    ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`
    : e.instancePath;

/** Entities and operations alike: each input schema keeps the rules it declares. */
const entries = [...Object.entries(entitySchemas), ...Object.entries(operationSchemas)] as [string, JsonSchemaEntity][];
const exampleOf = (schema: JsonSchemaEntity) => schema.examples![0] as Record<string, unknown>;

/** Each required field of each schema: the example without it must be refused on that field. */
const requiredCases = entries.flatMap(([name, schema]) =>
  (schema.required ?? []).map((field) => [name, field] as const),
);

/**
 * Each money, fraction and enum field with the broken values it must refuse. Money is whole minor
 * units; a balance is never negative (a ledger change may be).
 */
const brokenCases = entries.flatMap(([name, schema]) =>
  Object.entries(schema.properties).flatMap(([field, raw]) => {
    const node = resolve(raw);
    const values: unknown[] = [];
    if (node["x-money"]) values.push(1.5, "12.00", ...((node.minimum ?? 0) >= 0 ? [-1] : []));
    if (node["x-fraction"]) values.push(1.5, -0.1, "6%");
    if (node.enum) values.push("__not_a_value__");
    return values.map((value) => [name, field, value] as const);
  }),
);

/** Each cross-field rule (x-compare) with the schema that declares it. */
const compareCases = entries.flatMap(([name, schema]) =>
  (schema["x-compare"] ?? []).map((rule) => [name, rule] as const),
);

const schemasIn = (cases: readonly (readonly [string, ...unknown[]])[]) => new Set(cases.map(([name]) => name)).size;

// The numbers come from the schemas as they are: a change that removes cases changes a number here.
describe("the generated cases", () => {
  it("cover 46 tables, 4 singletons and 96 operations", () => {
    const storage = Object.values(entitySchemas).map((schema) => schema["x-entity"].storage);
    expect(storage.filter((s) => s === "table")).toHaveLength(46);
    expect(storage.filter((s) => s === "singleton")).toHaveLength(4);
    expect(Object.keys(operationSchemas)).toHaveLength(96);
    expect(entries).toHaveLength(146);
  });

  it("refuse 253 missing required fields in 94 schemas", () => {
    expect(requiredCases).toHaveLength(253);
    expect(schemasIn(requiredCases)).toBe(94);
  });

  it("refuse 263 broken money, fraction and enum values in 51 schemas", () => {
    expect(brokenCases).toHaveLength(263);
    expect(schemasIn(brokenCases)).toBe(51);
    expect(brokenCases.filter(([, , value]) => value === "12.00")).toHaveLength(52);
    expect(brokenCases.filter(([, , value]) => value === "6%")).toHaveLength(6);
    expect(brokenCases.filter(([, , value]) => value === "__not_a_value__")).toHaveLength(92);
  });

  it("break 8 cross-field rules in 8 schemas", () => {
    expect(compareCases).toHaveLength(8);
    expect(schemasIn(compareCases)).toBe(8);
  });
});

describe.each(entries)("schema %s", (name, schema) => {
  it("compiles in strict mode and accepts its example", () => {
    expect(errorsOf(name, exampleOf(schema))).toEqual([]);
  });

  it("rejects unknown fields (no mass assignment)", () => {
    const errors = errorsOf(name, { ...exampleOf(schema), injected_owner: 1 });
    expect(errors.some((e) => e.keyword === "additionalProperties")).toBe(true);
  });
});

describe.each(requiredCases)("schema %s", (name, field) => {
  it(`rejects its example without ${field}`, () => {
    const broken = clone(exampleOf(entries.find(([n]) => n === name)![1]));
    delete broken[field];
    expect(errorsOf(name, broken).map(fieldOf)).toContain(`/${field}`);
  });
});

describe.each(brokenCases)("schema %s", (name, field, value) => {
  it(`rejects ${field} = ${JSON.stringify(value)}`, () => {
    const example = exampleOf(entries.find(([n]) => n === name)![1]);
    expect(errorsOf(name, { ...example, [field]: value }).map((e) => e.instancePath)).toContain(`/${field}`);
  });
});

describe.each(compareCases)("schema %s", (name, rule) => {
  it(`puts a violation of ${rule.name} on ${rule.field}`, () => {
    const example = exampleOf(entries.find(([n]) => n === name)![1]);
    const other = example[rule.other];
    // Each rule must be exercised: the example carries both of its fields.
    expect(other, `example of ${name} lacks ${rule.other}`).toBeDefined();
    expect(example[rule.field], `example of ${name} lacks ${rule.field}`).toBeDefined();
    const violating: Record<string, unknown> = {
      eq: typeof other === "string" ? `${other}x` : (other as number) + 1,
      ne: other,
      lt: other,
      lte: (other as number) + 1,
      gt: other,
      gte: (other as number) - 1,
    };
    const errors = errorsOf(name, { ...example, [rule.field]: violating[rule.op] });
    const hit = errors.find((e) => e.keyword === "x-compare" && e.instancePath === `/${rule.field}`);
    expect(hit?.params, `${name} ${rule.name}`).toMatchObject({ rule: rule.name, entity: name });
  });
});

describe("SPEC section 5 rules", () => {
  const example = (name: string) =>
    clone(
      (entitySchemas[name as keyof typeof entitySchemas] ?? operationSchemas[name as keyof typeof operationSchemas])
        .examples![0],
    ) as Record<string, unknown>;
  const valid = (entity: string, data: unknown) => errorsOf(entity, data).length === 0;

  it("new password must equal confirm password", () => {
    const change = example("modify-password");
    expect(valid("modify-password", change)).toBe(true);
    const errors = errorsOf("modify-password", { ...change, confirm_password: "different-1" });
    expect(errors.map((e) => [e.keyword, e.instancePath])).toEqual([["x-compare", "/confirm_password"]]);
    expect(valid("agent", { ...example("agent"), confirm_password: "nope-nope" })).toBe(false);
  });

  it("login needs account and password", () => {
    expect(errorsOf("login", {}).map(fieldOf).sort()).toEqual(["/account", "/password"]);
  });

  it("deposit is 0 to 99 yuan", () => {
    const plan = example("deposit_plan");
    expect(valid("deposit_plan", { ...plan, deposit: 0 })).toBe(true);
    expect(valid("deposit_plan", { ...plan, deposit: 9900 })).toBe(true);
    expect(valid("deposit_plan", { ...plan, deposit: 9901 })).toBe(false);
    expect(valid("deposit_plan", { ...plan, deposit: -100 })).toBe(false);
  });

  it("withdraw fee and discounts are fractions", () => {
    const settings = example("system_setting");
    expect(valid("system_setting", { ...settings, withdraw_fee: 0.06 })).toBe(true);
    expect(valid("system_setting", { ...settings, withdraw_fee: 6 })).toBe(false);
    const goodsSettings = example("goods_setting");
    expect(valid("goods_setting", { ...goodsSettings, two_discount: 0.5 })).toBe(true);
    expect(valid("goods_setting", { ...goodsSettings, two_discount: 50 })).toBe(false);
  });

  it("goods with specs need a spec name and price", () => {
    const goods = example("goods");
    const { spec_name: _name, ...withoutName } = goods;
    expect(errorsOf("goods", withoutName).map(fieldOf)).toContain("/spec_name");
    expect(valid("goods", { ...withoutName, open_spec: 0 })).toBe(true);
  });

  it("a bank transfer needs the bank details", () => {
    const withdrawal = example("withdrawal");
    const bank: Record<string, unknown> = { ...withdrawal, payout_method: "bank_transfer" };
    for (const field of ["bank_name", "account_number"]) delete bank[field];
    expect(errorsOf("withdrawal", bank).map(fieldOf)).toEqual(
      expect.arrayContaining(["/bank_name", "/account_number"]),
    );
  });

  it("a lane cannot hold more than its capacity", () => {
    const lane = example("machine_channel");
    expect(
      errorsOf("machine_channel", { ...lane, left: (lane.count as number) + 1 }).map((e) => e.instancePath),
    ).toEqual(["/left"]);
  });

  it("uploads carry their rules: images compress toward 800 KB, music is mp3 only", () => {
    const image = resolve({ $ref: "defs#/definitions/image" });
    expect(image["x-upload"]).toMatchObject({ maxBytes: 20 * 1024 * 1024, compressTo: 800 * 1024 });
    const music = resolve(entitySchemas.system_setting.properties.bg_music);
    expect(music["x-upload"]?.accept).toEqual(["audio/mpeg"]);
  });
});

describe("page layout document (generated from TypeScript)", () => {
  const layout = (modules: unknown[]) => ({ ...(entitySchemas.page.examples![0] as object), layout: { modules } });

  it("accepts a well-formed layout", () => {
    const modules = [
      { id: "b1", type: "banner", count: 3, interval: 4000 },
      { id: "g1", type: "grid", columns: 3, style: "three_grid", ratio: "4:5", items: [{ image: "/a.png" }] },
      { id: "p1", type: "goods", columns: 2, showPrice: true },
    ];
    expect(errorsOf("page", layout(modules))).toEqual([]);
  });

  it("rejects unknown modules and out-of-range columns", () => {
    expect(errorsOf("page", layout([{ id: "x", type: "video" }])).length).toBeGreaterThan(0);
    expect(errorsOf("page", layout([{ id: "p1", type: "goods", columns: 4, showPrice: true }])).length).toBeGreaterThan(
      0,
    );
    expect(
      errorsOf("page", layout([{ id: "p1", type: "goods", columns: 1.5, showPrice: true }])).length,
    ).toBeGreaterThan(0);
  });
});

describe("bounds: no input can hold the server (issue 9)", () => {
  /** Every node of a schema that takes input: answers describe what the server sends and are skipped. */
  function* nodes(node: unknown, path: string): Generator<[string, JsonSchemaNode]> {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) yield* nodes(child, `${path}/${i}`);
      return;
    }
    if (!node || typeof node !== "object") return;
    const schema = node as JsonSchemaNode;
    if (typeof schema.type === "string" || Array.isArray(schema.type)) yield [path, schema];
    for (const [key, child] of Object.entries(schema)) {
      if (key === "x-operation" || key === "examples" || key === "default" || key === "enum" || key === "const")
        continue;
      yield* nodes(child, `${path}/${key}`);
    }
  }
  const all: [string, unknown][] = [
    ["defs", defsSchema],
    ...documentSchemas.map((s) => [String(s.$id), s] as [string, unknown]),
    ...entries,
  ];
  const typeOf = (node: JsonSchemaNode) => (Array.isArray(node.type) ? node.type : [node.type]);

  it("bounds every string (maxLength, or enum/const) and every array (maxItems)", () => {
    const unbounded: string[] = [];
    for (const [name, schema] of all)
      for (const [path, raw] of nodes(schema, name)) {
        const node = { ...resolve(raw), ...raw };
        if (typeOf(node).includes("string") && node.maxLength === undefined && !node.enum && node.const === undefined)
          unbounded.push(`${path}: string without maxLength`);
        if (typeOf(node).includes("array") && node.maxItems === undefined)
          unbounded.push(`${path}: array without maxItems`);
      }
    expect(unbounded).toEqual([]);
  });

  it("checks uniqueItems in linear time: no validator compares items pairwise", () => {
    // ajv hashes the items when they declare a scalar type inline, and otherwise compares every pair
    // (a labelled nested loop, `break outer`): 200 ids cost 20,000 deep comparisons, 20,000 cost 2e8.
    const withSource = createAjv(
      [defsSchema, ...documentSchemas, ...Object.values(entitySchemas), ...Object.values(operationSchemas)],
      { code: { source: true } },
    );
    type Compiled = {
      source?: { validateCode: string; scopeValues: Record<string, Map<string, { value?: { ref?: unknown } }>> };
    };
    /** The code of a validator and of every validator it calls (a $ref into defs is a function of its own). */
    const codeOf = (f: Compiled | undefined, seen = new Set<unknown>()): string[] => {
      if (!f || seen.has(f)) return [];
      seen.add(f);
      const called = Object.values(f.source?.scopeValues ?? {}).flatMap((values) => [...values.values()]);
      return [f.source?.validateCode ?? "", ...called.flatMap((v) => codeOf(v.value?.ref as Compiled, seen))];
    };
    const quadratic: string[] = [];
    for (const [name] of entries) {
      const code = codeOf(withSource.getSchema(name) as unknown as Compiled);
      expect(code.join("").length, name).toBeGreaterThan(0);
      if (code.some((c) => /break outer\d+/.test(c))) quadratic.push(name);
    }
    expect(quadratic).toEqual([]);
  });

  it("the meta-schema refuses an unbounded string, an unbounded array and a pairwise uniqueItems", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    const goods = structuredClone(project.entities.find((e) => e.$id === "goods")!);
    Object.assign(goods.properties, {
      free_text: { type: "string" },
      free_list: { type: "array", items: { type: "integer", minimum: 0, maximum: 5 } },
      pairwise: { type: "array", maxItems: 5, uniqueItems: true, items: { $ref: "defs#/definitions/id" } },
      named: { type: "string", enum: ["a", "b"] },
    });
    const problems = lintProject({ ...project, entities: project.entities.map((e) => (e.$id === "goods" ? goods : e)) })
      .filter((p) => p.file === "schemas/goods.json")
      .map((p) => `${p.path}: ${p.message}`);
    expect(problems).toEqual([
      "/properties/free_text: must have required property 'maxLength'",
      "/properties/free_list: must have required property 'maxItems'",
      "/properties/pairwise/items: must have required property 'type'",
    ]);
  });
});

describe("the codegen lint of an account's sign-in", () => {
  it("refuses a permission that no call declares, and a switch the account does not have that no call declares, and a switch it does not have", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    const operator = structuredClone(project.entities.find((e) => e.$id === "operator")!);
    operator["x-entity"].signIn = {
      permissions: ["machine.list", "machine.lists"],
      whileOn: { refill: ["machine.replenish"], refil: ["machine.replenish", "machine.delete_all"] },
    };
    const problems = lintProject({
      ...project,
      entities: project.entities.map((e) => (e.$id === "operator" ? operator : e)),
    })
      .filter((p) => p.file === "schemas/operator.json")
      .map((p) => `${p.file} ${p.path}: ${p.message}`);
    expect(problems).toEqual([
      'schemas/operator.json /x-entity/signIn/permissions/1: no permission "machine.lists"',
      'schemas/operator.json /x-entity/signIn/whileOn/refil: no property "refil"',
      'schemas/operator.json /x-entity/signIn/whileOn/refil/1: no permission "machine.delete_all"',
    ]);
  });
});

describe("the codegen lint of value groups (x-groups)", () => {
  it("refuses a group value the field does not have, and a when listing states that are no declared group", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    const order = structuredClone(project.entities.find((e) => e.$id === "order")!);
    order.properties.pay_status["x-groups"]!.refundable = ["paid", "refund_requested", "partly_refunded"];
    const refund = structuredClone(project.operations.find((o) => o.$id === "order-refund")!);
    refund["x-operation"].ui!.when = { pay_status: ["paid", "refund_requested"] };
    const problems = lintProject({
      ...project,
      entities: project.entities.map((e) => (e.$id === "order" ? order : e)),
      operations: project.operations.map((o) => (o.$id === "order-refund" ? refund : o)),
    })
      .filter((p) =>
        ["schemas/order.json", "schemas/operations/order-refund.json", "schemas/operations/order-check.json"].includes(
          p.file,
        ),
      )
      .map((p) => `${p.file} ${p.path}: ${p.message}`);
    expect(problems).toEqual([
      'schemas/order.json /properties/pay_status/x-groups/refundable/2: "partly_refunded" is not a value of "pay_status"',
      'schemas/operations/order-refund.json /x-operation/ui/when/pay_status: lists several values of "pay_status" that are none of its x-groups: name the set there',
    ]);
  });

  it("accepts the schemas as they are: the refund offered on the refundable group, the check on one state", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    expect(lintProject(project).filter((p) => p.message.includes("x-groups"))).toEqual([]);
    expect(project.operations.find((o) => o.$id === "order-refund")!["x-operation"].ui!.when).toEqual({
      pay_status: [...REFUNDABLE_STATES],
    });
  });
});

/** The codegen lint's problems in the device schema's file, once `change` has edited a copy of it. */
function deviceLint(change: (machine: EntitySchema) => void): string[] {
  const project = loadProject(resolvePath(import.meta.dirname, "../.."));
  const machine = structuredClone(project.entities.find((e) => e.$id === "machine")!);
  change(machine);
  return lintProject({ ...project, entities: project.entities.map((e) => (e.$id === "machine" ? machine : e)) })
    .filter((p) => p.file === "schemas/machine.json")
    .map((p) => `${p.path}: ${p.message}`);
}

describe("the codegen lint of fields shown for some records only (x-ui.when)", () => {
  it("refuses a when naming no field, the field itself or a value its field does not have", () => {
    const problems = deviceLint((machine) => {
      machine.properties.maxnumber["x-ui"]!.when = { kind: ["vending", "kiosk"] };
      machine.properties.bake_time["x-ui"]!.when = { knd: ["dryer"] };
      machine.properties.towel_mode["x-ui"]!.when = { towel_mode: ["paid"] };
    });
    expect(problems).toEqual([
      '/properties/maxnumber/x-ui/when/kind/1: "kiosk" is not a value of "kind"',
      '/properties/bake_time/x-ui/when/knd: no property "knd"',
      "/properties/towel_mode/x-ui/when/towel_mode: a field cannot depend on itself",
    ]);
  });

  it("accepts the device's fields of one kind as the schema has them", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    expect(lintProject(project).filter((p) => p.path.includes("/x-ui/when"))).toEqual([]);
    const machine = project.entities.find((e) => e.$id === "machine")!;
    expect(machine.properties.towel_price["x-ui"]!.when).toEqual({ kind: ["car_wash", "dryer"], towel_mode: ["paid"] });
  });
});

describe("the codegen lint of an import (x-import)", () => {
  it("refuses a column that is no property or read-only, a key that is no column, and names on what is no relation", () => {
    const problems = deviceLint((machine) => {
      machine["x-import"] = {
        columns: ["mac_name", "mac_nmae", "total_money", "protocol_id", "model_id"],
        key: ["mac_id"],
        names: { protocol_id: ["name", "cod"], mac_name: ["name"], spec_id: ["name"] },
      };
    });
    expect(problems).toEqual([
      '/x-import/columns/1: no property "mac_nmae"',
      '/x-import/columns/2: "total_money" is read-only; a file cannot fill it',
      '/x-import/key/0: "mac_id" is not a column',
      '/x-import/names/protocol_id/1: machine_protocol has no property "cod"',
      '/x-import/names/mac_name: "mac_name" is not a relation column',
      '/x-import/names/spec_id: "spec_id" is not a relation column',
    ]);
  });

  it("accepts the imports as declared; devices name a protocol by its name or code", () => {
    const project = loadProject(resolvePath(import.meta.dirname, "../.."));
    expect(lintProject(project).filter((p) => p.path.startsWith("/x-import"))).toEqual([]);
    const machine = project.entities.find((e) => e.$id === "machine")!;
    expect(machine["x-import"]!.names).toEqual({ protocol_id: ["name", "code"] });
  });
});

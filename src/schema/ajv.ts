// The one ajv configuration for our schemas: the server validates requests with it, the console's
// forms validate with the same keywords, and the tests compile every schema with it in strict mode.
import { Ajv, type AnySchemaObject, type ErrorObject, type KeywordDefinition, type Options } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export type CompareOp = "eq" | "ne" | "lt" | "lte" | "gt" | "gte";

export interface CompareRule {
  name: string;
  field: string;
  op: CompareOp;
  other: string;
}

/** Params of an `x-compare` error; the message key is `<entity>:rules.<rule>`. */
export interface CompareErrorParams {
  rule: string;
  entity: string;
  op: CompareOp;
  other: string;
}

const comparators: Record<CompareOp, (a: unknown, b: unknown) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  lt: (a, b) => (a as number) < (b as number),
  lte: (a, b) => (a as number) <= (b as number),
  gt: (a, b) => (a as number) > (b as number),
  gte: (a, b) => (a as number) >= (b as number),
};

/** Checks one object against its rules; a rule whose two fields are not both present is not applied. */
export function compareErrors(
  rules: CompareRule[],
  data: Record<string, unknown>,
  entity: string,
  instancePath = "",
): ErrorObject<"x-compare", CompareErrorParams>[] {
  const errors: ErrorObject<"x-compare", CompareErrorParams>[] = [];
  for (const rule of rules) {
    const a = data[rule.field];
    const b = data[rule.other];
    if (a === undefined || b === undefined || a === null || b === null) continue;
    if (comparators[rule.op](a, b)) continue;
    errors.push({
      keyword: "x-compare",
      instancePath: `${instancePath}/${rule.field}`,
      schemaPath: "#/x-compare",
      params: { rule: rule.name, entity, op: rule.op, other: rule.other },
      message: `must be ${rule.op} ${rule.other}`,
    });
  }
  return errors;
}

const compareKeyword: KeywordDefinition = {
  keyword: "x-compare",
  type: "object",
  schemaType: "array",
  errors: true,
  validate: function validateCompare(
    this: unknown,
    rules: CompareRule[],
    data: Record<string, unknown>,
    parentSchema?: AnySchemaObject,
    dataCxt?: { instancePath: string },
  ) {
    const errors = compareErrors(rules, data, String(parentSchema?.$id ?? ""), dataCxt?.instancePath ?? "");
    (validateCompare as unknown as { errors: ErrorObject[] }).errors = errors;
    return errors.length === 0;
  },
};

/** Keywords that only describe (storage, UI, i18n): ajv accepts them, our code reads them. */
export const annotationKeywords = [
  "x-entity",
  "x-operation",
  "x-states",
  "x-ui",
  "x-money",
  "x-fraction",
  "x-immutable",
  "x-relation",
  "x-upload",
  "x-store",
  "x-generated-from",
] as const;

/** Every x- keyword ajv must know, as keyword definitions (also usable as rjsf's ajvOptionsOverrides.keywords). */
export const schemaKeywords: (string | KeywordDefinition)[] = [...annotationKeywords, compareKeyword];

export function createAjv(schemas: AnySchemaObject[] = [], options: Options = {}): Ajv {
  const ajv = new Ajv({
    strict: true,
    // Conditional rules (if/then: required) name root properties, which strictRequired cannot see;
    // codegen's schema check verifies every required name against the entity's properties instead.
    strictRequired: false,
    allErrors: true,
    // Decimal steps such as multipleOf 0.001 (kg) fail on binary floats (3.3 / 0.001) without it.
    multipleOfPrecision: 9,
    keywords: schemaKeywords,
    ...options,
  });
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

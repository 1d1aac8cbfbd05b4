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
  "x-certificate",
  "x-needs",
  "x-store",
  "x-groups",
  "x-import",
  "x-generated-from",
] as const;

/** Every x- keyword ajv must know, as keyword definitions (also usable as rjsf's ajvOptionsOverrides.keywords). */
export const schemaKeywords: (string | KeywordDefinition)[] = [...annotationKeywords, compareKeyword];

// ---------------------------------------------------------------- dates the database stores

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants both JavaScript and PostgreSQL write as ISO 8601. */
const FIRST_INSTANT = -62135596800000;
const LAST_INSTANT = 253402300799999;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):?(\d{2}))$/;
const daysIn = (year: number, month: number) =>
  new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leap(year) ? 1 : 0);
const leap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const validDay = (y: string, m: string, d: string) =>
  Number(y) >= 1 && Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= daysIn(Number(y), Number(m));

/**
 * A calendar date (YYYY-MM-DD) of years 1 to 9999. JavaScript takes more ("0000-01-01", "+275760-09-13",
 * "2020-02-30" rolled over), which PostgreSQL refuses or stores as something else.
 */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && validDay(m[1], m[2], m[3]);
}

/** An RFC 3339 date-time with its offset, whose instant lies in years 1 to 9999 (UTC). */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m || !validDay(m[1], m[2], m[3])) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  const instant = Date.parse(value.replace(" ", "T"));
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
}

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
  // Stricter than ajv-formats: only dates and instants the database takes and gives back the same.
  const base = ajv.formats["date-time"] as { compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat("date", { type: "string", validate: isDate, compare: (a: string, b: string) => a.localeCompare(b) });
  ajv.addFormat("date-time", {
    type: "string",
    validate: isDateTime,
    ...(base?.compare ? { compare: base.compare } : {}),
  });
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

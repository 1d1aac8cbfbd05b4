// Parses a list call's query string per the API contract: page, limit (capped at 200), sort, order,
// and the filters an entity's x-ui declares (field, field_like, field_gte/_lte, comma lists for in).
import { isDate, isDateTime } from "../../src/schema/ajv.ts";
import { badRequest, type FieldError } from "../core/errors.ts";
import { translate, type Language } from "../core/i18n.ts";
import type { EntityModel, Field } from "../model/model.ts";
import type { Condition, ListQuery } from "./repository.ts";
import { fieldError, paramError } from "./validation.ts";

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 10;
/** The last page a list serves: beyond it the offset alone would cost the database a scan of millions of rows. */
export const MAX_PAGE = 100_000;
/** Record versions are int4 in every table. */
export const MAX_VERSION = 2 ** 31 - 1;

/**
 * A record id as the database stores it (int8, and exact in JavaScript): a positive safe integer, written
 * in digits only when it comes as text ("1e3", "0x10", " 7" and 2^63 are not ids).
 */
export function asId(value: unknown): number | undefined {
  if (typeof value === "string") return /^[0-9]{1,16}$/.test(value) ? asId(Number(value)) : undefined;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
}

/** A record version as the client sends it back (a number or digits), within int4; undefined when it is not one. */
export function asVersion(value: unknown): number | undefined {
  const n = typeof value === "string" && /^[0-9]{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= MAX_VERSION ? n : undefined;
}

const SYSTEM_FILTERS: Record<string, Field["kind"]> = { id: "integer", created_at: "datetime", updated_at: "datetime" };

/** A query-string value as the field's type, or undefined when it is not one. */
export function coerce(field: Pick<Field, "kind" | "node">, raw: string): unknown {
  switch (field.kind) {
    case "integer":
      // Within JavaScript's exact integers, so within the database's int8: 2^63 is no filter bound.
      return /^-?\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
    case "number":
      return raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    case "boolean":
      return raw === "true" || raw === "1" ? true : raw === "false" || raw === "0" ? false : undefined;
    case "datetime":
      // A filter bound may be a day ("2024-05-01"): the database reads it as that day's midnight.
      return isDateTime(raw) || isDate(raw) ? raw : undefined;
    case "date":
      return isDate(raw) ? raw : undefined;
    case "string":
      return raw;
    default:
      return undefined;
  }
}

export function parseListQuery(model: EntityModel, query: Record<string, unknown>, lng: Language): ListQuery {
  const errors: FieldError[] = [];
  const text = (key: string) => (typeof query[key] === "string" ? (query[key] as string) : undefined);
  // Digits only: "1e308" and "0x10" are numbers to JavaScript, not page numbers.
  const whole = (raw: string | undefined, fallback: number) =>
    raw === undefined ? fallback : /^[0-9]{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  const page = whole(text("page"), 1);
  const limit = whole(text("limit"), DEFAULT_LIMIT);
  if (Number.isNaN(page) || (query.page !== undefined && text("page") === undefined))
    errors.push(fieldError(model, "page", "type", lng));
  else if (page < 1) errors.push(fieldError(model, "page", "minimum", lng, { limit: 1 }));
  else if (page > MAX_PAGE) errors.push(fieldError(model, "page", "maximum", lng, { limit: MAX_PAGE }));
  if (Number.isNaN(limit) || (query.limit !== undefined && text("limit") === undefined))
    errors.push(fieldError(model, "limit", "type", lng));
  else if (limit < 1) errors.push(fieldError(model, "limit", "minimum", lng, { limit: 1 }));
  // sort=a,b&order=desc,asc: one or more keys, each sortable; the orders pair with them (asc by default).
  const sorts = (text("sort") ?? model.x.defaultSort?.field ?? "id").split(",");
  const orders = (text("order") ?? (text("sort") ? "asc" : (model.x.defaultSort?.order ?? "desc")))
    .toLowerCase()
    .split(",");
  if (sorts.length > 3 || orders.length > sorts.length)
    errors.push(fieldError(model, "sort", "maxItems", lng, { limit: 3 }));
  for (const field of sorts)
    if (!model.sortable.has(field) && field !== model.x.defaultSort?.field)
      errors.push(fieldError(model, "sort", "enum", lng));
  for (const order of orders)
    if (order !== "asc" && order !== "desc") errors.push(fieldError(model, "order", "enum", lng));
  const keys = sorts.map((field, i) => ({ field, order: (orders[i] ?? "asc") as "asc" | "desc" }));
  const [{ field: sort, order }] = keys;

  const where: Condition[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (["page", "limit", "sort", "order", "count"].includes(key) || value === undefined || value === "") continue;
    const raw = Array.isArray(value) ? value.join(",") : String(value);
    const match = /^(.*?)(_like|_gte|_lte)?$/.exec(key)!;
    const name = match[1];
    const suffix = match[2];
    const kind = model.filters.get(name);
    const field: Pick<Field, "kind" | "node"> | undefined =
      model.fields.get(name) ?? (SYSTEM_FILTERS[name] ? { kind: SYSTEM_FILTERS[name], node: {} } : undefined);
    const allowed =
      field &&
      ((suffix === "_like" && kind === "like") ||
        ((suffix === "_gte" || suffix === "_lte") && (kind === "range" || name in SYSTEM_FILTERS)) ||
        (!suffix && (kind === "eq" || kind === "in" || name === "id")));
    if (!allowed) {
      errors.push({
        field: key,
        keyword: "additionalProperties",
        message: translate(lng, "validation:additionalProperties", { field: key }),
      });
      continue;
    }
    const values = kind === "in" || (name === "id" && !suffix) ? raw.split(",") : [raw];
    const coerced = values.map((v) => coerce(field, v));
    const enumValues = field.node.enum;
    if (
      coerced.some((v) => v === undefined) ||
      (enumValues && !suffix && coerced.some((v) => !enumValues.includes(v as never)))
    ) {
      errors.push(fieldError(model, name, "type", lng));
      continue;
    }
    if (suffix === "_like") where.push({ field: name, op: "like", value: raw });
    else if (suffix === "_gte") where.push({ field: name, op: "gte", value: coerced[0] });
    else if (suffix === "_lte") where.push({ field: name, op: "lte", value: coerced[0] });
    else if (coerced.length > 1 || kind === "in") where.push({ field: name, op: "in", value: coerced });
    else where.push({ field: name, op: "eq", value: coerced[0] });
  }
  // count=exact: the total counted to the last row, past the cap (the console's "Count exactly").
  if (query.count !== undefined && query.count !== "exact") errors.push(paramError("count", "enum", lng));
  if (errors.length) throw badRequest(errors);
  const exact = query.count === "exact";
  return { page, limit: Math.min(limit, MAX_LIMIT), sort, order, then: keys.slice(1), where, exact };
}

/** ids from `?id=1,2,3` or a body `{ "id": 7 }` / `{ "id": [1, 2] }`. */
/** Exactly one id, for the calls that act on one record. */
export function oneId(value: unknown, lng: Language): number {
  const ids = parseIds(value, lng);
  if (ids.length !== 1) throw badRequest([paramError("id", "required", lng)]);
  return ids[0];
}

/** The most ids one call acts on (a page of the longest list). */
export const MAX_IDS = MAX_LIMIT;

export function parseIds(value: unknown, lng: Language): number[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(",")
      : value === undefined
        ? []
        : [value];
  if (list.length > MAX_IDS) throw badRequest([paramError("id", "maxItems", lng, { limit: MAX_IDS })]);
  const ids = list.map(asId);
  if (ids.some((id) => id === undefined)) throw badRequest([paramError("id", "type", lng)]);
  return ids as number[];
}

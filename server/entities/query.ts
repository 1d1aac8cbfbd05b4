// Parses a list call's query string per the API contract: page, limit (capped at 200), sort, order,
// and the filters an entity's x-ui declares (field, field_like, field_gte/_lte, comma lists for in).
import { badRequest, type FieldError } from "../http/errors.ts";
import { translate, type Language } from "../http/i18n.ts";
import type { EntityModel, Field } from "./model.ts";
import type { Condition, ListQuery } from "./repository.ts";
import { fieldError, paramError } from "./validation.ts";

export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 10;

const SYSTEM_FILTERS: Record<string, Field["kind"]> = { id: "integer", created_at: "datetime", updated_at: "datetime" };

/** A query-string value as the field's type, or undefined when it is not one. */
export function coerce(field: Pick<Field, "kind" | "node">, raw: string): unknown {
  switch (field.kind) {
    case "integer":
      return /^-?\d+$/.test(raw) ? Number(raw) : undefined;
    case "number":
      return raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    case "boolean":
      return raw === "true" || raw === "1" ? true : raw === "false" || raw === "0" ? false : undefined;
    case "datetime":
    case "date":
      return Number.isNaN(Date.parse(raw)) ? undefined : raw;
    case "string":
      return raw;
    default:
      return undefined;
  }
}

export function parseListQuery(model: EntityModel, query: Record<string, unknown>, lng: Language): ListQuery {
  const errors: FieldError[] = [];
  const text = (key: string) => (typeof query[key] === "string" ? (query[key] as string) : undefined);
  const page = Number(text("page") ?? 1);
  const limit = Number(text("limit") ?? DEFAULT_LIMIT);
  if (!Number.isInteger(page) || page < 1) errors.push(fieldError(model, "page", "minimum", lng));
  if (!Number.isInteger(limit) || limit < 1) errors.push(fieldError(model, "limit", "minimum", lng));
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
    if (["page", "limit", "sort", "order"].includes(key) || value === undefined || value === "") continue;
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
  if (errors.length) throw badRequest(errors);
  return { page, limit: Math.min(limit, MAX_LIMIT), sort, order, then: keys.slice(1), where };
}

/** ids from `?id=1,2,3` or a body `{ "id": 7 }` / `{ "id": [1, 2] }`. */
/** Exactly one id, for the calls that act on one record. */
export function oneId(value: unknown, lng: Language): number {
  const ids = parseIds(value, lng);
  if (ids.length !== 1) throw badRequest([paramError("id", "required", lng)]);
  return ids[0];
}

export function parseIds(value: unknown, lng: Language): number[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(",")
      : value === undefined
        ? []
        : [value];
  const ids = list.map((v) => Number(v));
  if (ids.some((id) => !Number.isInteger(id) || id < 1)) throw badRequest([paramError("id", "type", lng)]);
  return ids;
}

// The filter bar's values and Refine's CrudFilters, both ways. A range filter is two filters (gte,
// lte); money ranges are typed in currency units and sent in minor units; date ranges cover whole days,
// the business's days (time-zone.ts): "20 Nov" is 00:00 to 24:00 in its zone whatever the browser's zone.
import type { CrudFilter, LogicalFilter } from "@refinedev/core";
import dayjs, { type Dayjs } from "dayjs";
import type { EntityView, FieldView } from "./model.ts";
import { toMajor, toMinor } from "./format.ts";
import { businessDay, dayEnd, dayStart } from "./time-zone.ts";

export type FilterValues = Record<string, unknown>;

const isDate = (field: FieldView) => field.kind === "datetime" || field.kind === "date";

function rangeEnd(field: FieldView, value: unknown, end: "start" | "end"): unknown {
  if (value === null || value === undefined || value === "") return undefined;
  if (field.kind === "money") return toMinor(Number(value));
  if (isDate(field)) {
    // The day as the picker shows it, whichever hour it holds.
    const day = (value as Dayjs).format("YYYY-MM-DD");
    if (field.kind === "date") return day;
    return end === "start" ? dayStart(day) : dayEnd(day);
  }
  return value;
}

export function toCrudFilters(view: EntityView, values: FilterValues): CrudFilter[] {
  const filters: CrudFilter[] = [];
  for (const field of view.filters) {
    const value = values[field.name];
    if (value === undefined || value === null || value === "") continue;
    switch (field.ui.filter) {
      case "like":
        filters.push({ field: field.name, operator: "contains", value: String(value).trim() });
        break;
      case "in":
        if (Array.isArray(value) && value.length) filters.push({ field: field.name, operator: "in", value });
        break;
      case "range": {
        const [from, to] = Array.isArray(value) ? value : [];
        const gte = rangeEnd(field, from, "start");
        const lte = rangeEnd(field, to, "end");
        if (gte !== undefined) filters.push({ field: field.name, operator: "gte", value: gte });
        if (lte !== undefined) filters.push({ field: field.name, operator: "lte", value: lte });
        break;
      }
      default:
        filters.push({ field: field.name, operator: "eq", value });
    }
  }
  return filters.filter((f) => (f as LogicalFilter).value !== "");
}

/** A date filter's value as the picker shows it: the business day it falls on, from its start or to its end. */
function pickerDay(field: FieldView, raw: string, operator: "gte" | "lte"): Dayjs {
  const day = dayjs(field.kind === "date" ? raw : businessDay(raw));
  return operator === "gte" ? day : day.endOf("day");
}

/** Values read back from the address bar are text; numeric fields want numbers. */
function coerce(field: FieldView, value: unknown): unknown {
  const numeric =
    field.kind === "integer" || field.kind === "relation" || field.enum?.some((v) => typeof v === "number");
  return numeric && typeof value === "string" && value !== "" ? Number(value) : value;
}

export function fromCrudFilters(view: EntityView, filters: CrudFilter[]): FilterValues {
  const values: FilterValues = {};
  for (const filter of filters) {
    if (!("field" in filter)) continue;
    const field = view.byName.get(filter.field);
    if (!field) continue;
    if (filter.operator === "gte" || filter.operator === "lte") {
      const range = (values[field.name] as unknown[] | undefined) ?? [undefined, undefined];
      const raw = filter.value;
      const shown =
        field.kind === "money"
          ? toMajor(Number(raw))
          : isDate(field)
            ? pickerDay(field, String(raw), filter.operator)
            : raw;
      range[filter.operator === "gte" ? 0 : 1] = shown;
      values[field.name] = range;
    } else if (filter.operator === "in") {
      const list: unknown[] = Array.isArray(filter.value) ? filter.value : String(filter.value).split(",");
      values[field.name] = list.map((v) => coerce(field, v));
    } else {
      values[field.name] = coerce(field, filter.value);
    }
  }
  return values;
}

// The generic import engine (x-import): reads a file by its headers, checks every row and answers every
// problem by row and column in the caller's language, in a fixed number of statements whatever the
// number of rows (one per related entity, one for the caller's live records a file may repeat). Built
// from the device import (server/domain/machines/import.ts), whose file reading and statements it shares.
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type Ctx } from "../context.ts";
import type { EntityModel } from "../../model/model.ts";
import { validationErrors, validatorFor } from "../validation.ts";
import { badRequest } from "../../core/errors.ts";
import { translate, type Language } from "../../core/i18n.ts";
import { entityNameKey } from "../../../src/schema/keys.ts";
import { quoted, readImportSheet, type Problem } from "./file.ts";
import {
  columnLabel,
  enumValues,
  headerTexts,
  importColumns,
  listItems,
  normal,
  type ImportColumn,
} from "./columns.ts";
import { byNames } from "./store.ts";
import { keyText, liveByKey } from "./live.ts";

export const NS = "entity_import";

export const fileError = (lng: Language, key: string, params: Record<string, unknown> = {}) =>
  badRequest([{ field: "file", keyword: key, message: translate(lng, `${NS}:errors.${key}`, params) }]);

/** A file as read, before its columns are known: its header row's texts and its rows' cells. */
export interface ParsedFile {
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/** A file's columns bound to fields: its rows' texts by column, and the problems of its header row. */
interface BoundFile {
  rows: { row: number; values: Map<ImportColumn, string> }[];
  problems: Problem[];
  present: Set<ImportColumn>;
  /** Each header of the file and the field it fills (null: none), as the answer tells the console. */
  headers: { header: string; field: string | null }[];
}

/**
 * A user's choice of field for a header the file names in its own words (normalised header -> field); the
 * console sends it, and the confirm remembers it (server/entities/import/mapping.ts).
 */
export type Mapping = Record<string, string>;

/** Reads an arrived file, before the call takes its turn at the database: a 400 for a file it cannot take. */
export async function parse(path: string, lng: Language): Promise<ParsedFile> {
  const sheet = await readImportSheet(path, (key, params) => fileError(lng, key, params));
  const rows = sheet.rows.filter((r) => r.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) throw fileError(lng, "empty");
  return { header: sheet.header.cells, rows };
}

/** Binds a file's columns: by header (a label in any language, or the field name), else by the mapping. */
function bind(model: EntityModel, file: ParsedFile, lng: Language, mapping: Mapping): BoundFile {
  const headers = headerTexts(model);
  const columns = importColumns(model);
  const byIndex = new Map<number, ImportColumn>();
  const taken = () => new Set(byIndex.values());
  file.header.forEach((text, index) => {
    const column = headers.get(normal(text));
    if (column && !taken().has(column)) byIndex.set(index, column);
  });
  // Then the user's choices, for headers no name matched, each field once.
  file.header.forEach((text, index) => {
    const column = columns.find((c) => c.field === mapping[normal(text)]);
    if (!byIndex.has(index) && column && !taken().has(column)) byIndex.set(index, column);
  });
  const present = taken();
  const problems = columns
    .filter((c) => c.required && !present.has(c))
    .map((c) => ({
      row: 1,
      column: columnLabel(model, lng, c),
      field: c.field,
      message: translate(lng, `${NS}:problems.columnMissing`),
    }));
  const rows: BoundFile["rows"] = [];
  for (const { row, cells } of file.rows) {
    const values = new Map<ImportColumn, string>();
    for (const [index, column] of byIndex) {
      const text = (cells[index] ?? "").trim();
      if (text) values.set(column, text);
    }
    rows.push({ row, values });
  }
  const headerList = file.header
    .map((header, index) => ({ header, field: byIndex.get(index)?.field ?? null }))
    .filter((h) => h.header.trim() !== "");
  return { rows, problems, present, headers: headerList };
}

export interface Checked {
  rows: number;
  headers: BoundFile["headers"];
  /** The records to insert, with the file's row each came from. */
  records: { row: number; values: Record<string, unknown> }[];
  skipped: number;
  problems: Problem[];
}

/**
 * Titles -> ids of one related entity among those the caller sees, in one statement. A title that names
 * several, one of them the caller's own (every agent has its "Drinks" category), is the caller's.
 */
async function lookup(db: Queryable, ctx: Ctx, column: ImportColumn, titles: Set<string>) {
  const found = new Map<string, { id: number; own: boolean }[]>();
  if (titles.size === 0) return new Map<string, number[]>();
  for (const row of await byNames(db, scopeOf(ctx.principal), column.relation!, [column.titleField!], titles)) {
    const title = String(row[column.titleField!]);
    const own = row.agent_id !== undefined && Number(row.agent_id) === ctx.principal.agentId;
    found.set(title, [...(found.get(title) ?? []), { id: Number(row.id), own }]);
  }
  return new Map(
    [...found].map(([title, rows]) => {
      const own = rows.filter((r) => r.own);
      return [title, (rows.length > 1 && own.length === 1 ? own : rows).map((r) => r.id)];
    }),
  );
}

/** A number as a file writes it ("1,250.50" too); undefined when it is none. */
const numberOf = (text: string): number | undefined => {
  const n = Number(text.replace(/,/g, ""));
  return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
};

export async function check(
  db: Queryable,
  ctx: Ctx,
  model: EntityModel,
  parsed: ParsedFile,
  mapping: Mapping = {},
): Promise<Checked> {
  const lng = ctx.lng;
  const columns = importColumns(model);
  const file = bind(model, parsed, lng, mapping);
  const { rows, present } = file;
  const problems = [...file.problems];
  const p = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:problems.${key}`, params);
  const add = (row: number, column: ImportColumn, message: string) =>
    problems.push({ row, column: columnLabel(model, lng, column), field: column.field, message });

  // One statement per related entity, whatever the number of rows.
  const found = new Map<ImportColumn, Map<string, number[]>>();
  for (const column of columns.filter((c) => c.relation)) {
    const titles = new Set(
      rows.flatMap((r) => {
        const text = r.values.get(column);
        if (text === undefined) return [];
        return column.kind === "list" ? listItems(text).map(normal) : [normal(text)];
      }),
    );
    found.set(column, await lookup(db, ctx, column, titles));
  }
  const enums = new Map(columns.filter((c) => c.kind === "enum").map((c) => [c, enumValues(model, c)]));

  /** A related record by its title: its id, or a problem. */
  const relationId = (row: number, column: ImportColumn, text: string): number | undefined => {
    const ids = found.get(column)!.get(normal(text)) ?? [];
    if (ids.length === 1) return ids[0];
    const entity = translate(lng, entityNameKey(column.relation!));
    add(row, column, p(ids.length ? "ambiguous" : "unknown", { entity, value: quoted(text) }));
  };

  const validate = validatorFor(model, "create");
  const candidates: Checked["records"] = [];
  for (const { row, values } of rows) {
    const record: Record<string, unknown> = {};
    // A column missing from the file is reported once, on its header row, not on every row.
    const reported = new Set<string>(columns.filter((c) => !present.has(c)).map((c) => c.field));
    const before = problems.length;
    for (const column of columns) {
      const text = values.get(column);
      if (text === undefined) continue;
      const count = problems.length;
      record[column.field] = cellValue(column, text, row);
      if (problems.length > count) reported.add(column.field);
    }
    // A confirmation the schema asks beside a column (a password's) is the column's own value.
    for (const rule of model.schema["x-compare"] ?? [])
      if (rule.op === "eq" && record[rule.other] !== undefined && !columns.some((c) => c.field === rule.field))
        record[rule.field] = record[rule.other];
    // The entity schema's own rules (required, patterns, lengths, ranges), in the caller's words.
    for (const error of validationErrors(model, validate, record, lng)) {
      const field = error.field.split("/")[0];
      const column = columns.find((c) => c.field === field);
      if (!column || reported.has(field)) continue;
      reported.add(field);
      add(row, column, error.message);
    }
    if (problems.length === before) candidates.push({ row, values: record });
  }

  /** What a cell holds, as the record's value; a problem (and the text as it is) when it is not one. */
  function cellValue(column: ImportColumn, text: string, row: number): unknown {
    switch (column.kind) {
      case "enum": {
        const value = enums.get(column)!.get(normal(text));
        if (value !== undefined) return value;
        const allowed = [...new Set(enums.get(column)!.values())].join(", ");
        add(row, column, p("badValue", { value: quoted(text), allowed }));
        return text;
      }
      case "relation":
        return relationId(row, column, text);
      case "list":
        return column.items === "relation"
          ? listItems(text).map((item) => relationId(row, column, item))
          : listItems(text);
      case "money": {
        const n = numberOf(text);
        // Entered with two decimals, kept in minor units; a bad one is left to the schema's rule.
        return n === undefined ? text : Math.round(n * 100);
      }
      case "integer":
      case "number":
        return numberOf(text) ?? text;
      default:
        return text;
    }
  }

  // Duplicates within the file: a key met on an earlier row.
  const key = model.schema["x-import"]!.key;
  const keyColumns = key.map((field) => columns.find((c) => c.field === field)!);
  const keyOf = (values: Record<string, unknown>) => keyText(key, values, values);
  const first = new Map<string, number>();
  for (const { row, values } of candidates) {
    const k = keyOf(values);
    const earlier = first.get(k);
    if (earlier === undefined) first.set(k, row);
    else add(row, keyColumns[0], p("duplicateInFile", { value: quoted(String(values[key[0]])), row: earlier }));
  }

  // Against the caller's own live records, in one statement: the same record with the same values is
  // imported already (skipped); with other values, a problem.
  const live = await liveByKey(db, ctx, model, key, candidates);
  // A password is stored hashed: the same record is the same in every other column.
  const compared = columns.filter((c) => !model.hashed.has(c.field));
  // A cell left empty took the field's default when the record was written.
  const defaults = new Map(columns.map((c) => [c.field, model.fields.get(c.field)!.node.default]));
  const records: Checked["records"] = [];
  let skipped = 0;
  for (const candidate of candidates) {
    const existing = live.get(keyOf(candidate.values));
    if (!existing) records.push(candidate);
    else if (compared.every((c) => same(existing[c.field], candidate.values[c.field] ?? defaults.get(c.field))))
      skipped++;
    else add(candidate.row, keyColumns[0], p("duplicateLive", { value: quoted(String(candidate.values[key[0]])) }));
  }
  const order = new Map(columns.map((c, i) => [c.field, i]));
  problems.sort((a, b) => a.row - b.row || order.get(a.field)! - order.get(b.field)!);
  return {
    rows: rows.length,
    headers: file.headers,
    records: problems.length ? [] : records,
    skipped: problems.length ? 0 : skipped,
    problems,
  };
}

/** A stored value and a file's as equal: numbers as numbers (bigint columns read as text), lists item by item. */
function same(stored: unknown, value: unknown): boolean {
  if (value === undefined) return stored === null || stored === undefined;
  if (Array.isArray(value))
    return Array.isArray(stored) && stored.length === value.length && value.every((v, i) => same(stored[i], v));
  if (typeof value === "number") return stored !== null && Number(stored) === value;
  return stored === value;
}

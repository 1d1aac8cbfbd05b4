// The generic import engine (x-import): reads a file by its headers and checks its rows a batch at a
// time as they are read (a file of 100,000 rows is never held whole), answering every problem by row and
// column in the caller's language. Each batch costs a fixed number of statements whatever its size: one
// per related entity for titles not met before, one for the caller's live records the batch may repeat.
// A confirm writes each batch as soon as it is checked, in its transaction, until a problem is met: from
// then on it only checks, and the transaction is rolled back (all or nothing).
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type Ctx } from "../context.ts";
import type { EntityModel } from "../../model/model.ts";
import { validationErrors, validatorFor } from "../validation.ts";
import { badRequest } from "../../core/errors.ts";
import { translate, type Language } from "../../core/i18n.ts";
import { entityNameKey } from "../../../src/schema/keys.ts";
import { IMPORT_LIMITS, quoted, readImportSheet, type Problem } from "./file.ts";
import type { SheetRow } from "../sheet-read.ts";
import {
  columnLabel,
  enumText,
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

/** Rows checked (and written) at once. */
export const IMPORT_BATCH = 2_000;

export const fileError = (lng: Language, key: string, params: Record<string, unknown> = {}) =>
  badRequest([{ field: "file", keyword: key, message: translate(lng, `${NS}:errors.${key}`, params) }]);

/**
 * A user's choice of field for a header the file names in its own words (normalised header -> field); the
 * console sends it, and the confirm remembers it (server/entities/import/mapping.ts).
 */
export type Mapping = Record<string, string>;

/** A checked row ready to be written: its values by field, and the file's row it came from. */
export interface ImportRecord {
  row: number;
  values: Record<string, unknown>;
}

/** How far a check has gone: rows checked, and the share of the file read (0..1). */
export interface ImportProgress {
  rows: number;
  read: number;
}

export interface Checked {
  rows: number;
  /** Each header of the file and the field it fills (null: none), as the answer tells the console. */
  headers: { header: string; field: string | null }[];
  /** Rows written (by a confirm's writer; 0 when anything was wrong). */
  created: number;
  skipped: number;
  /** The first IMPORT_LIMITS.problems problems, by row and column. */
  problems: Problem[];
  problemCount: number;
}

export interface CheckOptions {
  /** The user's mapping of headers no name matched. */
  mapping?: Mapping;
  /**
   * Writes a batch of checked rows (a confirm), while the file has had no problem: answers how many it
   * wrote, or the problems of rows the database refused (then nothing more is written).
   */
  write?: (records: ImportRecord[]) => Promise<{ created: number; problems: Problem[] }>;
  progress?: (progress: ImportProgress) => void;
}

/** A number as a file writes it ("1,250.50" too); undefined when it is none. */
const numberOf = (text: string): number | undefined => {
  const n = Number(text.replace(/,/g, ""));
  return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
};

/** A stored value and a file's as equal: numbers as numbers (bigint columns read as text), lists item by item. */
function same(stored: unknown, value: unknown): boolean {
  if (value === undefined) return stored === null || stored === undefined;
  if (Array.isArray(value))
    return Array.isArray(stored) && stored.length === value.length && value.every((v, i) => same(stored[i], v));
  if (typeof value === "number") return stored !== null && Number(stored) === value;
  return stored === value;
}

/** One file's check: what it has learnt so far (its columns, titles met, keys met, problems). */
class FileCheck {
  readonly lng: Language;
  readonly columns: ImportColumn[];
  private readonly key: string[];
  private readonly keyColumn: ImportColumn;
  private readonly validate;
  private readonly enums: Map<ImportColumn, Map<string, string | number>>;
  private readonly allowed: Map<ImportColumn, string>;
  /** A related record's ids by its title, for every title met so far (one statement per batch's new ones). */
  private readonly titles = new Map<ImportColumn, Map<string, number[]>>();
  /** The row each key was first met on. */
  private readonly firstRow = new Map<string, number>();
  /** The key is one no two records may share: it is looked for among everyone's records. */
  private readonly keyUnique: boolean;
  /** The other columns no two records may share, and the row each of their values was first met on. */
  private readonly uniques: { column: ImportColumn; first: Map<string, number> }[];
  private readonly compared: ImportColumn[];
  private readonly defaults: Map<string, unknown>;
  private byIndex = new Map<number, ImportColumn>();
  private present = new Set<ImportColumn>();
  headers: Checked["headers"] = [];
  bound = false;
  rows = 0;
  skipped = 0;
  problems: Problem[] = [];
  problemCount = 0;

  constructor(
    private readonly db: Queryable,
    private readonly ctx: Ctx,
    private readonly model: EntityModel,
    private readonly mapping: Mapping,
  ) {
    this.lng = ctx.lng;
    this.columns = importColumns(model);
    this.key = model.schema["x-import"]!.key;
    this.keyColumn = this.columns.find((c) => c.field === this.key[0])!;
    this.keyUnique = this.key.length === 1 && this.keyColumn.unique;
    this.uniques = this.columns
      .filter((c) => c.unique && c !== (this.keyUnique ? this.keyColumn : undefined))
      .map((column) => ({ column, first: new Map() }));
    this.validate = validatorFor(model, "create");
    this.enums = new Map(this.columns.filter((c) => c.kind === "enum").map((c) => [c, enumValues(model, c)]));
    // An enum's values as a problem lists them: by their labels in the caller's language.
    this.allowed = new Map(
      this.columns
        .filter((c) => c.kind === "enum")
        .map((c) => [c, (c.values ?? []).map((v) => enumText(model, this.lng, c, v)).join(", ")]),
    );
    // A password is stored hashed: the same record is the same in every other column.
    this.compared = this.columns.filter((c) => !model.hashed.has(c.field));
    // A cell left empty took the field's default when the record was written.
    this.defaults = new Map(this.columns.map((c) => [c.field, model.fields.get(c.field)!.node.default]));
  }

  private text(key: string, params?: Record<string, unknown>) {
    return translate(this.lng, `${NS}:problems.${key}`, params);
  }

  /** Adds problems in the file's order (the first IMPORT_LIMITS.problems kept, every one counted). */
  report(found: Problem[]): void {
    const order = new Map(this.columns.map((c, i) => [c.field, i]));
    found.sort((a, b) => a.row - b.row || (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0));
    this.problemCount += found.length;
    this.problems.push(...found.slice(0, Math.max(0, IMPORT_LIMITS.problems - this.problems.length)));
  }

  problem(row: number, column: ImportColumn, message: string): Problem {
    return { row, column: columnLabel(this.model, this.lng, column), field: column.field, message };
  }

  /** Binds the header row's columns: by header (a label in any language, or the field name), else by the mapping. */
  bind(header: SheetRow): void {
    const texts = headerTexts(this.model);
    const taken = () => new Set(this.byIndex.values());
    header.cells.forEach((text, index) => {
      const column = texts.get(normal(text));
      if (column && !taken().has(column)) this.byIndex.set(index, column);
    });
    // Then the user's choices, for headers no name matched, each field once.
    header.cells.forEach((text, index) => {
      const column = this.columns.find((c) => c.field === this.mapping[normal(text)]);
      if (!this.byIndex.has(index) && column && !taken().has(column)) this.byIndex.set(index, column);
    });
    this.present = taken();
    this.headers = header.cells
      .map((text, index) => ({ header: text, field: this.byIndex.get(index)?.field ?? null }))
      .filter((h) => h.header.trim() !== "");
    this.report(
      this.columns
        .filter((c) => c.required && !this.present.has(c))
        .map((c) => this.problem(1, c, this.text("columnMissing"))),
    );
    this.bound = true;
  }

  /** Titles -> ids of one related entity among those the caller sees, for the titles not met before. */
  private async lookup(column: ImportColumn, wanted: Set<string>): Promise<void> {
    let known = this.titles.get(column);
    if (!known) this.titles.set(column, (known = new Map()));
    const titles = new Set([...wanted].filter((t) => !known.has(t)));
    if (titles.size === 0) return;
    const found = new Map<string, { id: number; own: boolean }[]>([...titles].map((t) => [t, []]));
    const { agentId } = this.ctx.principal;
    const by = column.titleFields!;
    for (const row of await byNames(this.db, scopeOf(this.ctx.principal), column.relation!, by, titles)) {
      const own = row.agent_id !== undefined && Number(row.agent_id) === agentId;
      // A record named by one of its fields (a protocol by its name or its code) is met once per title.
      for (const title of new Set(by.map((f) => String(row[f])))) found.get(title)?.push({ id: Number(row.id), own });
    }
    // A title that names several, one of them the caller's own (every agent has its "Drinks" category), is the caller's.
    for (const [title, rows] of found) {
      const own = rows.filter((r) => r.own);
      known.set(
        title,
        (rows.length > 1 && own.length === 1 ? own : rows).map((r) => r.id),
      );
    }
  }

  /** Checks a batch of rows; answers those ready to be written (none once the file has a problem). */
  async batch(rows: SheetRow[]): Promise<ImportRecord[]> {
    const { columns } = this;
    const found: Problem[] = [];
    const add = (row: number, column: ImportColumn, message: string) => found.push(this.problem(row, column, message));
    const bound = rows.map(({ row, cells }) => {
      const values = new Map<ImportColumn, string>();
      for (const [index, column] of this.byIndex) {
        const text = (cells[index] ?? "").trim();
        if (text) values.set(column, text);
      }
      return { row, values };
    });
    this.rows += rows.length;

    for (const column of columns.filter((c) => c.relation))
      await this.lookup(
        column,
        new Set(
          bound.flatMap((r) => {
            const text = r.values.get(column);
            if (text === undefined) return [];
            return column.kind === "list" ? listItems(text).map(normal) : [normal(text)];
          }),
        ),
      );

    /** A related record by its title: its id, or a problem. */
    const relationId = (row: number, column: ImportColumn, text: string): number | undefined => {
      const ids = this.titles.get(column)!.get(normal(text)) ?? [];
      if (ids.length === 1) return ids[0];
      const entity = translate(this.lng, entityNameKey(column.relation!));
      add(row, column, this.text(ids.length ? "ambiguous" : "unknown", { entity, value: quoted(text) }));
    };

    /** What a cell holds, as the record's value; a problem (and the text as it is) when it is not one. */
    const cellValue = (column: ImportColumn, text: string, row: number): unknown => {
      switch (column.kind) {
        case "enum": {
          const value = this.enums.get(column)!.get(normal(text));
          if (value !== undefined) return value;
          const allowed = this.allowed.get(column);
          add(row, column, this.text("badValue", { value: quoted(text), allowed }));
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
    };

    // Every row, with the fields already found wrong on it (a duplicate of a wrong value is not said too).
    const candidates: (ImportRecord & { reported: Set<string>; failed: boolean })[] = [];
    for (const { row, values } of bound) {
      const record: Record<string, unknown> = {};
      // A column missing from the file is reported once, on its header row, not on every row.
      const reported = new Set<string>(columns.filter((c) => !this.present.has(c)).map((c) => c.field));
      const before = found.length;
      for (const column of columns) {
        const text = values.get(column);
        // An empty cell of a required column: said as a spreadsheet's ("Model is required"), not as a form's.
        if (text === undefined && column.required && !reported.has(column.field)) {
          const field = columnLabel(this.model, this.lng, column);
          add(row, column, translate(this.lng, "validation:required", { field }));
          reported.add(column.field);
        }
        if (text === undefined) continue;
        const count = found.length;
        record[column.field] = cellValue(column, text, row);
        if (found.length > count) reported.add(column.field);
      }
      // A confirmation the schema asks beside a column (a password's) is the column's own value.
      for (const rule of this.model.schema["x-compare"] ?? [])
        if (rule.op === "eq" && record[rule.other] !== undefined && !columns.some((c) => c.field === rule.field))
          record[rule.field] = record[rule.other];
      // The entity schema's own rules (required, patterns, lengths, ranges), in the caller's words.
      for (const error of validationErrors(this.model, this.validate, record, this.lng)) {
        const field = error.field.split("/")[0];
        const column = columns.find((c) => c.field === field);
        if (!column || reported.has(field)) continue;
        reported.add(field);
        add(row, column, error.message);
      }
      candidates.push({ row, values: record, reported, failed: found.length > before });
    }

    // Duplicates within the file: a key, or a value no two records may share, met on an earlier row.
    type Candidate = (typeof candidates)[number];
    const keyOf = (values: Record<string, unknown>) => keyText(this.key, values, values);
    const valueOf = (candidate: Candidate, column: ImportColumn) => quoted(String(candidate.values[column.field]));
    const usable = (candidate: Candidate, column: ImportColumn) =>
      candidate.values[column.field] !== undefined && !candidate.reported.has(column.field);
    const taken = (candidate: Candidate, column: ImportColumn, message: string) => {
      add(candidate.row, column, message);
      candidate.reported.add(column.field);
      candidate.failed = true;
    };
    const repeated = (first: Map<string, number>, text: string, candidate: Candidate, column: ImportColumn) => {
      const earlier = first.get(text);
      if (earlier === undefined) first.set(text, candidate.row);
      else taken(candidate, column, this.text("duplicateInFile", { value: valueOf(candidate, column), row: earlier }));
    };
    const keyed = candidates.filter((candidate) => usable(candidate, this.keyColumn));
    for (const candidate of keyed) repeated(this.firstRow, keyOf(candidate.values), candidate, this.keyColumn);
    for (const { column, first } of this.uniques)
      for (const candidate of candidates)
        if (usable(candidate, column)) repeated(first, String(candidate.values[column.field]), candidate, column);

    // Against the live records, one statement for the key and one for each other unique column: the same
    // record, one the caller sees, with the same values is imported already (skipped); a record holding the
    // key with other values, or another record holding a unique value, is a problem. The key is looked
    // for among the caller's own records, or everyone's when no two records may share it.
    const live = await liveByKey(this.db, this.ctx, this.model, this.key, keyed, this.keyUnique);
    const holders: { column: ImportColumn; live: Awaited<typeof live> }[] = [];
    for (const { column } of this.uniques)
      holders.push({
        column,
        live: await liveByKey(
          this.db,
          this.ctx,
          this.model,
          [column.field],
          candidates.filter((c) => usable(c, column)),
          true,
        ),
      });
    const records: ImportRecord[] = [];
    for (const candidate of candidates) {
      const existing = usable(candidate, this.keyColumn) ? live.get(keyOf(candidate.values)) : undefined;
      const imported =
        existing?.import_seen &&
        this.compared.every((c) => same(existing[c.field], candidate.values[c.field] ?? this.defaults.get(c.field)));
      if (existing && !imported)
        taken(candidate, this.keyColumn, this.text("duplicateLive", { value: valueOf(candidate, this.keyColumn) }));
      for (const { column, live } of holders) {
        const holder = usable(candidate, column)
          ? live.get(keyText([column.field], candidate.values, candidate.values))
          : undefined;
        if (holder && !(imported && holder.id === existing.id))
          taken(candidate, column, this.text("duplicateLive", { value: valueOf(candidate, column) }));
      }
      if (candidate.failed) continue;
      if (imported) this.skipped++;
      else records.push({ row: candidate.row, values: candidate.values });
    }
    this.report(found);
    return this.problemCount ? [] : records;
  }
}

/**
 * Reads an arrived file once through, keeping nothing, before the call takes its turn at the database (and
 * a confirm its transaction): a file it cannot take (not a sheet, too large, too slow, too many rows, or
 * no rows) is a 400 there, and the check's own reading later holds the turn only for a file within bounds.
 */
export async function screen(path: string, lng: Language): Promise<void> {
  const sheet = await readImportSheet(path, (key, params) => fileError(lng, key, params), {
    batch: IMPORT_BATCH,
    onRows: async () => {},
  });
  if (sheet.count === 0) throw fileError(lng, "empty");
}

/**
 * Checks a file of an entity's records, a batch at a time as it is read; with options.write (a confirm),
 * writes each batch once checked while the file has had no problem. A file that cannot be read is a 400.
 */
export async function check(
  db: Queryable,
  ctx: Ctx,
  model: EntityModel,
  path: string,
  options: CheckOptions = {},
): Promise<Checked> {
  const file = new FileCheck(db, ctx, model, options.mapping ?? {});
  let created = 0;
  const sheet = await readImportSheet(path, (key, params) => fileError(ctx.lng, key, params), {
    batch: IMPORT_BATCH,
    async onRows(header, rows, read) {
      if (!file.bound) file.bind(header);
      const records = await file.batch(rows);
      if (options.write && records.length && !file.problemCount) {
        const written = await options.write(records);
        created += written.created;
        file.report(written.problems);
      }
      options.progress?.({ rows: file.rows, read });
    },
  });
  if (sheet.count === 0) throw fileError(ctx.lng, "empty");
  const clean = file.problemCount === 0;
  return {
    rows: file.rows,
    headers: file.headers,
    created: clean ? created : 0,
    skipped: clean ? file.skipped : 0,
    problems: file.problems,
    problemCount: file.problemCount,
  };
}

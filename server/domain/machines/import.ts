// Device import (SPEC §7 machine-import-template, -check, -confirm). The template is an XLSX workbook
// (exceljs) with one column per importable field, headed in the caller's language, a sample row and a
// sheet of notes. A file (that workbook, or a CSV saved from it) is read by its headers (in any of the five
// languages, or the field names), so a file filled in one language checks in another; a header in words of
// the file's own is mapped by hand (`mapping`, remembered per user once a confirm succeeds, as for every
// import). Related records are named, not numbered: a model, spec or protocol by its name (a protocol also
// by its code), an outlet by its name among the caller's outlets. The check reports every problem by row and column in the caller's language; it looks
// everything up in a fixed number of statements whatever the number of rows (one per related entity, one
// for the live devices), so 10,000 rows take seconds. Confirm checks again and writes every row or none in
// one transaction; a row whose device already exists with the same values is skipped, so a file confirmed
// twice creates its devices once.
import ExcelJS from "exceljs";
import type { Queryable } from "../../db/db.ts";
import { inTransaction, scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import { entitySchemas } from "../../../src/generated/schemas.ts";
import { validationErrors, validatorFor } from "../../entities/validation.ts";
import { badRequest, HttpError } from "../../core/errors.ts";
import { LANGUAGES, translate, type Language } from "../../core/i18n.ts";
import type { FileIntake, FileIntakes, Handlers } from "../area.ts";
import { IMPORT_LIMITS, quoted, readImportSheet, type Problem } from "../../entities/import/file.ts";
import { addNotes } from "../../entities/import/template.ts";
import { entityKeyBase, entityNameKey, enumKey, fieldLabelKey } from "../../../src/schema/keys.ts";
import * as store from "./import-store.ts";
import { byNames, importLock } from "../../entities/import/store.ts";
import { writeRecords } from "../../entities/import/write.ts";
import { normal } from "../../entities/import/columns.ts";
import { mappingFor, rememberMapping } from "../../entities/import/mapping.ts";
import { DEVICE_IMPORT_FIELDS } from "../../../src/schema/imports.ts";
import type { Mapping } from "../../entities/import/check.ts";

/**
 * The most rows a device file may hold (the device import reads a file whole before checking it), and
 * its largest file (10,000 rows of the template are about 400 KB).
 */
export const DEVICE_LIMITS = { rows: 10_000, bytes: 10 * 1024 * 1024 };

const NS = "machine_import";

interface Column {
  /** The column's key in the file's notes and the answer ("model"), and the machine field it fills. */
  key: string;
  field: string;
  width: number;
  /** The machine schema's: the field is required, and the entity it points at (named by text in the file). */
  required: boolean;
  relation?: string;
}

const machine = () => modelOf("machine");

/** Each column's key in the notes and the answer ("model"), and its width in the template. */
const LAYOUT: Record<(typeof DEVICE_IMPORT_FIELDS)[number], { key: string; width: number }> = {
  mac_name: { key: "mac_name", width: 20 },
  mac_id: { key: "mac_id", width: 22 },
  kind: { key: "kind", width: 18 },
  model_id: { key: "model", width: 18 },
  spec_id: { key: "spec", width: 14 },
  protocol_id: { key: "protocol", width: 16 },
  shop_id: { key: "shop", width: 24 },
  room_number: { key: "room_number", width: 14 },
  expiry_date: { key: "expiry_date", width: 14 },
  remark: { key: "remark", width: 30 },
};

/** The file's columns in order; whether each is required and what it names come from the machine schema. */
const COLUMNS: Column[] = DEVICE_IMPORT_FIELDS.map((field) => ({
  field,
  ...LAYOUT[field],
  required: (entitySchemas.machine.required ?? []).includes(field),
  relation: entitySchemas.machine.properties[field]?.["x-relation"]?.entity,
}));

const labelOf = (lng: Language, column: Column) =>
  translate(lng, fieldLabelKey(entityKeyBase("machine"), column.field));
const kindLabel = (lng: Language, kind: string) => translate(lng, enumKey(entityKeyBase("machine"), "kind", kind));
const kinds = (): string[] => machine().fields.get("kind")!.node.enum as string[];

interface ParsedRow {
  row: number;
  values: Map<Column, string>;
}

// ---------------------------------------------------------------- the template

export async function templateWorkbook(db: Queryable, ctx: Ctx): Promise<ExcelJS.Buffer> {
  const lng = ctx.lng;
  const t = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:${key}`, params);
  // The sample names real records the caller may use, so it passes the check as it is.
  const sample: Record<string, string> = {
    mac_name: "VM-0001",
    mac_id: "864512051234567",
    kind: kindLabel(lng, "vending"),
    model: await store.firstName(db, "machine_model"),
    spec: await store.firstName(db, "machine_spec"),
    protocol: await store.firstName(db, "machine_protocol"),
    shop: await store.firstName(db, "shop", scopeOf(ctx.principal)),
    room_number: "B1",
    expiry_date: "2027-12-31",
    remark: t("template.sampleRemark"),
  };

  const workbook = new ExcelJS.Workbook();
  workbook.creator = "merchant console";
  const sheet = workbook.addWorksheet(t("template.devices"), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({ header: labelOf(lng, c), key: c.key, width: c.width }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  COLUMNS.forEach((c, i) => {
    if (c.required) header.getCell(i + 1).font = { bold: true, color: { argb: "FFC00000" } };
    // Text cells: a hardware id of digits stays text, not a number in scientific notation.
    sheet.getColumn(i + 1).numFmt = "@";
  });
  sheet.addRow(sample).font = { italic: true, color: { argb: "FF808080" } };

  const allowedKinds = kinds()
    .map((k) => kindLabel(lng, k))
    .join(", ");
  addNotes(
    workbook,
    t,
    COLUMNS.map((column) => ({
      column: labelOf(lng, column),
      required: column.required,
      rule: t(`template.rules.${column.key}`, { kinds: allowedKinds }),
    })),
  );
  return workbook.xlsx.writeBuffer();
}

// ---------------------------------------------------------------- reading a file

const fileError = (lng: Language, key: string, params: Record<string, unknown> = {}) =>
  badRequest([{ field: "file", keyword: key, message: translate(lng, `${NS}:errors.${key}`, params) }]);

/** The file as the check reads it: its rows by column, the problems of its header row, each header's field. */
export interface ParsedFile {
  rows: ParsedRow[];
  problems: Problem[];
  present: Set<Column>;
  headers: { header: string; field: string | null }[];
}

/** A file as read, before its headers are bound (the user's mapping comes with the call, or from the database). */
export interface ReadFile {
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/** Every header text a column may carry: its label in each language, its key and its field name. */
const HEADERS: Map<string, Column> = new Map(
  COLUMNS.flatMap((c) => [
    ...LANGUAGES.map((lng) => [normal(labelOf(lng, c)), c] as const),
    [c.key, c] as const,
    [c.field, c] as const,
  ]),
);

/** Reads an arrived file, before the call takes its turn at the database: a 400 for a file it cannot take. */
export async function parse(path: string, lng: Language): Promise<ReadFile> {
  const sheet = await readImportSheet(
    path,
    (key, params) => fileError(lng, key, params),
    undefined,
    DEVICE_LIMITS.rows,
  );
  return { header: sheet.header.cells, rows: sheet.rows };
}

/** Binds a file's columns: by header (a label in any language, its key or field name), else by the mapping. */
export function bind(file: ReadFile, lng: Language, mapping: Mapping = {}): ParsedFile {
  const byIndex = new Map<number, Column>();
  const taken = () => new Set(byIndex.values());
  file.header.forEach((text, index) => {
    const column = HEADERS.get(normal(text));
    if (column && !taken().has(column)) byIndex.set(index, column);
  });
  // Then the user's choices, for headers no name matched, each field once.
  file.header.forEach((text, index) => {
    const column = COLUMNS.find((c) => c.field === mapping[normal(text)]);
    if (!byIndex.has(index) && column && !taken().has(column)) byIndex.set(index, column);
  });
  const problems: Problem[] = [];
  for (const column of COLUMNS)
    if (column.required && !taken().has(column))
      problems.push({
        row: 1,
        column: labelOf(lng, column),
        field: column.field,
        message: translate(lng, `${NS}:problems.columnMissing`),
      });
  const rows: ParsedRow[] = [];
  for (const { row, cells } of file.rows) {
    const values = new Map<Column, string>();
    for (const [index, column] of byIndex) {
      const text = (cells[index] ?? "").trim();
      if (text) values.set(column, text);
    }
    if (values.size) rows.push({ row, values });
  }
  if (rows.length === 0 && problems.length === 0) throw fileError(lng, "empty");
  const headers = file.header
    .map((header, index) => ({ header, field: byIndex.get(index)?.field ?? null }))
    .filter((h) => h.header.trim() !== "");
  return { rows, problems, present: taken(), headers };
}

// ---------------------------------------------------------------- checking

export interface Checked {
  rows: number;
  headers: ParsedFile["headers"];
  /** The records to insert, with the file's row each came from. */
  records: { row: number; values: Record<string, unknown> }[];
  skipped: number;
  problems: Problem[];
}

/** Names -> ids of one related entity, in one statement: lower-cased names, and for protocols codes too. */
async function lookup(db: Queryable, ctx: Ctx, entity: string, names: Set<string>) {
  const ids = new Map<string, number[]>();
  if (names.size === 0) return ids;
  const keys = entity === "machine_protocol" ? ["name", "code"] : ["name"];
  const rows = await byNames(db, scopeOf(ctx.principal), entity, keys, names);
  for (const row of rows)
    for (const key of new Set(keys.map((k) => String(row[k])))) {
      if (!names.has(key)) continue;
      const list = ids.get(key) ?? [];
      if (!list.includes(Number(row.id))) list.push(Number(row.id));
      ids.set(key, list);
    }
  return ids;
}

export async function check(db: Queryable, ctx: Ctx, file: ParsedFile): Promise<Checked> {
  const lng = ctx.lng;
  const model = machine();
  const { rows, present } = file;
  const problems = [...file.problems];
  const p = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:problems.${key}`, params);
  const add = (row: number, column: Column, message: string) =>
    problems.push({ row, column: labelOf(lng, column), field: column.field, message });

  // Kinds by their value or their label in any language.
  const kindOf = new Map<string, string>();
  for (const kind of kinds()) {
    kindOf.set(kind, kind);
    for (const l of LANGUAGES) kindOf.set(normal(kindLabel(l, kind)), kind);
  }

  // One statement per related entity, whatever the number of rows.
  const relations = COLUMNS.filter((c) => c.relation);
  const found = new Map<Column, Map<string, number[]>>();
  for (const column of relations) {
    const names = new Set(rows.flatMap((r) => (r.values.has(column) ? [normal(r.values.get(column)!)] : [])));
    found.set(column, await lookup(db, ctx, column.relation!, names));
  }

  const byKey = (key: string) => COLUMNS.find((c) => c.key === key)!;
  const validate = validatorFor(model, "create");
  const candidates: { row: number; values: Record<string, unknown> }[] = [];
  for (const { row, values } of rows) {
    const record: Record<string, unknown> = {};
    // A column missing from the file is reported once, on its header row, not on every row.
    const reported = new Set<string>(COLUMNS.filter((c) => !present.has(c)).map((c) => c.field));
    for (const column of COLUMNS) {
      const text = values.get(column);
      if (text === undefined) {
        if (column.required && !reported.has(column.field)) {
          add(row, column, translate(lng, "validation:required", { field: labelOf(lng, column) }));
          reported.add(column.field);
        }
        continue;
      }
      if (column.key === "kind") {
        const kind = kindOf.get(text) ?? kindOf.get(normal(text));
        if (kind) record.kind = kind;
        else {
          add(
            row,
            column,
            p("badValue", {
              value: quoted(text),
              allowed: kinds()
                .map((k) => kindLabel(lng, k))
                .join(", "),
            }),
          );
          reported.add(column.field);
        }
      } else if (column.relation) {
        const ids = found.get(column)!.get(normal(text)) ?? [];
        const entity = translate(lng, entityNameKey(column.relation));
        if (ids.length === 1) record[column.field] = ids[0];
        else {
          add(row, column, p(ids.length ? "ambiguous" : "unknown", { entity, value: quoted(text) }));
          reported.add(column.field);
        }
      } else record[column.field] = text;
    }
    // The machine schema's own rules (patterns, lengths, dates), in its words.
    for (const error of validationErrors(model, validate, record, lng)) {
      const field = error.field.split("/")[0];
      const column = COLUMNS.find((c) => c.field === field);
      if (!column || reported.has(field)) continue;
      reported.add(field);
      add(row, column, error.message);
    }
    candidates.push({ row, values: record });
  }

  // Duplicates within the file: a device code or hardware id met on an earlier row.
  for (const key of ["mac_name", "mac_id"]) {
    const column = byKey(key);
    const first = new Map<string, number>();
    for (const { row, values } of rows) {
      const value = values.get(column);
      if (value === undefined) continue;
      const earlier = first.get(value);
      if (earlier === undefined) first.set(value, row);
      else add(row, column, p("duplicateInFile", { value: quoted(value), row: earlier }));
    }
  }

  // Against the live devices, everyone's (codes are unique among them all), in one statement.
  const macNames = rows.flatMap((r) => r.values.get(byKey("mac_name")) ?? []);
  const macIds = rows.flatMap((r) => r.values.get(byKey("mac_id")) ?? []);
  const live = await store.liveDevices(db, macNames, macIds);
  const liveByName = new Map(live.map((m) => [m.mac_name, m]));
  const liveById = new Map(live.map((m) => [m.mac_id, m]));
  const scope = scopeOf(ctx.principal);
  const records: Checked["records"] = [];
  let skipped = 0;
  const failed = new Set(problems.map((x) => x.row));
  for (const candidate of candidates) {
    const v = candidate.values;
    const byName = typeof v.mac_name === "string" ? liveByName.get(v.mac_name) : undefined;
    const byId = typeof v.mac_id === "string" ? liveById.get(v.mac_id) : undefined;
    if (!byName && !byId) {
      if (!failed.has(candidate.row)) records.push(candidate);
      continue;
    }
    // The same device with the same values, one the caller sees: imported already.
    const same =
      byName &&
      byName === byId &&
      (scope.path === undefined || byName.agent_path.startsWith(scope.path)) &&
      byName.kind === v.kind &&
      Number(byName.model_id) === v.model_id &&
      Number(byName.spec_id) === v.spec_id &&
      Number(byName.protocol_id) === v.protocol_id &&
      (byName.shop_id === null ? undefined : Number(byName.shop_id)) === v.shop_id;
    if (same) {
      if (!failed.has(candidate.row)) skipped++;
      continue;
    }
    if (byName) add(candidate.row, byKey("mac_name"), p("duplicateLive", { value: quoted(String(v.mac_name)) }));
    if (byId) add(candidate.row, byKey("mac_id"), p("duplicateLive", { value: quoted(String(v.mac_id)) }));
  }
  const order = new Map(COLUMNS.map((c, i) => [c.field, i]));
  problems.sort((a, b) => a.row - b.row || order.get(a.field)! - order.get(b.field)!);
  return {
    rows: rows.length,
    headers: file.headers,
    records: problems.length ? [] : records,
    skipped: problems.length ? 0 : skipped,
    problems,
  };
}

const answer = (checked: Checked, created: number) => ({
  rows: checked.rows,
  headers: checked.headers,
  created,
  skipped: checked.skipped,
  problem_count: checked.problems.length,
  problems: checked.problems.slice(0, IMPORT_LIMITS.problems),
});

// ---------------------------------------------------------------- writing

/** Both calls take the file the same way: up to DEVICE_LIMITS.bytes, read before their turn. */
const importFile: FileIntake<unknown> = {
  limit: async (ctx) => ({
    bytes: DEVICE_LIMITS.bytes,
    tooLarge: () => fileError(ctx.lng, "tooLarge", { limit: `${DEVICE_LIMITS.bytes / 1024 / 1024} MB` }),
    missing: () => fileError(ctx.lng, "missing"),
  }),
  prepare: (ctx, file) => parse(file.path, ctx.lng),
};

export const importFiles: FileIntakes = {
  "machine-import-check": importFile,
  "machine-import-confirm": importFile,
};

const readOf = (file: { prepared?: unknown } | undefined) => file!.prepared as ReadFile;
const inputMapping = (input: unknown) => (input as { mapping?: string }).mapping;

export const importHandlers: Handlers = {
  "machine-import-template": async ({ ctx, reply }) => {
    const file = await templateWorkbook(sqlOf(ctx), ctx);
    const name = `${translate(ctx.lng, `${NS}:template.fileName`)}.xlsx`;
    return reply
      .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
      .header(
        "content-disposition",
        `attachment; filename="device-import-template.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .send(Buffer.from(file));
  },
  "machine-import-check": async ({ ctx, file, input }) => {
    const mapping = await mappingFor(sqlOf(ctx), ctx, "machine", [...DEVICE_IMPORT_FIELDS], inputMapping(input));
    return answer(await check(sqlOf(ctx), ctx, bind(readOf(file), ctx.lng, mapping)), 0);
  },
  "machine-import-confirm": async ({ ctx, file, input }) =>
    // The file was read before this call took its turn: the transaction holds only statements.
    inTransaction(ctx, async (ctx) => {
      // One import at a time: two confirms of one file cannot both find its devices absent.
      await importLock(ctx.tx, "machine");
      const mapping = await mappingFor(ctx.tx, ctx, "machine", [...DEVICE_IMPORT_FIELDS], inputMapping(input));
      const checked = await check(ctx.tx, ctx, bind(readOf(file), ctx.lng, mapping));
      if (checked.problems.length)
        throw new HttpError(400, `${NS}:errors.problems`, { count: checked.problems.length }, answer(checked, 0));
      const { ids, refused } = await writeRecords(ctx, machine(), checked.records, "mac_name");
      // A device added by hand between the check and the insert (machine-add takes no import lock): the
      // unique index refused its row, and nothing is written.
      if (refused.length) {
        const problems = refused.map(({ index, field, message }) => {
          const { row, values } = checked.records[index];
          const column = COLUMNS.find((c) => c.field === field) ?? COLUMNS[0];
          const value = quoted(String(values[column.field] ?? ""));
          return {
            row,
            column: labelOf(ctx.lng, column),
            field: column.field,
            message: message ?? translate(ctx.lng, `${NS}:problems.duplicateLive`, { value }),
          };
        });
        const failed = { ...checked, problems, skipped: 0, records: [] };
        throw new HttpError(400, `${NS}:errors.problems`, { count: problems.length }, answer(failed, 0));
      }
      // What the user chose this time is remembered (one read from memory is there already).
      if (inputMapping(input) !== undefined) await rememberMapping(ctx.tx, ctx.principal, "machine", mapping);
      return answer(checked, ids.length);
    }),
};

// Export calls: the list's filters and the caller's scope, every matching row (up to a limit), read like
// the list on screen: its default columns in its order, headers in the caller's language, related
// records by their titles (agent, outlet, device, page, application), enum values and yes/no as words,
// times as date cells at the business's clock (the zone named in the header), calendar days as date
// cells, money as an amount (minor units / 100) in the business's currency format, fractions as a
// percentage. An XLSX workbook by default (xlsx-stream.ts: the sheet deflated into the ZIP as it is
// written), CSV with format=csv (with a BOM so spreadsheet programs read UTF-8: Khmer, Thai, Chinese).
// Rows are read a page at a time by keyset, with the titles the page points at, and written to the reply
// as they come, so a long export never sits whole in memory. A text cell that a spreadsheet would take
// for a formula (= + - @, tab, CR) is neutralised with a leading apostrophe, in both formats.
import type { FastifyReply } from "fastify";
import { PassThrough } from "node:stream";
import type { Ctx } from "./context.ts";
import { scopeOf, sqlOf } from "./context.ts";
import { derive } from "./engine.ts";
import type { EntityModel, Field } from "../model/model.ts";
import * as repo from "./repository.ts";
import type { ListQuery, Row } from "./repository.ts";
import { titlesOf, type Titles } from "./titles.ts";
import { translate } from "../core/i18n.ts";
import { XlsxStream } from "./xlsx-stream.ts";
import { HttpError } from "../core/errors.ts";
import { Gate } from "../core/gate.ts";
import { amountText, toMajor } from "../core/money.ts";
import { wallClock, zoneOffset } from "../core/zone.ts";
import { BUSINESS_TIME_ZONE } from "../db/rollups.ts";
import { currencyOf } from "../db/settings.ts";
import { defsSchema } from "../../src/generated/schemas.ts";
import { commonFieldKey, entityNameKey, enumKey, fieldLabelKey } from "../../src/schema/keys.ts";
import { intlLocale } from "../../src/schema/money.ts";
import { resolveDefs } from "../../src/schema/refs.ts";
import type { JsonSchemaNode } from "../../src/schema/types.ts";

/**
 * The most rows one export holds, and the rows read per statement (tests lower it to cross pages); the
 * exports one server writes at once (the others wait their turn, at most `waiting` of them; past that a
 * 503), and each caller one at a time (a second while the first runs is a 429). Ten 200,000-row exports
 * at once kept every other call at 2 to 10 s for two minutes without these limits.
 */
export const EXPORT = { limit: 200_000, page: 2_000, atOnce: 2, waiting: 16 };

/** Per database (one per server): the exports at work and the callers who have one running. */
const running = new WeakMap<object, { gate: Gate; callers: Set<string> }>();

/** A place to write an export, or the refusal; resolves with the function that gives the place back. */
async function exportPlace(ctx: Ctx): Promise<() => void> {
  let places = running.get(ctx.db);
  if (!places) running.set(ctx.db, (places = { gate: new Gate(EXPORT.atOnce), callers: new Set() }));
  const caller = `${ctx.principal.kind}:${ctx.principal.id}`;
  if (places.callers.has(caller)) throw new HttpError(429, "exportRunning");
  if (places.gate.queued >= EXPORT.waiting) throw new HttpError(503, "busy");
  places.callers.add(caller);
  // Waiting for a place holds no turn at the database.
  ctx.turn?.leave();
  const leave = await places.gate.enter();
  let left = false;
  return () => {
    if (left) return;
    left = true;
    places.callers.delete(caller);
    leave();
  };
}

export type ExportFormat = "xlsx" | "csv";

/** A text a spreadsheet would run as a formula, made plain text. */
export const neutralise = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** What a cell shows as: a number (amounts, counts, fractions, times as date serials) or text. */
type Cell = string | number | null;

/** How the export's words and figures read: the caller's language, the business's zone and currency. */
interface Reading {
  lng: Ctx["lng"];
  zone: string;
  currency?: string;
}

interface ColumnOf {
  name: string;
  header: string;
  width: number;
  /** The XLSX number format of its cells (amounts, percentages, dates); none: General. */
  numFmt?: string;
  /** Shown on rows whose fields hold these values only (x-ui.when: a vending device's stock). */
  when?: Record<string, (string | number)[]>;
  /** The XLSX cell of a value: a number where it is a figure or a time, else text. */
  cell: (value: unknown, titles: Titles) => Cell;
  /** The CSV text of a value. */
  text: (value: unknown, titles: Titles) => string;
}

/** Days between the spreadsheet's epoch (1899-12-30) and 1970-01-01. */
const EPOCH_DAYS = 25_569;
const DAY_MS = 86_400_000;
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";
const DATE_FORMAT = "yyyy-mm-dd";
const MONEY_FORMAT = "#,##0.00";

/** Whether a row's fields hold the values `when` names (x-ui.when), as the console's list reads it. */
const holds = (row: Row, when: Record<string, (string | number)[]>): boolean =>
  Object.entries(when).every(([field, values]) => values.includes(row[field] as string | number));

/** Runs a read with the call's turn at the database. */
async function withTurn<T>(ctx: Ctx, read: () => Promise<T>): Promise<T> {
  await ctx.turn?.take();
  try {
    return await read();
  } finally {
    ctx.turn?.leave();
  }
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === "";
const msOf = (value: unknown): number => (value instanceof Date ? value.getTime() : Date.parse(String(value)));
/** An instant as the zone's clock reads it, "2026-11-20 12:30:00"; a value that is no time as it is. */
function timeText(value: unknown, zone: string): string {
  const ms = msOf(value);
  return Number.isNaN(ms) ? String(value) : new Date(wallClock(ms, zone)).toISOString().slice(0, 19).replace("T", " ");
}
/** An instant as a date cell's serial (days since 1899-12-30) at the zone's clock; null for no time. */
function timeSerial(value: unknown, zone: string): number | null {
  const ms = msOf(value);
  return Number.isNaN(ms) ? null : wallClock(ms, zone) / DAY_MS + EPOCH_DAYS;
}
/** A calendar day ("2026-11-25") as the milliseconds of its midnight, read in UTC. */
const dayMs = (value: unknown): number => Date.parse(`${String(value).slice(0, 10)}T00:00:00Z`);
/** A text in a number format: quoted, its own quotes dropped. */
const quoted = (text: string): string => (text ? `"${text.replaceAll('"', "")}"` : "");

/** What stands before and after a number in a text made with `make` ("$", ""; "", " / kWh"). */
function affixes(make: (marker: string) => string): { before: string; after: string } {
  const marker = "\u0000";
  const [before = "", after = ""] = make(marker).split(marker);
  return { before, after };
}

/** An amount's number format: the business's currency as the caller's language writes it, the unit after. */
function moneyFormat(reading: Reading, unit: string | undefined): string {
  let before = "";
  let after = "";
  if (reading.currency) {
    const parts = new Intl.NumberFormat(intlLocale(reading.lng), {
      style: "currency",
      currency: reading.currency,
    }).formatToParts(1);
    const number = parts.findIndex((p) => p.type === "integer");
    const join = (from: typeof parts) => from.map((p) => p.value).join("");
    before = join(parts.slice(0, number)).trim();
    after = join(parts.slice(number).filter((p) => p.type === "currency" || p.type === "literal")).trim();
  }
  if (unit) after += affixes((marker) => translate(reading.lng, `common:units.${unit}`, { value: marker })).after;
  return `${quoted(before)}${MONEY_FORMAT}${quoted(after)}`;
}

/** A count's number format with its unit ("60 min"), as the list writes it. */
function unitFormat(reading: Reading, unit: string): string {
  const { before, after } = affixes((marker) =>
    translate(reading.lng, `common:units.${unit}`, { value: marker, count: 2 }),
  );
  return `${quoted(before)}General${quoted(after)}`;
}

/**
 * How a schema value reads as words (nested objects, lists of them, tags, enums): as the list's cell
 * reads it (src/crud/format.ts valueText), every item of a list included.
 */
function wordsOf(
  reading: Reading,
  raw: JsonSchemaNode,
  labelBase: string,
  enumBase: string,
  path: string,
): (value: unknown, titles: Titles) => string {
  const { node, def } = resolveDefs(defsSchema, raw);
  const item = node.items && !Array.isArray(node.items) ? resolveDefs(defsSchema, node.items) : undefined;
  const type = (n: JsonSchemaNode | undefined) => (Array.isArray(n?.type) ? n.type.find((t) => t !== "null") : n?.type);
  const relation = (node["x-relation"] ?? item?.node["x-relation"])?.entity;
  if (relation)
    return (value, titles) =>
      (Array.isArray(value) ? value : [value])
        .map((id) => titles[relation]?.[Number(id)])
        .filter((title) => title !== undefined)
        .join(", ");
  const values = node.enum ?? item?.node.enum;
  if (values) {
    const enumDef = node.enum ? def : item?.def;
    // Each value's words looked up once an export (i18next's lookup is the costliest part of a cell).
    const said = new Map<string | number, string>();
    const say = (v: string | number) => {
      let words = said.get(v);
      if (words === undefined) said.set(v, (words = translate(reading.lng, enumKey(enumBase, path, v, enumDef))));
      return words;
    };
    return (value) => (Array.isArray(value) ? value.map(say).join(", ") : say(value as string | number));
  }
  if (node["x-money"]) return (value) => amountText(Math.round(Number(value)), reading.lng, reading.currency);
  if (node["x-fraction"]) return (value) => `${Number((Number(value) * 100).toFixed(4))}%`;
  if (type(node) === "boolean") {
    const [yes, no] = [translate(reading.lng, "common:yes"), translate(reading.lng, "common:no")];
    return (value) => (value ? yes : no);
  }
  if (node.format === "date-time") return (value) => timeText(value, reading.zone);
  const nested =
    type(node) === "object" ? node : type(node) === "array" && type(item?.node) === "object" ? item!.node : undefined;
  if (nested?.properties) {
    const children = Object.entries(nested.properties)
      .sort(([, a], [, b]) => (a["x-ui"]?.order ?? 1000) - (b["x-ui"]?.order ?? 1000))
      .map(([name, child]) => ({
        name,
        label: translate(reading.lng, `${labelBase}fields.${name}.label`),
        words: wordsOf(reading, child, `${labelBase}fields.${name}.`, enumBase, `${path}.${name}`),
      }));
    const one = (object: Row, titles: Titles, labelled: boolean) =>
      children
        .filter((child) => !isEmpty(object?.[child.name]))
        .map((child) => {
          const words = child.words(object[child.name], titles);
          return labelled ? `${child.label}: ${words}` : words;
        })
        .join(" · ");
    return type(node) === "object"
      ? (value, titles) => (typeof value === "object" ? one(value as Row, titles, true) : String(value))
      : (value, titles) =>
          Array.isArray(value) ? value.map((v: Row) => one(v, titles, false)).join("; ") : String(value);
  }
  return (value) =>
    Array.isArray(value)
      ? value.map(String).join(", ")
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
}

/**
 * The list's default columns as the console shows them (src/crud/list/columns.tsx): the schema's list
 * columns (x-ui.column, not hidden) in their order, then the creation time; the record's number, hidden
 * on screen until asked for, is not among them. Headers in the caller's language, a time's naming the
 * business's zone.
 */
function columnsOf(reading: Reading, model: EntityModel): ColumnOf[] {
  const { lng, zone } = reading;
  const zoneNamed = (label: string) => translate(lng, "common:list.timeInZone", { label, zone: zoneOffset(zone) });
  // The x-ui a defs reference's keywords refine, as the console reads it (src/crud/model.ts).
  const uiOf = (f: Field) => f.node["x-ui"] ?? {};
  const listed = [...model.fields.values()]
    .filter((f) => uiOf(f).column && !uiOf(f).hidden && !model.writeOnly.has(f.name))
    .sort((a, b) => (uiOf(a).order ?? 1000) - (uiOf(b).order ?? 1000));
  const columns = listed.map((f): ColumnOf => {
    const node = f.node;
    const ui = uiOf(f);
    const label = translate(lng, fieldLabelKey(model.base, f.name));
    const base = { name: f.name, header: label, width: ui.width ? Math.round(ui.width / 7) : 14, when: ui.when };
    const figure = !node.enum && !node["x-relation"];
    if (figure && node["x-money"])
      return {
        ...base,
        numFmt: moneyFormat(reading, ui.unit),
        cell: (v) => toMajor(Math.round(Number(v))),
        text: (v) => toMajor(Math.round(Number(v))).toFixed(2),
      };
    if (figure && node["x-fraction"])
      return {
        ...base,
        numFmt: "0.00%",
        cell: (v) => Number(v),
        text: (v) => `${(Number(v) * 100).toFixed(2)}%`,
      };
    if (figure && (f.kind === "integer" || f.kind === "number"))
      return {
        ...base,
        numFmt: ui.unit ? unitFormat(reading, ui.unit) : undefined,
        cell: (v) => Number(v),
        text: (v) => String(Number(v)),
      };
    if (f.kind === "datetime") return timeColumn(reading, { ...base, header: zoneNamed(label), width: 19 });
    if (f.kind === "date")
      return {
        ...base,
        width: 12,
        numFmt: DATE_FORMAT,
        cell: (v) => (Number.isNaN(dayMs(v)) ? String(v) : dayMs(v) / DAY_MS + EPOCH_DAYS),
        text: (v) => String(v).slice(0, 10),
      };
    const words = wordsOf(reading, model.schema.properties[f.name], model.base, model.base, f.name);
    return {
      ...base,
      width: ui.width ? base.width : 20,
      cell: (v, t) => neutralise(words(v, t)),
      text: (v, t) => neutralise(words(v, t)),
    };
  });
  const created = translate(lng, commonFieldKey("created_at"));
  return [...columns, timeColumn(reading, { name: "created_at", header: zoneNamed(created), width: 19 })];
}

/** A column of instants: date cells at the business's clock, "2026-11-20 12:30:00" in CSV. */
function timeColumn(reading: Reading, base: Pick<ColumnOf, "name" | "header" | "width" | "when">): ColumnOf {
  return {
    ...base,
    numFmt: DATE_TIME_FORMAT,
    cell: (v) => timeSerial(v, reading.zone),
    text: (v) => timeText(v, reading.zone),
  };
}

/** A row's cells in the columns' order: empty where the row has no value or the column is not its kind's. */
function cellsOf<T>(
  columns: ColumnOf[],
  row: Row,
  titles: Titles,
  of: (column: ColumnOf, value: unknown, titles: Titles) => T,
  empty: T,
): T[] {
  return columns.map((column) => {
    const value = row[column.name];
    if (isEmpty(value) || (column.when && !holds(row, column.when))) return empty;
    return of(column, value, titles);
  });
}

/** A page of the export: its rows and the titles of the records they point at. */
interface Page {
  rows: Row[];
  titles: Titles;
}

/**
 * The matching rows, a page at a time, in the list's order, up to EXPORT.limit, with the titles of the
 * records each page points at (one statement a page). Each page takes the call's turn at the database and
 * leaves it once read, so an export whose client reads slowly (or never) holds no turn while it waits for
 * the client.
 */
async function* rowsOf(ctx: Ctx, model: EntityModel, query: ListQuery): AsyncGenerator<Page> {
  let after: Row | undefined;
  let written = 0;
  while (written < EXPORT.limit) {
    const limit = Math.min(EXPORT.page, EXPORT.limit - written);
    await ctx.turn?.take();
    let rows: Row[];
    let titles: Titles = {};
    try {
      rows = await repo.listAfter(sqlOf(ctx), model, scopeOf(ctx.principal), query, after, limit);
      if (rows.length) {
        await derive(ctx, model, rows);
        titles = await titlesOf(sqlOf(ctx), model, rows);
      }
    } finally {
      ctx.turn?.leave();
    }
    if (rows.length === 0) return;
    after = rows[rows.length - 1];
    yield { rows, titles };
    written += rows.length;
    if (rows.length < limit) return;
  }
}

/**
 * Waits until the stream wants more, so a slow client holds one page, not the whole export; a client
 * that went away ends the export (no more pages are read).
 */
function drained(stream: PassThrough): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error("export: the download was closed"));
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => (stream.off("close", onClose), resolve());
    const onClose = () => (stream.off("drain", onDrain), reject(new Error("export: the download was closed")));
    stream.once("drain", onDrain);
    stream.once("close", onClose);
  });
}

type Pages = AsyncIterable<Page>;

async function writeCsv(reading: Reading, model: EntityModel, pages: Pages, out: PassThrough): Promise<void> {
  const columns = columnsOf(reading, model);
  out.write(`\uFEFF${columns.map((c) => csvCell(neutralise(c.header))).join(",")}\r\n`);
  const text = (column: ColumnOf, value: unknown, titles: Titles) => csvCell(column.text(value, titles));
  for await (const { rows, titles } of pages) {
    out.write(rows.map((row) => cellsOf(columns, row, titles, text, "").join(",") + "\r\n").join(""));
    await drained(out);
  }
}

async function writeXlsx(reading: Reading, model: EntityModel, pages: Pages, out: PassThrough): Promise<void> {
  const columns = columnsOf(reading, model);
  const sheet = new XlsxStream(
    out,
    translate(reading.lng, entityNameKey(model.name)),
    columns.map((c) => ({ header: neutralise(c.header), width: c.width, numFmt: c.numFmt })),
  );
  const cell = (column: ColumnOf, value: unknown, titles: Titles) => column.cell(value, titles);
  for await (const { rows, titles } of pages) {
    sheet.addRows(rows.map((row) => cellsOf<Cell>(columns, row, titles, cell, null)));
    await drained(out);
  }
  sheet.end();
}

/**
 * Sends the export as a download, streamed: the reply starts with the first page and ends with the last.
 * A failure after the headers are sent can only cut the download short (the client sees a broken file).
 */
export async function sendExport(
  ctx: Ctx,
  model: EntityModel,
  query: ListQuery,
  format: ExportFormat,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const date = new Date().toISOString().slice(0, 10);
  const title = translate(ctx.lng, entityNameKey(model.name));
  const done = await exportPlace(ctx);
  // A client that went away while the export waited for its place: nobody is there to answer.
  if (reply.raw.destroyed || reply.raw.closed) {
    done();
    throw new HttpError(503, "busy");
  }
  const out = new PassThrough();
  // The place is given back when the download ends, fails or is closed by the client.
  out.once("close", done);
  reply.raw.once("close", done);
  const write = format === "csv" ? writeCsv : writeXlsx;
  // The first page is read before the reply starts, so a failing statement is still a proper error.
  const pages = rowsOf(ctx, model, query);
  let peek: IteratorResult<Page>;
  let reading: Reading;
  try {
    peek = await pages.next();
    reading = { lng: ctx.lng, zone: BUSINESS_TIME_ZONE, currency: await withTurn(ctx, () => currencyOf(sqlOf(ctx))) };
  } catch (error) {
    done();
    throw error;
  }
  const all = async function* (): AsyncGenerator<Page> {
    if (!peek.done) yield peek.value;
    yield* pages;
  };
  void write(reading, model, all(), out).then(
    () => {
      // The XLSX writer ends the stream with its last chunk; CSV here.
      if (!out.writableEnded) out.end();
    },
    (error: Error) => out.destroy(error),
  );
  return reply
    .header(
      "content-type",
      format === "csv"
        ? "text/csv; charset=utf-8"
        : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    .header(
      "content-disposition",
      `attachment; filename="${model.name}-${date}.${format}"; filename*=UTF-8''${encodeURIComponent(`${title}-${date}.${format}`)}`,
    )
    .send(out);
}

// Export calls: the list's filters and the caller's scope, every matching row (up to a limit), the list
// columns with their headers in the caller's language. An XLSX workbook by default (xlsx-stream.ts: the
// sheet deflated into the ZIP as it is written), CSV with format=csv (with a BOM so spreadsheet programs read UTF-8: Khmer, Thai, Chinese).
// Rows are read a page at a time by keyset and written to the reply as they come, so a long export
// never sits whole in memory. Money is an amount (minor units / 100, a number shown with two decimals),
// fractions a percentage; a text cell that a spreadsheet would take for a formula (= + - @, tab, CR)
// is neutralised with a leading apostrophe, in both formats.
import type { FastifyReply } from "fastify";
import { PassThrough } from "node:stream";
import type { Ctx } from "./context.ts";
import { scopeOf, sqlOf } from "./context.ts";
import { derive } from "./engine.ts";
import type { EntityModel, Field } from "../model/model.ts";
import * as repo from "./repository.ts";
import type { ListQuery, Row } from "./repository.ts";
import { translate } from "../core/i18n.ts";
import { XlsxStream } from "./xlsx-stream.ts";
import { HttpError } from "../core/errors.ts";
import { Gate } from "../core/gate.ts";
import { toMajor } from "../core/money.ts";
import { entityNameKey, enumKey, fieldLabelKey } from "../../src/schema/keys.ts";
import { definitionName } from "../../src/schema/refs.ts";

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

interface ColumnOf {
  name: string;
  field?: Field;
  header: string;
  kind: "id" | "money" | "fraction" | "text" | "number";
}

function columnsOf(ctx: Ctx, model: EntityModel): ColumnOf[] {
  const fields = [...model.fields.values()]
    .filter((f) => model.schema.properties[f.name]["x-ui"]?.column && !model.writeOnly.has(f.name))
    .sort(
      (a, b) =>
        (model.schema.properties[a.name]["x-ui"]?.order ?? 0) - (model.schema.properties[b.name]["x-ui"]?.order ?? 0),
    );
  return [
    { name: "id", header: "ID", kind: "id" },
    ...fields.map((f): ColumnOf => {
      const kind = f.node["x-money"]
        ? "money"
        : f.node["x-fraction"]
          ? "fraction"
          : (f.node.type === "integer" || f.node.type === "number") && !f.node.enum
            ? "number"
            : "text";
      return { name: f.name, field: f, header: translate(ctx.lng, fieldLabelKey(model.base, f.name)), kind };
    }),
  ];
}

/** A cell's value: a number for ids, amounts, fractions and counts; otherwise neutralised text. */
function valueOf(ctx: Ctx, model: EntityModel, column: ColumnOf, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case "id":
    case "number":
      return Number(value);
    case "money":
      return toMajor(Math.round(Number(value)));
    case "fraction":
      return Number(value);
  }
  const field = column.field!;
  let text: string;
  if (field.node.enum) {
    const ref = model.schema.properties[column.name].$ref;
    text = translate(ctx.lng, enumKey(model.base, column.name, String(value), definitionName(ref)));
  } else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  return neutralise(text);
}

/**
 * The matching rows, a page at a time, in the list's order, up to EXPORT.limit. Each page takes the call's
 * turn at the database and leaves it once read, so an export whose client reads slowly (or never) holds
 * no turn while it waits for the client.
 */
async function* rowsOf(ctx: Ctx, model: EntityModel, query: ListQuery): AsyncGenerator<Row[]> {
  let after: Row | undefined;
  let written = 0;
  while (written < EXPORT.limit) {
    const limit = Math.min(EXPORT.page, EXPORT.limit - written);
    await ctx.turn?.take();
    let rows: Row[];
    try {
      rows = await repo.listAfter(sqlOf(ctx), model, scopeOf(ctx.principal), query, after, limit);
      if (rows.length) await derive(ctx, model, rows);
    } finally {
      ctx.turn?.leave();
    }
    if (rows.length === 0) return;
    after = rows[rows.length - 1];
    yield rows;
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

type Pages = AsyncIterable<Row[]>;

async function writeCsv(ctx: Ctx, model: EntityModel, pages: Pages, out: PassThrough): Promise<void> {
  const columns = columnsOf(ctx, model);
  out.write(`\uFEFF${columns.map((c) => csvCell(neutralise(c.header))).join(",")}\r\n`);
  for await (const rows of pages) {
    const lines = rows.map(
      (row) =>
        columns
          .map((c) => {
            const value = valueOf(ctx, model, c, row[c.name]);
            if (typeof value === "number" && c.kind === "money") return csvCell(value.toFixed(2));
            if (typeof value === "number" && c.kind === "fraction") return csvCell(`${(value * 100).toFixed(2)}%`);
            return csvCell(value);
          })
          .join(",") + "\r\n",
    );
    out.write(lines.join(""));
    await drained(out);
  }
}

async function writeXlsx(ctx: Ctx, model: EntityModel, pages: Pages, out: PassThrough): Promise<void> {
  const columns = columnsOf(ctx, model);
  const sheet = new XlsxStream(
    out,
    translate(ctx.lng, entityNameKey(model.name)),
    columns.map((c) => ({
      header: neutralise(c.header),
      width: c.kind === "text" ? 20 : 14,
      format: c.kind === "money" ? "money" : c.kind === "fraction" ? "percent" : c.kind === "text" ? "text" : "number",
    })),
  );
  for await (const rows of pages) {
    sheet.addRows(rows.map((row) => columns.map((c) => valueOf(ctx, model, c, row[c.name]))));
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
  let peek: IteratorResult<Row[]>;
  try {
    peek = await pages.next();
  } catch (error) {
    done();
    throw error;
  }
  const all = async function* (): AsyncGenerator<Row[]> {
    if (!peek.done) yield peek.value;
    yield* pages;
  };
  void write(ctx, model, all(), out).then(
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

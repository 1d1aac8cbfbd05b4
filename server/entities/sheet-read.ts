// The first sheet of an uploaded spreadsheet, XLSX or CSV, read as a stream and bounded while it reads.
// exceljs's workbook.xlsx.load builds the whole workbook model before anything can be checked, expanding
// every range it meets (<cols>, merged cells, data validations): a 1.7 KB file took the server's heap to
// 4.7 GB. Here nothing is built but the rows asked for. An XLSX is read with yauzl one part at a time (the
// workbook and its relationships to find the first sheet, the shared strings, the styles only to tell
// dates from numbers, then the sheet), each part inflated as a stream into saxes; in the sheet only
// <sheetData>'s rows and cells are looked at: what comes before it (<cols>) streams past unexpanded, and
// what comes after it (merged cells, validations, conditional formats, hyperlinks) is never read. A CSV
// goes through csv-parse's streaming parser. Every limit is checked while reading (bytes of text, rows,
// time, and fixed bounds on single XML nodes, nesting, shared strings, styles, CSV records), and reading
// stops at once, every stream destroyed and the ZIP closed, when one is passed.
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { addAbortSignal, Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse as parseCsv } from "csv-parse";
import { SaxesParser } from "saxes";
import yauzl, { type Entry, type ZipFile } from "yauzl";

export interface SheetLimits {
  /** Data rows (non-empty, after the header row) beyond which reading stops with "tooMany". */
  maxRows: number;
  /** Only columns 0..maxColumns-1 are read (A.. ); cells further right are skipped without being kept. */
  maxColumns: number;
  /** A cell's text is cut to this many characters (the caller's own length rules then refuse it). */
  maxCellChars: number;
  /** Total bytes of XML (or CSV text) read out of the file, all parts together: past it, "tooLarge". */
  maxTextBytes: number;
  /** Wall-clock budget for the whole read: past it, "tooSlow". */
  timeoutMs: number;
}

/**
 * notSheet: not an XLSX or CSV file, or a damaged one (params.reason says what, for logs); empty: no
 * header and no data rows; tooMany: more than maxRows data rows (params.limit); tooLarge: more XML or
 * CSV text than maxTextBytes, or one of the fixed bounds below passed (params.what, params.limit);
 * tooSlow: not read within timeoutMs (params.limit).
 */
export type SheetProblem = "notSheet" | "empty" | "tooMany" | "tooLarge" | "tooSlow";

export class SheetError extends Error {
  readonly problem: SheetProblem;
  readonly params: Record<string, unknown>;

  constructor(problem: SheetProblem, params: Record<string, unknown> = {}, cause?: unknown) {
    super(`spreadsheet: ${problem}${params.reason ? ` (${String(params.reason)})` : ""}`, { cause });
    this.name = "SheetError";
    this.problem = problem;
    this.params = params;
  }
}

export interface SheetRow {
  /** 1-based row number in the sheet as a user sees it. */
  row: number;
  /** length <= maxColumns, "" for empty. */
  cells: string[];
}

export interface Sheet {
  header: SheetRow;
  /** The data rows; none when they were handed to a reader's onRows as they came. */
  rows: SheetRow[];
  /** How many data rows the sheet has. */
  count: number;
}

/**
 * Rows taken as they are read, so a large sheet is never held whole: reading waits while onRows works on
 * a batch (its time does not count against timeoutMs), then goes on. `read` is the fraction of the sheet
 * read so far (of its XML, or of the CSV file's bytes), for a progress bar; the last batch has 1.
 */
export interface RowReader {
  batch: number;
  onRows(header: SheetRow, rows: SheetRow[], read: number): Promise<void>;
}

/** A reader's own failure, carried through the reading untouched: never taken for a bad file. */
class ReaderFailure extends Error {
  constructor(readonly error: unknown) {
    super("spreadsheet: the reader failed", { cause: error });
  }
}

/** Fixed bounds beside the caller's limits: each stops reading with "tooLarge" (params.what). */
export const SHEET_BOUNDS = {
  /** Entries in the ZIP's central directory. */
  entries: 10_000,
  /** A part that declares more than ratioFloor bytes and inflates more than ratio times its size. */
  ratio: 500,
  ratioFloor: 1024 * 1024,
  /** Shared strings kept (each cut to maxCellChars). */
  sharedStrings: 1_000_000,
  /** Number formats and cell formats in the styles part (Excel allows about 64,000 cell formats). */
  styles: 100_000,
  /** Bytes of XML without a single complete node (a text, a tag, a comment): one node that large. */
  node: 2 * 1024 * 1024,
  /** Characters of one CSV record, all its fields together. */
  record: 2 * 1024 * 1024,
} as const;

/** Elements nested deeper than this are refused (notSheet): SpreadsheetML nests about ten deep. */
const MAX_DEPTH = 64;
/** The largest piece of text saxes parses at once, so a long run of parsing never holds the event loop. */
const CHUNK = 64 * 1024;
/** The piece of CSV csv-parse parses at once, with a turn of the event loop before each. */
const CSV_PIECE = 4 * 1024;

const notSheet = (reason: string, cause?: unknown) => new SheetError("notSheet", { reason }, cause);

/** One read: its limits, the bytes read so far, the deadline, and the signal that stops every stream. */
class Job {
  readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  bytes = 0;
  failure: SheetError | undefined;
  private deadline: number;
  private timer: NodeJS.Timeout;

  constructor(readonly limits: SheetLimits) {
    this.deadline = performance.now() + limits.timeoutMs;
    this.timer = setTimeout(() => this.fail(new SheetError("tooSlow", { limit: limits.timeoutMs })), limits.timeoutMs);
  }

  /** Records the first problem and stops every stream of this read; answers the problem to throw. */
  fail(error: SheetError): SheetError {
    if (!this.failure) {
      this.failure = error;
      this.controller.abort(error);
    }
    return this.failure;
  }

  tooLarge(what: string, limit: number): SheetError {
    return this.fail(new SheetError("tooLarge", { what, limit }));
  }

  /** Counts bytes of text read out of the file, and checks the clock. */
  count(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxTextBytes) throw this.tooLarge("text", this.limits.maxTextBytes);
    if (performance.now() > this.deadline) throw this.fail(new SheetError("tooSlow", { limit: this.limits.timeoutMs }));
  }

  /** Runs work done for the caller (not reading): its time is added to the deadline. */
  async aside<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    clearTimeout(this.timer);
    try {
      return await work();
    } finally {
      this.deadline += performance.now() - started;
      if (!this.failure && !this.signal.aborted)
        this.timer = setTimeout(
          () => this.fail(new SheetError("tooSlow", { limit: this.limits.timeoutMs })),
          Math.max(0, this.deadline - performance.now()),
        );
    }
  }

  end(): void {
    clearTimeout(this.timer);
    this.controller.abort();
  }
}

/**
 * Reads the first worksheet of an XLSX file, or a CSV file, told apart by content: the header row (the
 * sheet's row 1; no cells when that row is empty) and the data rows after it that have any text. Every
 * problem with the file is a SheetError. A file that cannot be opened at all (a wrong path) throws the
 * file system's own error.
 */
export async function readSheet(file: string, limits: SheetLimits, reader?: RowReader): Promise<Sheet> {
  const head = await readHead(file);
  const job = new Job(limits);
  try {
    const zip = head.length >= 4 && head.readUInt32LE(0) === 0x04034b50; // PK\x03\x04
    const rows = new Rows(job, reader);
    if (zip) await readXlsx(job, file, rows);
    else await readCsv(job, file, head, rows);
    await rows.flush(1, true);
    if (!rows.header.cells.some(hasText) && rows.count === 0) throw new SheetError("empty");
    return { header: rows.header, rows: rows.rows, count: rows.count };
  } catch (error) {
    // What the reader threw is the reader's (a statement that failed is not a bad file).
    if (error instanceof ReaderFailure) throw error.error;
    throw job.failure ?? (error instanceof SheetError ? error : notSheet("unreadable", error));
  } finally {
    job.end();
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- rows

const hasText = (text: string) => text.trim() !== "";

/**
 * A copy of a string that holds nothing else alive: V8 keeps a slice of a string (of 13 characters or
 * more) as a view on the whole, so a cell cut from a 1 MB text, or read out of a 64 KB chunk, would keep
 * all of it. Flattening the concatenation copies the characters.
 */
const own = (text: string): string => (text.length < 13 ? text : (" " + text).slice(1));

/** The text cut to max characters, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The header row and the data rows, as they come: kept, or handed to the reader a batch at a time. */
class Rows {
  header: SheetRow = { row: 1, cells: [] };
  readonly rows: SheetRow[] = [];
  count = 0;
  private headerSeen = false;
  private readonly limits: SheetLimits;

  constructor(
    private readonly job: Job,
    private readonly reader?: RowReader,
  ) {
    this.limits = job.limits;
  }

  /** Whether a batch waits for the reader: reading is to wait for flush before it goes on. */
  get full(): boolean {
    return this.reader !== undefined && this.rows.length >= this.reader.batch;
  }

  /** Hands the rows read so far to the reader (a whole batch, or all that is left at the end). */
  async flush(read: number, last = false): Promise<void> {
    if (!this.reader || (!this.full && !(last && this.rows.length))) return;
    const batch = this.rows.splice(0, this.rows.length);
    await this.job.aside(() =>
      this.reader!.onRows(this.header, batch, read).catch((error: unknown) => {
        throw new ReaderFailure(error);
      }),
    );
  }

  /** A row's cells (holes for empty cells, each already cut); throws tooMany at row maxRows + 1. */
  add(row: number, cells: string[]): void {
    let length = Math.min(cells.length, this.limits.maxColumns);
    while (length > 0 && !cells[length - 1]) length--;
    const dense: string[] = [];
    for (let i = 0; i < length; i++) dense.push(cells[i] ? own(cells[i]) : "");
    if (row === 1) {
      if (!this.headerSeen) this.header = { row: 1, cells: dense };
      this.headerSeen = true;
      return;
    }
    if (!dense.some(hasText)) return;
    if (this.count >= this.limits.maxRows) throw new SheetError("tooMany", { limit: this.limits.maxRows });
    this.count++;
    this.rows.push({ row, cells: dense });
  }
}

// ---------------------------------------------------------------- CSV

/**
 * The delimiter named by the header line: Excel's "sep=;" line, else the most frequent of comma,
 * semicolon and tab outside quotes in the first line (comma when none or a tie).
 */
function csvDelimiter(head: string): { delimiter: string; sepLine: boolean } {
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  const sep = /^sep=([^\r\n])\r?\n/.exec(text);
  if (sep) return { delimiter: sep[1], sepLine: true };
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let delimiter = ",";
  for (const [char, count] of counts) if (count > counts.get(delimiter)!) delimiter = char;
  return { delimiter, sepLine: false };
}

async function readCsv(job: Job, file: string, head: Buffer, rows: Rows): Promise<void> {
  const { limits } = job;
  const { delimiter, sepLine } = csvDelimiter(new TextDecoder().decode(head));
  const { size } = await stat(file);
  let fed = 0;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let row = 0;
  const parser = parseCsv({
    delimiter,
    bom: true,
    from_line: sepLine ? 2 : 1,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: SHEET_BOUNDS.record,
  });
  // csv-parse builds an error, with its stack trace and JSON copies of its context, for every record
  // whose field count differs from the first record's, even with relax_column_count, which then drops it:
  // about 15 µs a record, so a file of short lines of changing lengths (",\n\n" repeated) held the event
  // loop for a third of a second per 4 KB on a busy machine, and 10 MB of them burnt the whole timeout.
  // Its state (public on the parser) is given an expected length that is always the record's own, so no
  // record is ever "inconsistent". Were a later version to rename these fields, the getter would answer
  // undefined and the parser would only be slower again (the test of ragged lines would say so).
  const state = (parser as unknown as { state: { record?: unknown[] } }).state;
  Object.defineProperty(state, "expectedRecordLength", { get: () => state.record?.length, set: () => {} });
  try {
    await pipeline(
      createReadStream(file, { highWaterMark: CHUNK }),
      // Text only: valid UTF-8 without NUL bytes, counted against maxTextBytes, and handed on in small
      // pieces with a turn of the event loop before each.
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          job.count(chunk.length);
          if (chunk.includes(0)) throw notSheet("binary");
          try {
            decoder.decode(chunk, { stream: true });
          } catch (error) {
            throw notSheet("encoding", error);
          }
          for (let at = 0; at < chunk.length; at += CSV_PIECE) {
            await new Promise((resolve) => setImmediate(resolve));
            const piece = chunk.subarray(at, at + CSV_PIECE);
            fed += piece.length;
            yield piece;
          }
        }
        try {
          decoder.decode();
        } catch (error) {
          throw notSheet("encoding", error);
        }
      },
      parser,
      // Each record taken as it comes, without a promise each (a file of millions of empty lines).
      new Writable({
        objectMode: true,
        highWaterMark: 1024,
        write(record: string[], _encoding, done) {
          try {
            row++;
            const cells: string[] = [];
            for (let i = 0; i < record.length && i < limits.maxColumns; i++)
              cells.push(cut(record[i], limits.maxCellChars));
            rows.add(row, cells);
            // The share of the file handed to the parser (a record is read once its text is).
            if (rows.full) rows.flush(Math.min(1, fed / size)).then(() => done(), done);
            else done();
          } catch (error) {
            done(error as Error);
          }
        },
      }),
      { signal: job.signal },
    );
  } catch (error) {
    if (error instanceof SheetError || error instanceof ReaderFailure) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === "CSV_MAX_RECORD_SIZE") throw job.tooLarge("record", SHEET_BOUNDS.record);
    throw notSheet(typeof code === "string" && code.startsWith("CSV_") ? "csv" : "unreadable", error);
  }
}

// ---------------------------------------------------------------- the ZIP container

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (error, zip) => {
        if (error) return reject(notSheet("zip", error));
        // An error after the read (closing the file) has nowhere to go: it is dropped, never uncaught.
        zip.on("error", () => {});
        resolve(zip);
      },
    );
  });
}

/** Every entry of the central directory, by its name in lower case (part names ignore case). */
function listEntries(job: Job, zip: ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > SHEET_BOUNDS.entries) throw job.tooLarge("entries", SHEET_BOUNDS.entries);
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    const done = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
      job.signal.removeEventListener("abort", onAbort);
    };
    const onEntry = (entry: Entry) => {
      const name = entry.fileName.toLowerCase();
      if (!entries.has(name)) entries.set(name, entry);
      zip.readEntry();
    };
    const onEnd = () => {
      done();
      resolve(entries);
    };
    const onError = (error: Error) => {
      done();
      reject(notSheet("zip", error));
    };
    const onAbort = () => {
      done();
      reject(job.signal.reason);
    };
    zip.on("entry", onEntry);
    zip.on("end", onEnd);
    zip.on("error", onError);
    job.signal.addEventListener("abort", onAbort);
    zip.readEntry();
  });
}

/** An entry's inflated bytes, after checking what it declares: its size against the budget, its ratio. */
async function openEntry(job: Job, zip: ZipFile, entry: Entry): Promise<Readable> {
  if (!entry.canDecodeFileData()) throw notSheet(entry.isEncrypted() ? "encrypted" : "compression");
  const room = job.limits.maxTextBytes - job.bytes;
  if (entry.uncompressedSize > room) throw job.tooLarge("text", job.limits.maxTextBytes);
  if (
    entry.uncompressedSize > SHEET_BOUNDS.ratioFloor &&
    entry.uncompressedSize > entry.compressedSize * SHEET_BOUNDS.ratio
  )
    throw job.tooLarge("ratio", SHEET_BOUNDS.ratio);
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(notSheet("zip", error)) : resolve(stream))),
  );
  // yauzl and zlib report a damaged entry as an 'error' event: the reading loop takes it, and this
  // handler makes sure none is ever uncaught, even one emitted after the loop has let go.
  stream.on("error", () => {});
  return addAbortSignal(job.signal, stream);
}

// ---------------------------------------------------------------- XML

/** Handles one part's elements by local name (prefixes dropped); done stops the reading. */
interface XmlHandler {
  done: boolean;
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  text(text: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Streams one part through saxes, 64 KB at most at once, until its end or the handler is done; `after`
 * runs after each piece with the fraction of the part read.
 */
async function readXml(
  job: Job,
  zip: ZipFile,
  entry: Entry,
  handler: XmlHandler,
  after?: (read: number) => Promise<void>,
): Promise<void> {
  const stream = await openEntry(job, zip, entry);
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let depth = 0;
  /** Bytes written since the last event: a single node larger than SHEET_BOUNDS.node is refused. */
  let quiet = 0;
  // OOXML parts never hold a document type declaration (ECMA-376 Part 2, M1.17): one is refused, so an
  // entity expansion ("billion laughs") is never even attempted (saxes would not expand custom entities).
  parser.on("doctype", () => {
    throw notSheet("doctype");
  });
  parser.on("opentag", (tag) => {
    quiet = 0;
    if (++depth > MAX_DEPTH) throw notSheet("depth");
    if (!handler.done) handler.open(localName(tag.name), tag.attributes);
  });
  parser.on("closetag", (tag) => {
    quiet = 0;
    depth--;
    if (!handler.done) handler.close(localName(tag.name));
  });
  const onText = (text: string) => {
    quiet = 0;
    if (!handler.done) handler.text(text);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  const write = (text: string) => {
    try {
      parser.write(text);
    } catch (error) {
      throw error instanceof SheetError ? error : notSheet("xml", error);
    }
  };
  const decode = (bytes?: Buffer) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch (error) {
      throw notSheet("encoding", error);
    }
  };
  let read = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      job.count(chunk.length);
      for (let at = 0; at < chunk.length; at += CHUNK) {
        const piece = chunk.subarray(at, at + CHUNK);
        write(decode(piece));
        read += piece.length;
        quiet += piece.length;
        if (quiet > SHEET_BOUNDS.node) throw job.tooLarge("node", SHEET_BOUNDS.node);
        if (handler.done) return;
        await after?.(Math.min(1, read / Math.max(1, entry.uncompressedSize)));
      }
    }
  } catch (error) {
    if (error instanceof ReaderFailure) throw error;
    throw job.failure ?? (error instanceof SheetError ? error : notSheet("zip", error));
  } finally {
    stream.destroy();
  }
  write(decode());
  try {
    parser.close();
  } catch (error) {
    throw notSheet("xml", error);
  }
}

/** Excel's escape for characters XML cannot hold: _x000D_ is a carriage return. */
const unescapeText = (text: string) =>
  text.includes("_x")
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;

/** Appends to a text kept to max characters. */
const append = (text: string, more: string, max: number) =>
  text.length >= max ? text : text + (more.length > max - text.length ? cut(more, max - text.length) : more);

/** <workbookPr date1904> and the first <sheet>'s relationship id. */
class WorkbookPart implements XmlHandler {
  done = false;
  date1904 = false;
  sheetRel: string | undefined;

  open(name: string, attributes: Record<string, string>) {
    if (name === "workbookPr") this.date1904 = attributes.date1904 === "1" || attributes.date1904 === "true";
    else if (name === "sheet") {
      // r:id, with whatever prefix the file binds to the relationships namespace.
      const key = Object.keys(attributes).find((k) => k.endsWith(":id"));
      this.sheetRel = key ? attributes[key] : undefined;
      this.done = true;
    }
  }
  close(name: string) {
    if (name === "sheets") this.done = true;
  }
  text() {}
}

/** A relationships part: id -> target part name, and the first target of each type. */
class RelsPart implements XmlHandler {
  done = false;
  readonly byId = new Map<string, string>();
  readonly byType = new Map<string, string>();
  private count = 0;

  open(name: string, attributes: Record<string, string>) {
    if (name !== "Relationship" || attributes.TargetMode === "External" || !attributes.Target) return;
    if (++this.count > SHEET_BOUNDS.entries) this.done = true;
    const target = partName(attributes.Target);
    if (attributes.Id) this.byId.set(attributes.Id, target);
    const type = attributes.Type?.slice(attributes.Type.lastIndexOf("/") + 1);
    if (type && !this.byType.has(type)) this.byType.set(type, target);
  }
  close() {}
  text() {}
}

/** A relationship target of the workbook (relative to xl/, or absolute) as a part name. */
function partName(target: string): string {
  let name = target;
  try {
    name = decodeURIComponent(target);
  } catch {
    // kept as written
  }
  const path: string[] = name.startsWith("/") ? [] : ["xl"];
  for (const segment of name.split("/")) {
    if (segment === "..") path.pop();
    else if (segment && segment !== ".") path.push(segment);
  }
  return path.join("/").toLowerCase();
}

/** The shared strings, each as its text runs joined (phonetic runs left out), cut to maxCellChars. */
class SharedStringsPart implements XmlHandler {
  done = false;
  readonly strings: string[] = [];
  private inItem = false;
  private phonetic = 0;
  private inText = false;
  private raw = "";
  private value = "";

  constructor(
    private readonly job: Job,
    private readonly max: number,
  ) {}

  open(name: string) {
    if (name === "si") {
      this.inItem = true;
      this.value = "";
    } else if (name === "rPh") this.phonetic++;
    else if (name === "t" && this.inItem && this.phonetic === 0) {
      this.inText = true;
      this.raw = "";
    }
  }
  text(text: string) {
    // Raw text up to 7 times the cut: each _xHHHH_ escape is 7 characters for one.
    if (this.inText) this.raw = append(this.raw, text, this.max * 7 + 7);
  }
  close(name: string) {
    if (name === "t" && this.inText) {
      this.inText = false;
      this.value = append(this.value, unescapeText(this.raw), this.max);
    } else if (name === "rPh") this.phonetic = Math.max(0, this.phonetic - 1);
    else if (name === "si" && this.inItem) {
      this.inItem = false;
      if (this.strings.length >= SHEET_BOUNDS.sharedStrings)
        throw this.job.tooLarge("sharedStrings", SHEET_BOUNDS.sharedStrings);
      this.strings.push(own(this.value));
    } else if (name === "sst") this.done = true;
  }
}

/** Built-in number formats that show dates or times: 14-22, 45-47, and the East Asian 27-36, 50-58. */
const DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47]);
for (let id = 50; id <= 58; id++) DATE_FORMATS.add(id);

/** A format code that shows a date or time: y, m, d, h or s outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*]|\\.|[_*]./g, "");
  return /[ymdhs]/i.test(bare);
}

/** From the styles part, which cell formats (s="n") show dates. */
class StylesPart implements XmlHandler {
  done = false;
  /** Custom formats by id: whether each shows a date. */
  private readonly formats = new Map<number, boolean>();
  /** For each cell format, its number format id. */
  private readonly cellFormats: number[] = [];
  private inCellFormats = false;

  constructor(private readonly job: Job) {}

  open(name: string, attributes: Record<string, string>) {
    if (name === "numFmt" && !this.inCellFormats) {
      if (this.formats.size >= SHEET_BOUNDS.styles) throw this.job.tooLarge("styles", SHEET_BOUNDS.styles);
      this.formats.set(Number(attributes.numFmtId), isDateFormat(attributes.formatCode ?? ""));
    } else if (name === "cellXfs") this.inCellFormats = true;
    else if (name === "xf" && this.inCellFormats) {
      if (this.cellFormats.length >= SHEET_BOUNDS.styles) throw this.job.tooLarge("styles", SHEET_BOUNDS.styles);
      this.cellFormats.push(Number(attributes.numFmtId ?? 0));
    }
  }
  close(name: string) {
    if (name === "cellXfs") this.done = true;
  }
  text() {}

  isDate(style: number): boolean {
    const id = this.cellFormats[style];
    if (id === undefined) return false;
    return this.formats.get(id) ?? DATE_FORMATS.has(id);
  }
}

/** A1-style reference -> 0-based column, or undefined; never more than three letters (XFD is 16383). */
function columnOf(ref: string | undefined): number | undefined {
  if (!ref) return undefined;
  const match = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(ref);
  if (!match) return undefined;
  let column = 0;
  for (const char of match[1].toUpperCase()) column = column * 26 + char.charCodeAt(0) - 64;
  return column - 1;
}

function rowOf(ref: string | undefined): number | undefined {
  if (!ref || !/^\d{1,7}$/.test(ref)) return undefined;
  const row = Number(ref);
  return row >= 1 && row <= 1_048_576 ? row : undefined;
}

const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const DAY = 86_400_000;

/** An Excel serial date as yyyy-mm-dd: the 1900 system (with its 29 February 1900) or the 1904 one. */
export function excelDate(serial: number, date1904: boolean): string | undefined {
  const days = Math.floor(Math.round(serial * DAY) / DAY);
  if (days < 0) return undefined;
  let time: number;
  if (date1904) time = Date.UTC(1904, 0, 1) + days * DAY;
  else if (days === 60) return "1900-02-29";
  else if (days < 60 && days > 0) time = Date.UTC(1899, 11, 31) + days * DAY;
  else time = Date.UTC(1899, 11, 30) + days * DAY;
  const iso = new Date(time).toISOString();
  return iso.length === 24 ? iso.slice(0, 10) : undefined;
}

/** The rows of <sheetData>; nothing else in the sheet is looked at. */
class SheetPart implements XmlHandler {
  done = false;
  private inData = false;
  private cells: string[] | undefined;
  private row = 0;
  private column = -1;
  // The cell being read.
  private keep = false;
  private type = "n";
  private style = -1;
  private inValue = false;
  private value = "";
  private inInline = false;
  private phonetic = 0;
  private inText = false;
  private raw = "";
  private inline = "";

  constructor(
    private readonly rows: Rows,
    private readonly strings: readonly string[],
    private readonly styles: StylesPart | undefined,
    private readonly date1904: boolean,
    private readonly limits: SheetLimits,
  ) {}

  open(name: string, attributes: Record<string, string>) {
    if (!this.inData) {
      if (name === "sheetData") this.inData = true;
      return;
    }
    switch (name) {
      case "row":
        this.row = rowOf(attributes.r) ?? this.row + 1;
        this.cells = [];
        this.column = -1;
        break;
      case "c":
        if (!this.cells) return;
        this.column = columnOf(attributes.r) ?? this.column + 1;
        this.keep = this.column < this.limits.maxColumns;
        this.type = attributes.t ?? "n";
        this.style = attributes.s ? Number(attributes.s) : -1;
        this.value = "";
        this.inline = "";
        break;
      case "v":
        this.inValue = this.keep;
        break;
      case "is":
        this.inInline = this.keep;
        break;
      case "rPh":
        this.phonetic++;
        break;
      case "t":
        if (this.inInline && this.phonetic === 0) {
          this.inText = true;
          this.raw = "";
        }
        break;
    }
  }

  text(text: string) {
    if (this.inValue) this.value = append(this.value, text, this.limits.maxCellChars);
    else if (this.inText) this.raw = append(this.raw, text, this.limits.maxCellChars * 7 + 7);
  }

  close(name: string) {
    if (!this.inData) return;
    switch (name) {
      case "v":
        this.inValue = false;
        break;
      case "t":
        if (this.inText) this.inline = append(this.inline, unescapeText(this.raw), this.limits.maxCellChars);
        this.inText = false;
        break;
      case "rPh":
        this.phonetic = Math.max(0, this.phonetic - 1);
        break;
      case "is":
        this.inInline = false;
        break;
      case "c":
        if (this.keep && this.cells) {
          const text = this.cellText();
          if (text) this.cells[this.column] = text;
        }
        this.keep = false;
        break;
      case "row":
        if (this.cells) this.rows.add(this.row, this.cells);
        this.cells = undefined;
        break;
      case "sheetData":
        this.done = true;
        break;
    }
  }

  /** The cell's text as exceljs's value would read in the import (cellText there). */
  private cellText(): string {
    const { type, value } = this;
    if (type === "inlineStr") return this.inline;
    if (value === "") return "";
    switch (type) {
      case "s": {
        const index = Number(value);
        return Number.isInteger(index) && index >= 0 ? (this.strings[index] ?? "") : "";
      }
      case "str":
        return value;
      case "b":
        return value === "1" ? "TRUE" : value === "0" ? "FALSE" : value;
      case "e":
        return "";
      case "d":
        return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
      default: {
        if (!NUMBER.test(value)) return value;
        const number = Number(value);
        if (!Number.isFinite(number)) return value;
        if (this.style >= 0 && this.styles?.isDate(this.style)) {
          const date = excelDate(number, this.date1904);
          if (date) return date;
        }
        return Number.isInteger(number) ? number.toFixed(0) : String(number);
      }
    }
  }
}

async function readXlsx(job: Job, file: string, rows: Rows): Promise<void> {
  const zip = await openZip(file);
  try {
    const entries = await listEntries(job, zip);
    const part = (name: string) => entries.get(name.toLowerCase());

    const workbook = new WorkbookPart();
    const workbookEntry = part("xl/workbook.xml");
    if (workbookEntry) await readXml(job, zip, workbookEntry, workbook);
    const rels = new RelsPart();
    const relsEntry = part("xl/_rels/workbook.xml.rels");
    if (relsEntry) await readXml(job, zip, relsEntry, rels);

    const sheetName = (workbook.sheetRel && rels.byId.get(workbook.sheetRel)) || "xl/worksheets/sheet1.xml";
    const sheetEntry = part(sheetName);
    if (!sheetEntry) throw notSheet("noSheet");

    const strings = new SharedStringsPart(job, job.limits.maxCellChars);
    const stringsEntry = part(rels.byType.get("sharedStrings") ?? "xl/sharedStrings.xml");
    if (stringsEntry) await readXml(job, zip, stringsEntry, strings);
    let styles: StylesPart | undefined;
    const stylesEntry = part(rels.byType.get("styles") ?? "xl/styles.xml");
    if (stylesEntry) await readXml(job, zip, stylesEntry, (styles = new StylesPart(job)));

    const sheet = new SheetPart(rows, strings.strings, styles, workbook.date1904, job.limits);
    await readXml(job, zip, sheetEntry, sheet, (read) => rows.flush(read));
  } finally {
    zip.close();
  }
}

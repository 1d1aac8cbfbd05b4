// The bounded spreadsheet reader (server/entities/sheet-read.ts): the first sheet of an XLSX, or a CSV,
// read as a stream. Cell text as the device import reads it (checked against values written here, not
// computed by the code), and hostile files, all generated here, refused with the right problem within a
// bound that proves the reading is bounded: seconds, a heap that does not grow by hundreds of megabytes,
// an event loop that keeps turning, no file descriptor left open.
import ExcelJS from "exceljs";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  excelDate,
  isDateFormat,
  readSheet,
  SheetError,
  type Sheet,
  type SheetLimits,
  type SheetProblem,
} from "../../server/entities/sheet-read.ts";
import { tinyPng } from "../support/files.ts";
import { importFile } from "../support/import-file.ts";
import {
  sharedStringsXml,
  sheetXml,
  stylesXml,
  withDeclaredSize,
  workbookParts,
  writeRepeatedText,
  writeRepeatedXlsx,
  xlsx,
} from "../support/sheets.ts";

/** The limits recommended for the device import. */
const LIMITS: SheetLimits = {
  maxRows: 10_000,
  maxColumns: 50,
  maxCellChars: 4096,
  maxTextBytes: 64 * 1024 * 1024,
  timeoutMs: 15_000,
};
const MB = 1024 * 1024;
/** Every hostile file is refused within this much of this process's CPU time (the code it replaces took
 * minutes, or died). CPU time, not the clock's: on a busy shared machine the clock runs on while other
 * processes have the cores, and says nothing of the reader (a clock bound here failed a clean-clone run). */
const BOUND_CPU_MS = 10_000;
/** This process's CPU time in milliseconds: the main thread's and the thread pool's (zlib's inflating). */
const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const HEAP_BOUND = 200 * MB;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let dir: string;
const path = (name: string) => join(dir, name);
const write = (name: string, data: string | Buffer) => {
  writeFileSync(path(name), data);
  return path(name);
};

interface Outcome {
  sheet?: Sheet;
  error?: unknown;
  /** The clock's milliseconds, printed. */
  ms: number;
  /** The CPU milliseconds, bounded. */
  cpu: number;
  /** The largest growth of the heap (and array buffers) seen while reading, sampled every 5 ms. */
  growth: number;
}

async function attempt(file: string, limits: SheetLimits = LIMITS): Promise<Outcome> {
  gc();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
  const start = performance.now();
  const startCpu = cpuMs();
  const outcome: Outcome = { ms: 0, cpu: 0, growth: 0 };
  try {
    outcome.sheet = await readSheet(file, limits);
  } catch (error) {
    outcome.error = error;
  }
  outcome.ms = performance.now() - start;
  outcome.cpu = cpuMs() - startCpu;
  clearInterval(sampler);
  outcome.growth = Math.max(peak, used()) - before;
  timings.push([
    file.slice(dir.length + 1),
    Math.round(outcome.ms),
    Math.round(outcome.cpu),
    Math.round(outcome.growth / MB),
  ]);
  return outcome;
}
/** Each read's file, clock and CPU milliseconds and peak heap growth in MB, printed at the end. */
const timings: [string, number, number, number][] = [];

/** Reads the file expecting the problem, quickly and within the heap bound; answers the error. */
async function refused(file: string, problem: SheetProblem, limits: SheetLimits = LIMITS): Promise<SheetError> {
  const outcome = await attempt(file, limits);
  expect(outcome.error, `${file} read as ${JSON.stringify(outcome.sheet?.header)}`).toBeInstanceOf(SheetError);
  const error = outcome.error as SheetError;
  expect(error.problem, `${error.message}: ${String(error.cause)}`).toBe(problem);
  expect(outcome.cpu).toBeLessThan(BOUND_CPU_MS);
  expect(outcome.growth).toBeLessThan(HEAP_BOUND);
  return error;
}

async function read(file: string, limits: SheetLimits = LIMITS): Promise<Sheet> {
  const outcome = await attempt(file, limits);
  if (outcome.error) throw outcome.error;
  expect(outcome.cpu).toBeLessThan(BOUND_CPU_MS);
  expect(outcome.growth).toBeLessThan(HEAP_BOUND);
  return outcome.sheet!;
}

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
/** A header row and one data row, the rows of the hostile sheets that must still read normally. */
const ROWS = `<row r="1">${inline("A1", "Name")}${inline("B1", "Code")}</row><row r="2">${inline("A2", "VM-1")}${inline("B2", "X1")}</row>`;
const NORMAL: Sheet = {
  header: { row: 1, cells: ["Name", "Code"] },
  rows: [{ row: 2, cells: ["VM-1", "X1"] }],
  count: 1,
};
const SHEET_HEAD = sheetXml("").split("<sheetData>")[0] + "<sheetData>";
const SHEET_TAIL = "</sheetData></worksheet>";
const ROW_8M = `<row><c t="inlineStr"><is><t>device-0001</t></is></c></row>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sheet-read-"));
  // 8,000,000 rows, 472 MB of XML, in a file of 1.4 MB; and the same rows with their text in column B.
  await writeRepeatedXlsx(path("rows8m.xlsx"), workbookParts([]), {
    name: "xl/worksheets/sheet1.xml",
    head: SHEET_HEAD,
    repeat: ROW_8M,
    times: 8_000_000,
    tail: SHEET_TAIL,
  });
  await writeRepeatedXlsx(path("rows8m-column-b.xlsx"), workbookParts([]), {
    name: "xl/worksheets/sheet1.xml",
    head: SHEET_HEAD,
    repeat: ROW_8M.replace("<row>", "<row><c/>"),
    times: 8_000_000,
    tail: SHEET_TAIL,
  });
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.log(
    "sheet-read timings (file, ms, CPU ms, peak heap growth MB):\n" +
      timings.map((t) => `  ${t.join("\t")}`).join("\n"),
  );
});

describe("readSheet: cell text as the import reads it", () => {
  it("reads an exceljs workbook: dates, 15-digit numbers, rich text, formulas, sparse rows, columns cut", async () => {
    const build = async (useSharedStrings: boolean) => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("Devices");
      sheet.addRow([
        "Device code",
        "Hardware ID",
        "Expiry date",
        "Remark",
        "Formula",
        "Amount",
        "Link",
        "Flag",
        "Ignored",
      ]);
      sheet.getRow(2).values = [
        "VM-0001",
        864512051234567,
        new Date(Date.UTC(2027, 11, 31)),
        { richText: [{ text: "Hello " }, { font: { bold: true }, text: "world" }] },
        { formula: 'A2&"-x"', result: "VM-0001-x" },
        12.5,
        { text: "site", hyperlink: "https://example.com" },
        true,
        "past the columns",
      ];
      sheet.getRow(4).values = [
        "VM-0002",
        "000123",
        new Date(Date.UTC(2027, 0, 2, 18, 30)),
        "line1\nline2",
        { formula: "1+1", result: 2 },
        0.1,
        null,
        false,
      ];
      sheet.getRow(5).values = ["   "];
      sheet.getRow(6).values = [null, null, null, null, null, null, null, null, "only past the columns"];
      sheet.getRow(7).values = [null, null, null, "last", { error: "#N/A" }];
      sheet.getCell("C7").value = 45678.25;
      sheet.getCell("C7").numFmt = "yyyy-mm-dd hh:mm";
      sheet.getCell("F7").value = 1234.5;
      sheet.getCell("F7").numFmt = '#,##0.00 "days"';
      workbook.addWorksheet("Notes").addRow(["not read"]);
      return write(
        `exceljs-${useSharedStrings}.xlsx`,
        Buffer.from(await workbook.xlsx.writeBuffer({ useSharedStrings })),
      );
    };
    const expected: Sheet = {
      header: {
        row: 1,
        cells: ["Device code", "Hardware ID", "Expiry date", "Remark", "Formula", "Amount", "Link", "Flag"],
      },
      rows: [
        {
          row: 2,
          cells: ["VM-0001", "864512051234567", "2027-12-31", "Hello world", "VM-0001-x", "12.5", "site", "TRUE"],
        },
        { row: 4, cells: ["VM-0002", "000123", "2027-01-02", "line1\nline2", "2", "0.1", "", "FALSE"] },
        { row: 7, cells: ["", "", "2025-01-21", "last", "", "1234.5"] },
      ],
      count: 3,
    };
    const limits = { ...LIMITS, maxColumns: 8 };
    expect(await read(await build(true), limits)).toEqual(expected);
    expect(await read(await build(false), limits)).toEqual(expected);
  });

  it("reads hand-written parts: the first sheet by its relationship, prefixes, cells and rows without r", async () => {
    const strings = sharedStringsXml([
      "<t>Plain</t>",
      '<r><t>Rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh><phoneticPr fontId="1"/>',
      "<t>a_x000D_b</t>",
      '<t xml:space="preserve">  spaced  </t>',
      "<t>&lt;tag&gt; &amp; &#x4E2D;</t>",
    ]);
    // s="0" General, "1" built-in 14, "2" a custom date, "3" a custom number whose quoted text has y/d/s,
    // "4" a bracketed colour, "5" built-in 22, "6" text (@), "7" built-in 31 (yyyy"年"m"月"d"日").
    const styles = stylesXml(
      { 164: 'yyyy"年"m"月"d"日"', 165: '#,##0.00 "days"', 166: "[Red]0.00" },
      [0, 14, 164, 165, 166, 22, 49, 31],
    );
    const x = (xml: string) => xml.replace(/<(\/?)(?!\?)/g, "<$1x:");
    const sheet = `<?xml version="1.0" encoding="UTF-8"?>${x(
      `<worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>` +
        `<row><c s="1"><v>46752</v></c><c s="2"><v>60</v></c><c s="3"><v>1234.5</v></c><c s="4"><v>-3</v></c><c s="5"><v>61.5</v></c><c s="6"><v>864512051234567</v></c><c s="7"><v>59</v></c><c><v>8.64512051234567E+14</v></c><c s="1"><v>1</v></c></row>` +
        `<row r="5"><c r="A5" t="b"><v>1</v></c><c r="B5" t="b"><v>0</v></c><c r="C5" t="e"><v>#DIV/0!</v></c><c r="D5" t="d"><v>2027-03-04T00:00:00</v></c><c r="E5" t="str"><f>UPPER("calc")</f><v>CALC</v></c><c r="F5" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r><rPh><t>x</t></rPh></is></c><c r="G5" t="s"><v>99</v></c><c r="H5" s="1"/></row>` +
        `<row r="6"><c r="C6"><v>1</v></c><c><v>2</v></c></row>` +
        `<row r="7"><c r="A7" t="inlineStr"><is><t>   </t></is></c></row>` +
        `<row r="9"><c r="B9" t="s"><v>0</v></c></row>` +
        `</sheetData></worksheet>`,
    )}`;
    const wrong = sheetXml(`<row r="1">${inline("A1", "the second sheet")}</row>`);
    const file = write(
      "parts.xlsx",
      xlsx(
        workbookParts(
          [sheet, wrong],
          { "xl/sharedStrings.xml": strings, "xl/styles.xml": styles },
          { names: ["worksheets/data.xml", "worksheets/sheet1.xml"] },
        ),
      ),
    );
    expect(await read(file)).toEqual({
      header: { row: 1, cells: ["Plain", "Rich text", "a\rb", "  spaced  ", "<tag> & 中"] },
      rows: [
        {
          row: 2,
          cells: [
            "2027-12-31",
            "1900-02-29",
            "1234.5",
            "-3",
            "1900-03-01",
            "864512051234567",
            "1900-02-28",
            "864512051234567",
            "1900-01-01",
          ],
        },
        { row: 5, cells: ["TRUE", "FALSE", "", "2027-03-04", "CALC", "inline"] },
        { row: 6, cells: ["", "", "1", "2"] },
        { row: 9, cells: ["", "Plain"] },
      ],
      count: 4,
    });
  });

  it("honours date1904, and falls back to xl/worksheets/sheet1.xml without a workbook part", async () => {
    const sheet = sheetXml(
      `<row r="1">${inline("A1", "Date")}</row><row r="2"><c r="A2" s="1"><v>0</v></c><c r="B2" s="1"><v>366</v></c></row>`,
    );
    const parts = workbookParts([sheet], { "xl/styles.xml": stylesXml({}, [0, 14]) }, { date1904: true });
    expect((await read(write("1904.xlsx", xlsx(parts)))).rows).toEqual([
      { row: 2, cells: ["1904-01-01", "1905-01-01"] },
    ]);
    const bare = { "xl/worksheets/sheet1.xml": sheet, "xl/styles.xml": stylesXml({}, [0, 14]) };
    expect((await read(write("bare.xlsx", xlsx(bare)))).rows).toEqual([
      { row: 2, cells: ["1899-12-30", "1900-12-31"] },
    ]);
  });

  it("converts serial dates and tells date formats from number formats", () => {
    expect(excelDate(1, false)).toBe("1900-01-01");
    expect(excelDate(59, false)).toBe("1900-02-28");
    expect(excelDate(60, false)).toBe("1900-02-29");
    expect(excelDate(61, false)).toBe("1900-03-01");
    expect(excelDate(45658.999, false)).toBe("2025-01-01");
    expect(excelDate(2958465, false)).toBe("9999-12-31");
    expect(excelDate(2958466, false)).toBeUndefined();
    expect(excelDate(-1, false)).toBeUndefined();
    expect(excelDate(0, true)).toBe("1904-01-01");
    expect(excelDate(1462, true)).toBe("1908-01-02");
    for (const code of ["yyyy-mm-dd", "d/m/yy", "h:mm", "[h]:mm:ss", "YYYY-MM-DD", '[$-804]yyyy"年"m"月"'])
      expect(isDateFormat(code), code).toBe(true);
    for (const code of ["General", "0.00", "#,##0", '0.0 "days"', "[Red]0.00", "@", "0.00E+00", "\\d0", "_s0"])
      expect(isDateFormat(code), code).toBe(false);
  });

  it("cuts a cell's text to maxCellChars, never between the halves of a surrogate pair", async () => {
    const file = write(
      "cut.xlsx",
      xlsx(workbookParts([sheetXml(`<row r="1">${inline("A1", "abcdef")}${inline("B1", "ab😀")}</row>`)])),
    );
    expect((await read(file, { ...LIMITS, maxCellChars: 3 })).header.cells).toEqual(["abc", "ab"]);
  });

  it("reads exactly maxRows data rows, and refuses one more with tooMany", async () => {
    const rows = (n: number) =>
      `<row r="1">${inline("A1", "Name")}</row>` +
      Array.from({ length: n }, (_, i) => `<row r="${i + 3}">${inline(`A${i + 3}`, `VM-${i}`)}</row>`).join("");
    const limits = { ...LIMITS, maxRows: 5 };
    const sheet = await read(write("five.xlsx", xlsx(workbookParts([sheetXml(rows(5))]))), limits);
    expect(sheet.rows.map((r) => r.row)).toEqual([3, 4, 5, 6, 7]);
    const error = await refused(write("six.xlsx", xlsx(workbookParts([sheetXml(rows(6))]))), "tooMany", limits);
    expect(error.params).toEqual({ limit: 5 });
  });

  it("answers empty for a sheet without rows, and the header alone for a header without data", async () => {
    await refused(write("no-rows.xlsx", xlsx(workbookParts([sheetXml("")]))), "empty");
    await refused(
      write("blank-rows.xlsx", xlsx(workbookParts([sheetXml(`<row r="1"/><row r="2">${inline("A2", " ")}</row>`)]))),
      "empty",
    );
    expect(
      await read(
        write("header-only.xlsx", xlsx(workbookParts([sheetXml(`<row r="1">${inline("A1", "Name")}</row>`)]))),
      ),
    ).toEqual({
      header: { row: 1, cells: ["Name"] },
      rows: [],
      count: 0,
    });
    // Row 1 empty, data after it: the header has no cells, the rows are kept.
    expect(
      await read(write("no-header.xlsx", xlsx(workbookParts([sheetXml(`<row r="3">${inline("A3", "VM-1")}</row>`)])))),
    ).toEqual({
      header: { row: 1, cells: [] },
      rows: [{ row: 3, cells: ["VM-1"] }],
      count: 1,
    });
  });
});

describe("readSheet: CSV", () => {
  it("reads UTF-8 with a BOM, semicolons, quotes, embedded newlines and empty lines", async () => {
    const file = write(
      "semicolons.csv",
      '\uFEFFName;Hardware ID;Remark\r\nVM-1;"8645;12";"say ""hi""\nsecond line"\r\n\r\nVM-2;;ab"c\r\n',
    );
    expect(await read(file)).toEqual({
      header: { row: 1, cells: ["Name", "Hardware ID", "Remark"] },
      rows: [
        { row: 2, cells: ["VM-1", "8645;12", 'say "hi"\nsecond line'] },
        { row: 4, cells: ["VM-2", "", 'ab"c'] },
      ],
      count: 2,
    });
  });

  it("takes commas by default, tabs when the header has them, and Excel's sep= line", async () => {
    expect(await read(write("commas.csv", "a,b;c,d\n1,2;3,4\n"))).toEqual({
      header: { row: 1, cells: ["a", "b;c", "d"] },
      rows: [{ row: 2, cells: ["1", "2;3", "4"] }],
      count: 1,
    });
    expect((await read(write("tabs.csv", "a\tb\tc,d\n1\t2\t3,4\n"))).rows).toEqual([
      { row: 2, cells: ["1", "2", "3,4"] },
    ]);
    expect(await read(write("sep.csv", "sep=|\na|b\n1|2\n"))).toEqual({
      header: { row: 1, cells: ["a", "b"] },
      rows: [{ row: 2, cells: ["1", "2"] }],
      count: 1,
    });
  });

  it("keeps maxColumns columns and cuts cells to maxCellChars", async () => {
    const file = write("wide.csv", "a,b,c,d\nlong text,x,y,z\n,,,only past\n");
    expect(await read(file, { ...LIMITS, maxColumns: 2, maxCellChars: 4 })).toEqual({
      header: { row: 1, cells: ["a", "b"] },
      rows: [{ row: 2, cells: ["long", "x"] }],
      count: 1,
    });
  });

  it("refuses text that is not UTF-8, NUL bytes, an unclosed quote, too many rows, too much text", async () => {
    expect((await refused(write("latin1.csv", Buffer.from("Name\nCaf\xe9\n", "latin1")), "notSheet")).params).toEqual({
      reason: "encoding",
    });
    expect((await refused(write("nul.csv", "Name\nVM\u00001\n"), "notSheet")).params).toEqual({ reason: "binary" });
    expect((await refused(write("quote.csv", 'Name\n"VM-1\n'), "notSheet")).params).toEqual({ reason: "csv" });
    await writeRepeatedText(path("rows.csv"), "Name\n", "VM-0001\n", 4 * MB, "");
    expect((await refused(path("rows.csv"), "tooMany")).params).toEqual({ limit: 10_000 });
    expect(
      (await refused(path("rows.csv"), "tooLarge", { ...LIMITS, maxRows: 10_000_000, maxTextBytes: MB })).params,
    ).toEqual({ what: "text", limit: MB });
  });

  it("reads a million empty lines of changing field counts quickly, the event loop turning", async () => {
    // csv-parse builds an error object for each record whose field count differs from the first's.
    await writeRepeatedText(path("ragged.csv"), "Name,Code,Kind\n", ",\n\n", 2 * MB, "VM-1,X1\n");
    // The loop's turns are timed in this process's CPU time, not the clock's: on a busy machine the clock runs on
    // while other processes have the cores, and a long gap would say nothing of the reader. A CSV is parsed on the
    // main thread (no thread pool work beside the file's reads), so CPU time between two turns is the reader's.
    const ticks = [cpuMs()];
    const ticker = setInterval(() => ticks.push(cpuMs()), 10);
    let sheet: Sheet;
    try {
      sheet = await read(path("ragged.csv"));
    } finally {
      clearInterval(ticker);
    }
    expect(sheet.header.cells).toEqual(["Name", "Code", "Kind"]);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0].cells).toEqual(["VM-1", "X1"]);
    // writeRepeatedText writes whole pieces of ceil(1 MB / 3) repeats: two of them, two records each.
    expect(sheet.rows[0].row).toBe(1 + 2 * 2 * Math.ceil(MB / 3) + 1);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
    expect(Math.max(0, ...gaps)).toBeLessThan(200);
  });

  it("refuses a 50 MB quoted field at csv-parse's record limit, without reading the rest", async () => {
    await writeRepeatedText(path("huge-field.csv"), 'Name,Remark\nVM-1,"', "x".repeat(1024), 50 * MB, '"\n');
    expect((await refused(path("huge-field.csv"), "tooLarge")).params).toEqual({
      what: "record",
      limit: 2 * MB,
    });
  });
});

describe("readSheet: hostile files", () => {
  const hostile = (name: string, around: { before?: string; after?: string }) =>
    write(name, xlsx(workbookParts([sheetXml(ROWS, around)])));

  it("skips <cols> over 2,147,483,647 columns", async () => {
    const file = hostile("cols.xlsx", {
      before: '<cols><col min="1" max="2147483647" width="9" customWidth="1"/></cols>',
    });
    expect(readFileSync(file).length).toBeLessThan(2000);
    expect(await read(file)).toEqual(NORMAL);
  });

  it("skips a merged cell over A2:XFD1048576", async () => {
    expect(
      await read(
        hostile("merge.xlsx", { after: '<mergeCells count="1"><mergeCell ref="A2:XFD1048576"/></mergeCells>' }),
      ),
    ).toEqual(NORMAL);
  });

  it("skips a data validation, conditional formatting and hyperlinks over the whole sheet", async () => {
    const after =
      '<conditionalFormatting sqref="A1:XFD1048576"><cfRule type="expression" priority="1"><formula>TRUE</formula></cfRule></conditionalFormatting>' +
      '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="A1:XFD1048576"><formula1>"a,b"</formula1></dataValidation></dataValidations>' +
      '<hyperlinks><hyperlink ref="A1:XFD1048576" r:id="rId9"/></hyperlinks>';
    expect(await read(hostile("validation.xlsx", { before: '<dimension ref="A1:XFD1048576"/>', after }))).toEqual(
      NORMAL,
    );
  });

  it("reads a cell at XFD1048576 as a reference, not a size", async () => {
    const rows = `${ROWS}<row r="1048576">${inline("A1048576", "near")}${inline("XFD1048576", "far")}</row>`;
    expect(await read(write("far.xlsx", xlsx(workbookParts([sheetXml(rows)]))))).toEqual({
      header: NORMAL.header,
      rows: [...NORMAL.rows, { row: 1048576, cells: ["near"] }],
      count: 2,
    });
  });

  it("refuses 8,000,000 rows deflated into 1.4 MB: by their declared size, or row 10,001 when it lies", async () => {
    expect(readFileSync(path("rows8m.xlsx")).length).toBeLessThan(2 * MB);
    expect((await refused(path("rows8m.xlsx"), "tooLarge")).params).toEqual({
      what: "text",
      limit: LIMITS.maxTextBytes,
    });
    const lying = write(
      "rows8m-lying.xlsx",
      withDeclaredSize(readFileSync(path("rows8m.xlsx")), "xl/worksheets/sheet1.xml", 60 * MB),
    );
    expect((await refused(lying, "tooMany")).params).toEqual({ limit: 10_000 });
    // Rows without text in the columns read: all 60 MB declared are read, then the lie is found.
    const empty = write(
      "rows8m-column-b-lying.xlsx",
      withDeclaredSize(readFileSync(path("rows8m-column-b.xlsx")), "xl/worksheets/sheet1.xml", 60 * MB),
    );
    expect((await refused(empty, "notSheet", { ...LIMITS, maxColumns: 1 })).params).toEqual({ reason: "zip" });
  });

  it("keeps the event loop turning, and stops at timeoutMs, while 8,000,000 rows stream past", async () => {
    // Turns and the time used are counted in CPU time (see BOUND_CPU_MS): the limit itself is the clock's, so on a
    // busy machine the reader stops at 2.5 s having used less of the CPU, never more than 2.5 s of each core's.
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(cpuMs()), 10);
    const limits = { ...LIMITS, maxColumns: 1, maxTextBytes: 1024 * MB, timeoutMs: 2500 };
    let error: SheetError;
    try {
      error = await refused(path("rows8m-column-b.xlsx"), "tooSlow", limits);
    } finally {
      clearInterval(ticker);
    }
    expect(error.params).toEqual({ limit: 2500 });
    const [, clock, cpu] = timings.at(-1)!;
    expect(clock).toBeGreaterThanOrEqual(2400);
    expect(cpu).toBeLessThan(4000);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
    expect(ticks.length).toBeGreaterThan(20);
    expect(Math.max(...gaps)).toBeLessThan(200);
  });

  it("refuses a zip bomb: 1 GB of zeros, spaces in a shared string, a part that inflates 1000 times", async () => {
    const parts = workbookParts([sheetXml(ROWS)]);
    delete parts["xl/worksheets/sheet1.xml"];
    await writeRepeatedXlsx(path("zeros.xlsx"), parts, {
      name: "xl/worksheets/sheet1.xml",
      head: "",
      repeat: "\0",
      times: 1024 * MB,
      tail: "",
    });
    expect(readFileSync(path("zeros.xlsx")).length).toBeLessThan(2 * MB);
    expect((await refused(path("zeros.xlsx"), "tooLarge")).params).toEqual({
      what: "text",
      limit: LIMITS.maxTextBytes,
    });
    const lyingZeros = write(
      "zeros-lying.xlsx",
      withDeclaredSize(readFileSync(path("zeros.xlsx")), "xl/worksheets/sheet1.xml", 1000),
    );
    await refused(lyingZeros, "notSheet");

    const withSheet = workbookParts([sheetXml(ROWS)]);
    const spaces = {
      name: "xl/sharedStrings.xml",
      head: "<sst><si><t>",
      repeat: " ",
      times: 1024 * MB,
      tail: "</t></si></sst>",
    };
    await writeRepeatedXlsx(path("spaces.xlsx"), withSheet, spaces);
    const lyingSpaces = write(
      "spaces-lying.xlsx",
      withDeclaredSize(readFileSync(path("spaces.xlsx")), "xl/sharedStrings.xml", 50 * MB),
    );
    expect((await refused(lyingSpaces, "tooLarge")).params).toEqual({ what: "node", limit: 2 * MB });
    await writeRepeatedXlsx(path("spaces-50mb.xlsx"), withSheet, { ...spaces, times: 50 * MB });
    expect((await refused(path("spaces-50mb.xlsx"), "tooLarge")).params).toEqual({ what: "ratio", limit: 500 });
  });

  it("cuts a 1 MB shared string to maxCellChars, and refuses one that inflates 1,000 times", async () => {
    // Letters that do not repeat within deflate's window, so the part compresses as text does.
    let seed = 11;
    const letters = Array.from({ length: MB }, () =>
      String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26)),
    ).join("");
    const parts = (long: string) =>
      xlsx(
        workbookParts([sheetXml(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>`)], {
          "xl/sharedStrings.xml": sharedStringsXml([`<t>${long}</t>`, "<t>next</t>"]),
        }),
      );
    const file = write("long-string.xlsx", parts(letters));
    expect(readFileSync(file).length).toBeLessThan(MB);
    const sheet = await read(file);
    expect(sheet.header.cells).toEqual([letters.slice(0, 4096), "next"]);
    expect(JSON.stringify(sheet).length).toBeLessThan(5000);
    const repeated = write("long-repeated-string.xlsx", parts("x".repeat(MB)));
    expect(readFileSync(repeated).length).toBeLessThan(20_000);
    expect((await refused(repeated, "tooLarge")).params).toEqual({ what: "ratio", limit: 500 });
  });

  it("refuses 2,000,000 shared strings", async () => {
    // 2,000 different strings (42 KB, more than deflate's 32 KB window, so the part compresses as text does)
    // repeated 1,000 times.
    let seed = 7;
    const letter = () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 26));
    const unit = Array.from(
      { length: 2000 },
      () => `<si><t>${letter()}${letter()}${letter()}${letter()}</t></si>`,
    ).join("");
    await writeRepeatedXlsx(path("strings.xlsx"), workbookParts([sheetXml(ROWS)]), {
      name: "xl/sharedStrings.xml",
      head: "<sst>",
      repeat: unit,
      times: 1000,
      tail: "</sst>",
    });
    expect((await refused(path("strings.xlsx"), "tooLarge")).params).toEqual({
      what: "sharedStrings",
      limit: 1_000_000,
    });
  });

  it("refuses a ZIP that lies about its sizes, and a truncated one", async () => {
    const valid = xlsx(workbookParts([sheetXml(ROWS)]));
    expect(
      (await refused(write("short.xlsx", withDeclaredSize(valid, "xl/worksheets/sheet1.xml", 10)), "notSheet")).params,
    ).toEqual({
      reason: "zip",
    });
    expect(
      (await refused(write("4gb.xlsx", withDeclaredSize(valid, "xl/worksheets/sheet1.xml", 0xffffffff)), "tooLarge"))
        .params,
    ).toEqual({ what: "text", limit: LIMITS.maxTextBytes });
    for (const cut of [0.3, 0.6, 0.95])
      expect(
        (await refused(write(`truncated-${cut}.xlsx`, valid.subarray(0, Math.floor(valid.length * cut))), "notSheet"))
          .params,
      ).toEqual({
        reason: "zip",
      });
  });

  it("refuses a DOCTYPE (billion laughs) without expanding it, undefined entities and deep nesting", async () => {
    const entities = [
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
    ].join("");
    const laughs = `<?xml version="1.0"?><!DOCTYPE sst [${entities}]><sst><si><t>&lol9;</t></si></sst>`;
    const sheet = sheetXml(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`);
    const file = write("laughs.xlsx", xlsx(workbookParts([sheet], { "xl/sharedStrings.xml": laughs })));
    expect((await refused(file, "notSheet")).params).toEqual({ reason: "doctype" });
    const undefinedEntity = `<?xml version="1.0"?><sst><si><t>&lol9;</t></si></sst>`;
    const file2 = write("entity.xlsx", xlsx(workbookParts([sheet], { "xl/sharedStrings.xml": undefinedEntity })));
    expect((await refused(file2, "notSheet")).params).toEqual({ reason: "xml" });
    const deep = sheetXml(`${ROWS}${"<x>".repeat(100_000)}${"</x>".repeat(100_000)}`);
    expect((await refused(write("deep.xlsx", xlsx(workbookParts([deep]))), "notSheet")).params).toEqual({
      reason: "depth",
    });
  });

  it("refuses what is not a spreadsheet: random bytes, a PNG, a ZIP of something else, an empty file", async () => {
    expect(
      (await refused(write("random.bin", Buffer.concat([Buffer.from([0xff]), randomBytes(64 * 1024)])), "notSheet"))
        .params,
    ).toEqual({
      reason: "binary",
    });
    expect((await refused(write("image.png", tinyPng()), "notSheet")).params).toEqual({ reason: "binary" });
    const other = xlsx({ "word/document.xml": "<document/>", "[Content_Types].xml": "<Types/>" });
    expect((await refused(write("other.zip", other), "notSheet")).params).toEqual({ reason: "noSheet" });
    const fake = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), randomBytes(1000)]);
    expect((await refused(write("fake.zip", fake), "notSheet")).params).toEqual({ reason: "zip" });
    await refused(write("empty.csv", ""), "empty");
  });

  it("leaves no file descriptor open, whatever ends the reading", async () => {
    // The descriptors open on this test's files (other parts of the process open and close their own).
    const open = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false; // closed between the listing and the look
        }
      }).length;
    const valid = xlsx(workbookParts([sheetXml(ROWS)]));
    const laughs = `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY lol "lol">]><sst><si><t>&lol;</t></si></sst>`;
    // Each ends the reading differently: a declared size, tooMany, an entry's bytes, the central directory,
    // a parse error, the CSV record limit, the file's bytes, success, and the timer.
    const files = [
      path("rows8m.xlsx"),
      write(
        "fd-rows8m-lying.xlsx",
        withDeclaredSize(readFileSync(path("rows8m.xlsx")), "xl/worksheets/sheet1.xml", 60 * MB),
      ),
      write("fd-short.xlsx", withDeclaredSize(valid, "xl/worksheets/sheet1.xml", 10)),
      write("fd-truncated.xlsx", valid.subarray(0, valid.length / 2)),
      write("fd-laughs.xlsx", xlsx(workbookParts([sheetXml(ROWS)], { "xl/sharedStrings.xml": laughs }))),
      write("fd-field.csv", `Name\n"${"x".repeat(3 * MB)}"\n`),
      write("fd-image.png", tinyPng()),
      write("fd-valid.xlsx", valid),
    ];
    // A closed descriptor is released once its close callback has run (seconds on a busy machine): each
    // count waits for that, and fails on one left open.
    const released = { timeout: 15_000, interval: 20 };
    await readSheet(files[1], LIMITS).catch(() => undefined);
    await expect.poll(open, released).toBe(0);
    for (const file of files) await readSheet(file, LIMITS).catch(() => undefined);
    const slow = { ...LIMITS, maxColumns: 1, maxTextBytes: 1024 * MB, timeoutMs: 300 };
    await expect(readSheet(path("rows8m-column-b.xlsx"), slow)).rejects.toMatchObject({ problem: "tooSlow" });
    await expect.poll(open, released).toBe(0);
  });
});

describe("readSheet: a valid file of 10,000 rows", () => {
  it("reads an import file of 10,000 rows written by exceljs", async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [
      `VM-${String(i).padStart(5, "0")}`,
      String(864512051000000 + i),
      "Vending machine",
      "Model A",
      "Spec 1",
      "Protocol X",
      "Outlet 1",
      `R${i % 100}`,
      "2027-12-31",
      `remark ${i}`,
    ]);
    const file = write("10000.xlsx", await importFile(rows));
    const sheet = await read(file);
    expect(sheet.header.cells[0]).toBe("Device code");
    expect(sheet.rows).toHaveLength(10_000);
    expect(sheet.rows[9999]).toEqual({
      row: 10_001,
      cells: [
        "VM-09999",
        "864512051009999",
        "Vending machine",
        "Model A",
        "Spec 1",
        "Protocol X",
        "Outlet 1",
        "R99",
        "2027-12-31",
        "remark 9999",
      ],
    });
    const csv = write("10000.csv", ["a,b,c", ...rows.map((r) => r.join(","))].join("\n"));
    expect((await read(csv)).rows).toHaveLength(10_000);
  });
});

describe("readSheet: rows handed to a reader as they come", () => {
  const rows = Array.from({ length: 2_500 }, (_, i) => [`VM-${i}`, String(1000 + i), `remark ${i}`]);

  /** Reads a file through a reader of `batch` rows that takes `pause` ms a batch; answers what it saw. */
  async function stream(file: string, batch: number, limits = LIMITS, pause = 0) {
    const batches: { first: number; size: number; read: number; header: string }[] = [];
    const seen: string[][] = [];
    const sheet = await readSheet(file, limits, {
      batch,
      async onRows(header, got, read) {
        batches.push({ first: got[0].row, size: got.length, read, header: header.cells[0] });
        seen.push(...got.map((r) => r.cells));
        if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
      },
    });
    return { sheet, batches, seen };
  }

  for (const kind of ["xlsx", "csv"] as const)
    it(`hands every row of a ${kind.toUpperCase()} file over in order, in batches, keeping none`, async () => {
      const file =
        kind === "xlsx"
          ? write("stream.xlsx", await importFile(rows))
          : write("stream.csv", ["Name,Code,Remark", ...rows.map((r) => r.join(","))].join("\n"));
      const { sheet, batches, seen } = await stream(file, 1_000);
      expect(sheet.rows).toEqual([]);
      expect(sheet.count).toBe(2_500);
      expect(seen).toEqual(rows);
      // Whole batches of at least 1,000 rows, then what is left; the header with each; the share read grows to 1.
      for (const b of batches.slice(0, -1)) expect(b.size).toBeGreaterThanOrEqual(1_000);
      expect(batches.reduce((n, b) => n + b.size, 0)).toBe(2_500);
      expect(batches.length).toBeGreaterThanOrEqual(2);
      expect(batches.length).toBeLessThanOrEqual(3);
      expect(batches[0].first).toBe(2);
      expect(new Set(batches.map((b) => b.header)).size).toBe(1);
      expect(batches.map((b) => b.read)).toEqual([...batches.map((b) => b.read)].sort((a, b) => a - b));
      expect(batches.at(-1)!.read).toBe(1);
      expect(batches[0].read).toBeLessThan(1);
    });

  it("does not count the reader's own time against timeoutMs, and still stops at maxRows", async () => {
    const file = write("slow-reader.csv", ["Name,Code,Remark", ...rows.map((r) => r.join(","))].join("\n"));
    // Three batches of 200 ms each against a 300 ms budget for the reading itself.
    const { sheet } = await stream(file, 1_000, { ...LIMITS, timeoutMs: 300 }, 200);
    expect(sheet.count).toBe(2_500);
    const error = await readSheet(file, { ...LIMITS, maxRows: 2_000 }, { batch: 500, onRows: async () => {} }).then(
      () => undefined,
      (e: unknown) => e as SheetError,
    );
    expect(error).toBeInstanceOf(SheetError);
    expect(error!.problem).toBe("tooMany");
  });

  it("passes what the reader throws through as it is, never as a bad file", async () => {
    const failure = new Error("the database went away");
    for (const file of [
      write("fails.csv", ["Name,Code,Remark", ...rows.map((r) => r.join(","))].join("\n")),
      write("fails.xlsx", await importFile(rows)),
    ]) {
      const thrown = await readSheet(file, LIMITS, {
        batch: 1_000,
        onRows: async () => {
          throw failure;
        },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(thrown).toBe(failure);
    }
  });
});

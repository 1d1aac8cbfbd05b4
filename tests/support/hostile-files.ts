// The hostile files of the fuzz suite's file part and of the bench (issue 27): spreadsheets that expand
// ranges, decompress into gigabytes, lie about their sizes, nest or repeat without end; CSV variants; and
// files that are no spreadsheet at all. All are generated here, none is committed; the large ones are
// written to disk by the streaming writers of sheets.ts and never held.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tinyPng } from "./files.ts";
import { importFile, IMPORT_HEADERS } from "./import-file.ts";
import {
  sharedStringsXml,
  sheetXml,
  withDeclaredSize,
  workbookParts,
  writeRepeatedText,
  writeRepeatedXlsx,
  xlsx,
} from "./sheets.ts";

export interface HostileFile {
  name: string;
  path: string;
}

const MB = 1024 * 1024;
const header = `<row r="1">${IMPORT_HEADERS.map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`).join("")}</row>`;
const row = (n: number, text: string) => `<row r="${n}"><c r="A${n}" t="inlineStr"><is><t>${text}</t></is></c></row>`;

/** Writes every hostile file into `dir`; answers their names and paths. */
export async function writeHostileFiles(dir: string): Promise<HostileFile[]> {
  mkdirSync(dir, { recursive: true });
  const files: HostileFile[] = [];
  const put = (name: string, data: Buffer | string) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    files.push({ name, path });
  };
  const big = async (name: string, write: (path: string) => Promise<unknown>) => {
    const path = join(dir, name);
    await write(path);
    files.push({ name, path });
  };

  // The ranges the spreadsheet library once expanded (issue 27's reproductions).
  const ranged = (before: string, after: string) =>
    xlsx(workbookParts([sheetXml(header + row(2, "VM-1"), { before, after })]));
  put("cols-2147483647.xlsx", ranged(`<cols><col min="1" max="2147483647" width="9"/></cols>`, ""));
  put("merge-whole-sheet.xlsx", ranged("", `<mergeCells count="1"><mergeCell ref="A2:XFD1048576"/></mergeCells>`));
  put(
    "validation-whole-sheet.xlsx",
    ranged(
      "",
      `<dataValidations count="1"><dataValidation type="list" sqref="A1:XFD1048576"><formula1>"a,b"</formula1></dataValidation></dataValidations>`,
    ),
  );
  put(
    "cell-at-XFD1048576.xlsx",
    xlsx(workbookParts([sheetXml(`${header}<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`)])),
  );
  // 8,000,000 rows in about 1.4 MB, honest and lying about the sheet's size.
  const rows8m = join(dir, "rows-8m.xlsx");
  await big("rows-8m.xlsx", (path) =>
    writeRepeatedXlsx(path, workbookParts([]), {
      name: "xl/worksheets/sheet1.xml",
      head: sheetXml("").split("<sheetData>")[0] + "<sheetData>" + header,
      repeat: `<row><c t="inlineStr"><is><t>VM</t></is></c><c t="inlineStr"><is><t>HW</t></is></c></row>`,
      times: 8_000_000,
      tail: "</sheetData></worksheet>",
    }),
  );
  put("rows-8m-lying.xlsx", withDeclaredSize(readFileSync(rows8m), "xl/worksheets/sheet1.xml", 60 * MB));
  // A zip bomb: a gigabyte of zeros after the sheet's head.
  await big("zeros-1gb.xlsx", (path) =>
    writeRepeatedXlsx(path, workbookParts([]), {
      name: "xl/worksheets/sheet1.xml",
      head: sheetXml("").split("<sheetData>")[0] + "<sheetData>",
      repeat: "\0".repeat(1024),
      times: 1024 * 1024,
      tail: "</sheetData></worksheet>",
    }),
  );
  // One shared string of a megabyte of ordinary text, quoted by every problem of its cell.
  const words = "lorem ipsum dolor sit amet consectetur ";
  put(
    "shared-string-1mb.xlsx",
    xlsx(
      workbookParts([sheetXml(`${header}<row r="2"><c r="A2" t="s"><v>0</v></c><c r="D2" t="s"><v>0</v></c></row>`)], {
        "xl/sharedStrings.xml": sharedStringsXml([`<t>${words.repeat(Math.ceil(MB / words.length))}</t>`]),
      }),
    ),
  );
  // Two million shared strings.
  await big("shared-strings-2m.xlsx", (path) =>
    writeRepeatedXlsx(path, workbookParts([sheetXml(header + row(2, "VM-1"))]), {
      name: "xl/sharedStrings.xml",
      head: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`,
      repeat: "<si><t>a</t></si>",
      times: 2_000_000,
      tail: "</sst>",
    }),
  );
  const valid = xlsx(workbookParts([sheetXml(header + row(2, "VM-1"))]));
  put("declares-10-bytes.xlsx", withDeclaredSize(valid, "xl/worksheets/sheet1.xml", 10));
  put("declares-4gb.xlsx", withDeclaredSize(valid, "xl/worksheets/sheet1.xml", 0xffffffff));
  put("truncated.xlsx", valid.subarray(0, Math.floor(valid.length * 0.6)));
  put(
    "billion-laughs.xlsx",
    xlsx(
      workbookParts([
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>`,
      ]),
    ),
  );
  put("deep-nesting.xlsx", xlsx(workbookParts([sheetXml(`${"<x>".repeat(100_000)}${"</x>".repeat(100_000)}`)])));
  put("template-11000-rows.xlsx", await importFile(Array.from({ length: 11_000 }, (_, i) => [`FZ-${i}`, `FZHW${i}`])));
  put(
    "template-valid.xlsx",
    await importFile([["FZ-OK-1", "FZHWOK0001", "Vending machine", "No such model", "S", "P"]]),
  );

  // CSV: too many rows, a cell of a megabyte, a field of 5 MB, a NUL, broken UTF-8, UTF-16.
  await big("csv-11000-rows.csv", (path) =>
    writeRepeatedText(path, `${IMPORT_HEADERS.join(",")}\r\n`, "FZ-1,FZHW1,Vending machine\r\n", 11_000 * 30, ""),
  );
  put("csv-cell-1mb.csv", `${IMPORT_HEADERS.join(",")}\r\nFZ-1,FZHW1,Vending machine,${"m".repeat(MB)}\r\n`);
  await big("csv-field-5mb.csv", (path) =>
    writeRepeatedText(path, `${IMPORT_HEADERS.join(",")}\r\n"`, "q", 5 * MB, `"\r\n`),
  );
  put("csv-nul.csv", `${IMPORT_HEADERS.join(",")}\r\nFZ-1\0,FZHW1\r\n`);
  put(
    "csv-broken-utf8.csv",
    Buffer.concat([Buffer.from(`${IMPORT_HEADERS.join(",")}\r\n`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1])]),
  );
  put("csv-utf16.csv", Buffer.from(`\ufeff${IMPORT_HEADERS.join(",")}\r\nFZ-1,FZHW1\r\n`, "utf16le"));
  put("csv-unclosed-quote.csv", `${IMPORT_HEADERS.join(",")}\r\n"FZ-1,FZHW1\r\n`);

  // Not a spreadsheet.
  put("image.png", tinyPng());
  put("random.bin", randomBytes(64 * 1024));
  put("pk-garbage.zip", Buffer.concat([Buffer.from("PK\u0003\u0004"), randomBytes(4096)]));
  put("pdf-header.pdf", "%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n");
  put("svg-script.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`);
  return files;
}

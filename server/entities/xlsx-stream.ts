// An XLSX workbook of one sheet, written as its rows come: the sheet's XML is deflated into the ZIP
// container by fflate's streaming Zip and each compressed chunk goes straight to the output. exceljs's
// "streaming" WorkbookWriter (4.4.0) hands its parts to JSZip, which holds the whole file in memory until
// it is finished (200,000 rows grew the server by 546 MiB); this keeps a page. Cells are numbers or
// inline strings; styles: a bold header and each column's number format (an amount's currency, a
// percentage, a date), so a time is a date cell a spreadsheet sorts and computes with.
import { Zip, ZipDeflate } from "fflate";
import type { Writable } from "node:stream";

export interface SheetColumn {
  header: string;
  width: number;
  /** The number format of the column's cells ("#,##0.00", "0.00%", "yyyy-mm-dd hh:mm:ss"); none: General. */
  numFmt?: string;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * styles.xml: cellXfs 0 is plain, 1 the bold header, then one per distinct number format (custom formats
 * are numbered from 164, the first id a workbook may define).
 */
function stylesOf(formats: string[]): string {
  const numFmts = formats.map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xmlText(code)}"/>`);
  const xfs = formats.map(
    (_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
  );
  return `${XML}<styleSheet xmlns="${MAIN}">${numFmts.length ? `<numFmts count="${numFmts.length}">${numFmts.join("")}</numFmts>` : ""}<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${2 + xfs.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>${xfs.join("")}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
}

const HEADER_STYLE = 1;

/** Text as XML character data: escaped, without the control characters XML cannot hold. */
export const xmlText = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** A column's letters: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnLetters(index: number): string {
  let out = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

const encoder = new TextEncoder();

export class XlsxStream {
  private readonly zip: Zip;
  private readonly sheet: ZipDeflate;
  private readonly letters: string[];
  /** Each column's cell style attribute (` s="2"`), or nothing for General. */
  private readonly styles: string[];
  private row = 0;

  constructor(out: Writable, sheetName: string, columns: SheetColumn[]) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) out.destroy(error);
      else if (!out.destroyed) {
        out.write(Buffer.from(chunk));
        if (final) out.end();
      }
    });
    const name = xmlText(sheetName.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Sheet1");
    const whole = (path: string, text: string) => {
      const file = new ZipDeflate(path, { level: 6 });
      this.zip.add(file);
      file.push(encoder.encode(text), true);
    };
    whole(
      "[Content_Types].xml",
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    );
    whole(
      "_rels/.rels",
      `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    whole(
      "xl/workbook.xml",
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    whole(
      "xl/_rels/workbook.xml.rels",
      `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    const formats = [...new Set(columns.flatMap((c) => (c.numFmt ? [c.numFmt] : [])))];
    this.styles = columns.map((c) => (c.numFmt ? ` s="${2 + formats.indexOf(c.numFmt)}"` : ""));
    whole("xl/styles.xml", stylesOf(formats));
    this.sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: 6 });
    this.zip.add(this.sheet);
    this.letters = columns.map((_, i) => columnLetters(i));
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`);
    this.sheet.push(
      encoder.encode(
        `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${cols.join("")}</cols><sheetData>`,
      ),
    );
    this.push([
      this.rowXml(
        columns.map((c) => c.header),
        true,
      ),
    ]);
  }

  private rowXml(values: (string | number | null)[], header = false): string {
    const r = ++this.row;
    let cells = "";
    values.forEach((value, i) => {
      if (value === null || value === undefined || value === "") return;
      const ref = `${this.letters[i]}${r}`;
      const s = header ? ` s="${HEADER_STYLE}"` : this.styles[i];
      cells +=
        typeof value === "number"
          ? `<c r="${ref}"${s}><v>${Number.isFinite(value) ? value : 0}</v></c>`
          : `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
    });
    return `<row r="${r}">${cells}</row>`;
  }

  private push(rows: string[]): void {
    this.sheet.push(encoder.encode(rows.join("")));
  }

  /** Adds rows (values in the columns' order): compressed and written at once. */
  addRows(rows: (string | number | null)[][]): void {
    this.push(rows.map((values) => this.rowXml(values)));
  }

  /** Closes the sheet and the container; the output ends with the last chunk. */
  end(): void {
    this.sheet.push(encoder.encode("</sheetData></worksheet>"), true);
    this.zip.end();
  }
}

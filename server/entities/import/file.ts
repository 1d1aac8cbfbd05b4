// What an import (the generic engine's, server/entities/import/) knows about a file: its size and reading
// limits, how a problem is reported, and how a cell is quoted in one.
import { readSheet, SheetError, type RowReader, type SheetLimits } from "../sheet-read.ts";
import { IMPORT_ROWS } from "../../../src/schema/imports.ts";

/**
 * The most rows one file may hold, the most problems an answer lists (all are counted), and the largest
 * file taken (a 100,000-row XLSX of ten columns is about 4 MB; as CSV about 10 MB).
 */
export const IMPORT_LIMITS = { rows: IMPORT_ROWS, problems: 1_000, bytes: 20 * 1024 * 1024 };

/**
 * How a file is read (server/entities/sheet-read.ts): the first sheet of an XLSX workbook, or a CSV file,
 * as a stream, never as a whole model. Columns past the 64th are not read (a file's columns may come in
 * any order, with others between them); a cell is cut at 2,048 characters, past every field's own length
 * (a remark's 2,000: the field's rule still refuses a longer one); unpacked, a file's text may be 64 MB
 * (100,000 rows of the template's ten columns are about 50 MB); reading stops at the 100,001st row, and
 * after 20 s of reading (the check's own work on the rows not counted).
 */
export const SHEET_LIMITS: SheetLimits = {
  maxRows: IMPORT_LIMITS.rows,
  maxColumns: 64,
  maxCellChars: 2048,
  maxTextBytes: 64 * 1024 * 1024,
  timeoutMs: 20_000,
};

/** A cell's text as a problem quotes it: at most 100 characters (a cell may hold 2,048). */
export const quoted = (text: string): string => (text.length > 100 ? `${text.slice(0, 99)}…` : text);

export interface Problem {
  /** The row in the file (1 is the header row). */
  row: number;
  /** The column's header, in the caller's language. */
  column: string;
  /** The field it fills. */
  field: string;
  message: string;
}

/**
 * An arrived file's first sheet, read within SHEET_LIMITS, its rows handed to `reader` in batches as they
 * come; a file it cannot take is refused with the 400 `refusal` makes of the problem's key and its figures
 * (in the import's own words).
 */
export async function readImportSheet(
  path: string,
  refusal: (key: string, params: Record<string, unknown>) => Error,
  reader: RowReader,
): Promise<Awaited<ReturnType<typeof readSheet>>> {
  try {
    return await readSheet(path, SHEET_LIMITS, reader);
  } catch (error) {
    if (!(error instanceof SheetError)) throw error;
    if (error.problem === "tooLarge")
      throw refusal("contentTooLarge", { limit: `${SHEET_LIMITS.maxTextBytes / 1024 / 1024} MB` });
    throw refusal(error.problem, { limit: SHEET_LIMITS.maxRows, ...error.params });
  }
}

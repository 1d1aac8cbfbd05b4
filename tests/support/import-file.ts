// A device import file as a user fills it in: the English template's headers, written here apart from
// the server's column list, so the tests and the bench check the server against what users see.
import ExcelJS from "exceljs";

export const IMPORT_HEADERS = [
  "Device code",
  "Hardware ID",
  "Device type",
  "Model",
  "Spec",
  "Protocol",
  "Outlet",
  "Room",
  "Expiry date",
  "Remark",
];

/** An XLSX with the headers and the rows, as the upload sends it. */
export async function importFile(rows: (string | number | null)[][], headers = IMPORT_HEADERS): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Devices");
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

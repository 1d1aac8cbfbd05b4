// A generic import's template (x-import): an XLSX workbook with one column per importable field, headed
// in the caller's language (required ones in red), and a sheet of notes saying what each column takes.
import ExcelJS from "exceljs";
import { translate, type Language } from "../../core/i18n.ts";
import type { EntityModel } from "../../model/model.ts";
import { entityNameKey } from "../../../src/schema/keys.ts";
import { columnLabel, importColumns, valueLabel, type ImportColumn } from "./columns.ts";
import { IMPORT_LIMITS } from "./file.ts";
import { NS } from "./check.ts";

/** What a column takes, in the caller's language. */
function rule(model: EntityModel, lng: Language, column: ImportColumn): string {
  const t = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:template.rules.${key}`, params);
  const entity = column.relation ? translate(lng, entityNameKey(column.relation)) : "";
  switch (column.kind) {
    case "enum":
      return t("enum", { allowed: (column.values ?? []).map((v) => valueLabel(model, lng, column, v)).join(", ") });
    case "relation":
      return t("relation", { entity });
    case "list":
      return column.items === "relation" ? t("relations", { entity }) : t("list");
    case "money":
      return t("money");
    case "integer":
    case "number":
      return t("number");
    default:
      return t("text");
  }
}

export async function templateWorkbook(model: EntityModel, lng: Language): Promise<ExcelJS.Buffer> {
  const t = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:${key}`, params);
  const columns = importColumns(model);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "merchant console";
  const sheet = workbook.addWorksheet(translate(lng, entityNameKey(model.name)).slice(0, 31), {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  sheet.columns = columns.map((c) => ({ header: columnLabel(model, lng, c), key: c.field, width: 20 }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  columns.forEach((c, i) => {
    if (c.required) header.getCell(i + 1).font = { bold: true, color: { argb: "FFC00000" } };
    // Text cells: a code of digits stays text, not a number in scientific notation.
    if (c.kind === "text") sheet.getColumn(i + 1).numFmt = "@";
  });

  addNotes(
    workbook,
    t,
    columns.map((column) => ({
      column: columnLabel(model, lng, column),
      required: column.required,
      rule: rule(model, lng, column),
    })),
  );
  return workbook.xlsx.writeBuffer();
}

/**
 * A template's sheet of notes: each column, whether it is required and what it takes, then the general
 * notes; `t` says the import's own words (its template.* keys).
 */
export function addNotes(
  workbook: ExcelJS.Workbook,
  t: (key: string, params?: Record<string, unknown>) => string,
  columns: { column: string; required: boolean; rule: string }[],
): void {
  const notes = workbook.addWorksheet(t("template.notes"));
  notes.columns = [
    { header: t("template.column"), key: "column", width: 20 },
    { header: t("template.requiredHeader"), key: "required", width: 12 },
    { header: t("template.rule"), key: "rule", width: 90 },
  ];
  notes.getRow(1).font = { bold: true };
  for (const { column, required, rule } of columns)
    notes.addRow({ column, required: t(required ? "template.yes" : "template.no"), rule });
  notes.addRow({});
  for (const key of ["general1", "general2", "general3"])
    notes.addRow({ column: t(`template.${key}`, { limit: IMPORT_LIMITS.rows }) });
}

// A generic import's template (x-import): an XLSX workbook with one column per importable field, headed
// in the caller's language (required ones in red), a sample row made from the schema, and a sheet of notes
// saying what each column takes.
import ExcelJS from "exceljs";
import { hasTranslation, translate, type Language } from "../../core/i18n.ts";
import { moneyText } from "../../core/money.ts";
import type { Queryable } from "../../db/db.ts";
import { modelOf, resolveNode, type EntityModel } from "../../model/model.ts";
import { entityKeyBase, entityNameKey, fieldHelpKey, fieldLabelKey } from "../../../src/schema/keys.ts";
import { scopeOf, type Ctx } from "../context.ts";
import { options } from "../repository.ts";
import { columnLabel, enumText, importColumns, normal, type ImportColumn } from "./columns.ts";
import { IMPORT_LIMITS } from "./file.ts";
import { liveByKey } from "./live.ts";
import { NS } from "./check.ts";

/** Where the sample finds the caller's own records: the titles it names, the keys it must not repeat. */
export interface TemplateSource {
  db: Queryable;
  ctx: Ctx;
}

/** What a relation column takes: the name (or another field, a protocol's code) of a record (of the caller's). */
function relationRule(lng: Language, column: ImportColumn): string {
  const t = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:template.rules.${key}`, params);
  const related = modelOf(column.relation!);
  const entity = translate(lng, entityNameKey(related.name));
  const [, ...others] = column.titleFields!;
  // A record named by other fields too: their labels, as words of the sentence.
  if (others.length)
    return t("relationOr", {
      entity,
      other: others
        .map((f) => translate(lng, fieldLabelKey(entityKeyBase(related.name), f)).toLocaleLowerCase(lng))
        .join(", "),
    });
  return t(related.scoped ? "relation" : "relationAll", { entity });
}

/** What a column takes, in the caller's language: by its kind and its schema, then its field's help. */
function rule(model: EntityModel, lng: Language, column: ImportColumn): string {
  const t = (key: string, params?: Record<string, unknown>) => translate(lng, `${NS}:template.rules.${key}`, params);
  const node = resolveNode(model.fields.get(column.field)!.node);
  const entity = column.relation ? translate(lng, entityNameKey(column.relation)) : "";
  const parts: string[] = [];
  switch (column.kind) {
    case "enum":
      parts.push(t("enum", { allowed: (column.values ?? []).map((v) => enumText(model, lng, column, v)).join(", ") }));
      break;
    case "relation":
      parts.push(relationRule(lng, column));
      break;
    case "list":
      parts.push(column.items === "relation" ? t("relations", { entity }) : t("list"));
      break;
    case "money":
      parts.push(t("money"));
      break;
    case "integer":
    case "number":
      parts.push(t("number"));
      break;
    default:
      if (node.format === "date") parts.push(t("date"));
      else parts.push(node.maxLength ? t("textMax", { max: node.maxLength }) : t("text"));
  }
  if (column.unique) parts.push(t("unique"));
  const help = fieldHelpKey(entityKeyBase(model.name), column.field);
  if (hasTranslation(help)) parts.push(translate(lng, help));
  return parts.join(t("separator"));
}

/** The field's example: its own, else the entity's first example's, else its default. */
function exampleOf(model: EntityModel, field: string): unknown {
  const raw = model.fields.get(field)!.node;
  const node = resolveNode(raw);
  const entity = (model.schema.examples?.[0] ?? {}) as Record<string, unknown>;
  return raw.examples?.[0] ?? node.examples?.[0] ?? entity[field] ?? raw.default ?? node.default;
}

/** A number the field's rule takes: the example when it is one, else its minimum, else 0, within its maximum. */
function numberFor(model: EntityModel, field: string, example: unknown): number {
  if (typeof example === "number") return example;
  const node = resolveNode(model.fields.get(field)!.node);
  const least = node.minimum ?? (node.exclusiveMinimum !== undefined ? Number(node.exclusiveMinimum) + 1 : 0);
  return node.maximum !== undefined ? Math.min(least, node.maximum) : least;
}

/**
 * A title of the related entity the check finds as one record of the caller's: the first, by title, no
 * other record in its scope shares (the check would call a shared one ambiguous).
 */
async function relatedTitle(source: TemplateSource | undefined, column: ImportColumn): Promise<string | undefined> {
  if (!source) return undefined;
  const LOOK = 200;
  const found = await options(source.db, modelOf(column.relation!), scopeOf(source.ctx.principal), {}, LOOK);
  const counts = new Map<string, number>();
  // As the check matches a title: whatever its case and spacing.
  for (const { title } of found) counts.set(normal(title), (counts.get(normal(title)) ?? 0) + 1);
  // The last title of a full page may go on past it.
  const unique = found.filter(
    ({ title }, at) => counts.get(normal(title)) === 1 && (found.length < LOOK || at < LOOK - 1),
  );
  return unique[0]?.title;
}

/**
 * The sample row, by field: each column's example (its field's, or its default) written as the file takes
 * it (an enum's label, money with two decimals, a list with commas), else a value its rule takes; a related
 * record by a title of the caller's, else (none there, or no source) left empty where the column may be and
 * else said in words. Its key, when the caller has a record with it, gets a number ("-2"), so that the
 * template sent back as it is checks without a problem.
 */
async function sampleRow(
  model: EntityModel,
  lng: Language,
  columns: ImportColumn[],
  source: TemplateSource | undefined,
): Promise<Record<string, string | number>> {
  // Numbers as numbers (a spreadsheet would flag a number kept as text); money as text with its decimals.
  const row: Record<string, string | number> = {};
  for (const column of columns) {
    const example = exampleOf(model, column.field);
    const related = async () => {
      const title = await relatedTitle(source, column);
      if (title !== undefined) return title;
      return column.required ? relationRule(lng, column) : "";
    };
    switch (column.kind) {
      case "enum": {
        const values = column.values ?? [];
        const value = values.find((v) => v === example) ?? values[0];
        row[column.field] = enumText(model, lng, column, value);
        break;
      }
      case "relation":
        row[column.field] = await related();
        break;
      case "list":
        row[column.field] =
          column.items === "relation"
            ? await related()
            : Array.isArray(example) && example.length
              ? example.map(String).join(", ")
              : typeof example === "string"
                ? example
                : columnLabel(model, lng, column);
        break;
      case "money":
        row[column.field] = moneyText(numberFor(model, column.field, example));
        break;
      case "integer":
      case "number":
        row[column.field] = numberFor(model, column.field, example);
        break;
      default:
        row[column.field] =
          typeof example === "string" || typeof example === "number"
            ? String(example)
            : columnLabel(model, lng, column);
    }
  }
  await unusedKey(model, row, source);
  return row;
}

/**
 * The sample's key, and each value no two records may share, made one no record holds (of the caller's,
 * or of everyone's for a unique one) by a number after it.
 */
async function unusedKey(model: EntityModel, row: Record<string, string | number>, source: TemplateSource | undefined) {
  const [key] = model.schema["x-import"]!.key;
  const columns = importColumns(model);
  const fields = [key, ...columns.filter((c) => c.unique && c.field !== key).map((c) => c.field)];
  for (const field of fields) {
    if (!source || typeof row[field] !== "string" || !row[field]) continue;
    const everyone = columns.find((c) => c.field === field)!.unique;
    const tries = [row[field], ...Array.from({ length: 8 }, (_, i) => `${row[field]}-${i + 2}`)];
    const live = await liveByKey(
      source.db,
      source.ctx,
      model,
      [field],
      tries.map((value) => ({ values: { [field]: value } })),
      everyone,
    );
    row[field] = tries.find((value) => !live.has(JSON.stringify([value]))) ?? row[field];
  }
}

/**
 * The template; with a source, its sample names the caller's own related records and no key it already has
 * (without one, a related column the file must fill says so in words, and the check refuses that row).
 */
export async function templateWorkbook(
  model: EntityModel,
  lng: Language,
  source?: TemplateSource,
): Promise<ExcelJS.Buffer> {
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
  sheet.addRow(await sampleRow(model, lng, columns, source)).font = { italic: true, color: { argb: "FF808080" } };

  addNotes(
    workbook,
    t,
    columns.map((column) => ({
      column: columnLabel(model, lng, column),
      required: column.required,
      rule: rule(model, lng, column),
    })),
    [t("template.sample")],
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
  /** Further general notes, after the shared ones. */
  more: string[] = [],
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
  for (const note of more) notes.addRow({ column: note });
}

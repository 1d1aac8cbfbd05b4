// An entity's import columns (x-import, meta.schema.json xImport) as the generic engine reads them: for
// each field, what a cell holds (text, a number, money with two decimals, an enum's value or label, a
// related record's title, or a list of those or of images separated by commas), its labels in the five
// languages, and every header text that names it.
import { modelOf, resolveNode, type EntityModel } from "../../model/model.ts";
import { hasTranslation, LANGUAGES, translate, type Language } from "../../core/i18n.ts";
import { entityKeyBase, enumKey, fieldLabelKey } from "../../../src/schema/keys.ts";
import type { JsonSchemaNode } from "../../../src/schema/types.ts";

export type CellKind = "text" | "integer" | "number" | "money" | "enum" | "relation" | "list";

export interface ImportColumn {
  field: string;
  kind: CellKind;
  required: boolean;
  /** The entity a relation (or a list of relations) names by its title. */
  relation?: string;
  /** The fields of that entity a cell may name its record by: its title, or those x-import.names gives. */
  titleFields?: string[];
  /** Among everyone's records no two may share the value (a one-field unique set, x-entity.unique). */
  unique: boolean;
  /** An enum's values. */
  values?: (string | number)[];
  /** A list's items: their own kind (a relation's ids, or text such as image addresses). */
  items?: "relation" | "text";
}

/** Header text as matched: trimmed, lower-cased, inner spaces folded. */
export const normal = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, " ");

function kindOf(node: JsonSchemaNode): Pick<ImportColumn, "kind" | "relation" | "values" | "items"> {
  if (node.enum) return { kind: "enum", values: node.enum as (string | number)[] };
  if (node["x-relation"] && node.type !== "array") return { kind: "relation", relation: node["x-relation"].entity };
  if (node.type === "array") {
    const items = node.items && !Array.isArray(node.items) ? resolveNode(node.items) : {};
    const relation = items["x-relation"]?.entity ?? node["x-relation"]?.entity;
    return relation ? { kind: "list", items: "relation", relation } : { kind: "list", items: "text" };
  }
  if (node["x-money"]) return { kind: "money" };
  if (node.type === "integer") return { kind: "integer" };
  if (node.type === "number") return { kind: "number" };
  return { kind: "text" };
}

const columnsOf = new Map<string, ImportColumn[]>();

/** The entity's import columns, in the template's order. */
export function importColumns(model: EntityModel): ImportColumn[] {
  const cached = columnsOf.get(model.name);
  if (cached) return cached;
  const required = new Set(model.schema.required ?? []);
  const { columns: fields, names = {} } = model.schema["x-import"]!;
  const unique = new Set(
    (model.schema["x-entity"].unique ?? []).filter((set) => set.length === 1).map(([field]) => field),
  );
  const columns = fields.map((field) => {
    const kind = kindOf(resolveNode(model.fields.get(field)!.node));
    const titleFields = kind.relation ? (names[field] ?? [modelOf(kind.relation).titleField ?? "name"]) : undefined;
    return { field, required: required.has(field), titleFields, unique: unique.has(field), ...kind };
  });
  columnsOf.set(model.name, columns);
  return columns;
}

/** A column's header in a language: its field's label. */
export const columnLabel = (model: EntityModel, lng: Language, column: ImportColumn): string =>
  translate(lng, fieldLabelKey(entityKeyBase(model.name), column.field));

/** An enum value's label in a language. */
export const valueLabel = (model: EntityModel, lng: Language, column: ImportColumn, value: string | number): string =>
  translate(lng, enumKey(entityKeyBase(model.name), column.field, String(value)));

/** An enum value as a file writes it in a language: its label, or (a switch's 0 and 1) the value itself. */
export const enumText = (model: EntityModel, lng: Language, column: ImportColumn, value: string | number): string =>
  hasTranslation(enumKey(entityKeyBase(model.name), column.field, String(value)))
    ? valueLabel(model, lng, column, value)
    : String(value);

/** Every header text that names a column: its label in each language and its field name. */
export function headerTexts(model: EntityModel): Map<string, ImportColumn> {
  const texts = new Map<string, ImportColumn>();
  for (const column of importColumns(model)) {
    for (const lng of LANGUAGES) texts.set(normal(columnLabel(model, lng, column)), column);
    texts.set(column.field, column);
  }
  return texts;
}

/** An enum's values by their value and their label in any language. */
export function enumValues(model: EntityModel, column: ImportColumn): Map<string, string | number> {
  const found = new Map<string, string | number>();
  for (const value of column.values ?? []) {
    found.set(normal(String(value)), value);
    // A value without a label of its own (a switch's 0 and 1) is named by its value alone.
    if (!hasTranslation(enumKey(entityKeyBase(model.name), column.field, String(value)))) continue;
    for (const lng of LANGUAGES) found.set(normal(valueLabel(model, lng, column, value)), value);
  }
  return found;
}

/** A list cell's items: separated by commas, semicolons or line breaks. */
export const listItems = (text: string): string[] =>
  text
    .split(/[,;\n，；]/)
    .map((s) => s.trim())
    .filter(Boolean);

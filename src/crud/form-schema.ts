// What an rjsf form gets from an entity schema: one self-contained schema (defs inlined, fields the
// user may not write left out), a uiSchema of translated titles, widgets and read-only fields, and
// translated validation messages. Same schema, same rules as the server (src/schema/ajv.ts).
import type { ErrorSchema, RJSFValidationError, UiSchema } from "@rjsf/utils";
import i18n from "i18next";
import { defsSchema, documentSchemas } from "../generated/schemas.ts";
import type { JsonSchemaEntity, JsonSchemaNode, Transition } from "../schema/types.ts";
import type { FieldError } from "../app/api.ts";
import { fieldView, holds, resolve, type EntityView, type FieldView, type FormView } from "./model.ts";
import { fieldLabelKey, isCommonField, commonFieldKey, ruleKey } from "../schema/keys.ts";
import { widgetFor } from "../widgets/choose.ts";
import { keyboardOf } from "../widgets/keyboard.ts";
import { fitsTable, TableArrayTemplate, TableRowObjectTemplate, TableRowTemplate } from "../widgets/table-array.tsx";

export type FormMode = "create" | "edit";
type Schema = Record<string, unknown>;

const ANNOTATIONS = ["$id", "$schema", "x-entity", "x-states", "x-operation", "examples", "description"];

/** Inlines references: defs#/definitions/x (and, inside defs, #/definitions/x) → #/definitions/x;
 * a document ($ref: page_layout) likewise, its own definitions renamed <document>.x. */
function bundle(node: unknown, definitions: Record<string, unknown>, inDefs = false): unknown {
  if (Array.isArray(node)) return node.map((n) => bundle(n, definitions, inDefs));
  if (!node || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = bundle(value, definitions, inDefs);
  const ref = out.$ref;
  const defsRef =
    typeof ref === "string" && (ref.startsWith("defs#/definitions/") || (inDefs && ref.startsWith("#/definitions/")));
  if (defsRef) {
    const name = (ref as string).slice((ref as string).indexOf("#/definitions/") + "#/definitions/".length);
    out.$ref = `#/definitions/${name}`;
    if (!(name in definitions)) {
      definitions[name] = {}; // placeholder against cycles
      definitions[name] = bundle(defsSchema.definitions![name], definitions, true);
    }
  } else if (typeof ref === "string" && !ref.startsWith("#")) {
    const document = documentSchemas.find((d) => d.$id === ref);
    if (document) {
      const prefix = `${ref}.`;
      const rename = (n: unknown): unknown =>
        JSON.parse(JSON.stringify(n).replaceAll('"#/definitions/', `"#/definitions/${prefix}`));
      for (const [name, def] of Object.entries(document.definitions ?? {})) definitions[prefix + name] = rename(def);
      const { $id: _id, $schema: _s, definitions: _d, ...root } = document as Schema;
      definitions[ref] = rename(root);
      out.$ref = `#/definitions/${ref}`;
    }
  }
  return out;
}

/** Removes names from `required` at the root and in if/then/else branches. */
function dropRequired(schema: Schema, names: Set<string>): void {
  if (Array.isArray(schema.required)) schema.required = (schema.required as string[]).filter((n) => !names.has(n));
  for (const branch of ["if", "then", "else"]) {
    if (branch !== "if" && schema[branch]) dropRequired(schema[branch] as Schema, names);
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) dropRequired(part, names);
}

/**
 * Drops the schemas' own descriptions (English, for developers) from a form schema: rjsf would show one
 * under a field that has no translated help. Follows schema keywords only, so a property named
 * "description" stays.
 */
function dropDescriptions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropDescriptions);
  if (!node || typeof node !== "object") return;
  const schema = node as Schema;
  if (typeof schema.description === "string") delete schema.description;
  for (const key of ["properties", "definitions", "patternProperties"])
    for (const child of Object.values((schema[key] ?? {}) as Schema)) dropDescriptions(child);
  for (const key of ["items", "additionalProperties", "if", "then", "else", "not", "allOf", "anyOf", "oneOf"])
    dropDescriptions(schema[key]);
}

/** The form schema of an entity (or an operation): create leaves out read-only fields; edit makes write-only ones optional. */
export function formSchema(view: FormView, mode: FormMode): Schema {
  const definitions: Record<string, unknown> = {};
  const schema = bundle(view.schema, definitions) as Schema;
  for (const key of ANNOTATIONS) delete schema[key];
  const properties = schema.properties as Record<string, Schema>;
  const readOnly = new Set(view.fields.filter((f) => f.readOnly).map((f) => f.name));
  if (mode === "create") {
    // A state a new record may start in (x-states initial: enabled or disabled) is chosen here.
    const states = (view.schema as JsonSchemaEntity)["x-states"] ?? {};
    for (const [name, machine] of Object.entries(states))
      if (machine.initial && properties[name]) {
        readOnly.delete(name);
        const { readOnly: _, ...writable } = properties[name];
        properties[name] = writable;
      }
    for (const name of readOnly) delete properties[name];
    dropRequired(schema, readOnly);
  } else {
    dropRequired(schema, new Set(view.fields.filter((f) => f.writeOnly).map((f) => f.name)));
    // Server-managed state and totals are shown, not validated: the server ignores them unchanged.
    dropRequired(schema, readOnly);
  }
  const form = { ...schema, definitions };
  dropDescriptions(form);
  return form;
}

/** A transition's input: only its fields, its required ones required (as the server checks it). */
export function transitionSchema(view: EntityView, transition: Transition): Schema {
  const definitions: Record<string, unknown> = {};
  const properties = Object.fromEntries(
    (transition.input ?? []).map((name) => [name, bundle(view.schema.properties[name], definitions)]),
  );
  const form = {
    type: "object",
    additionalProperties: false,
    properties,
    required: transition.requiredInput ?? [],
    definitions,
  };
  dropDescriptions(form);
  return form;
}

function titleAndHelp(key: string, helpKey: string): UiSchema {
  const ui: UiSchema = { "ui:title": i18n.t(key) };
  // A description, not ui:help: the antd theme shows help in place of a field's errors.
  if (i18n.exists(helpKey)) ui["ui:description"] = i18n.t(helpKey);
  return ui;
}

/** Titles, enum labels and widgets for the properties of an object, recursively. */
function objectUi(view: FormView, prefix: string, properties: Record<string, JsonSchemaNode>): UiSchema {
  const ui: UiSchema = {};
  for (const [name, raw] of Object.entries(properties)) {
    const field = fieldView(view.base, name, raw, false);
    const common = prefix === "" && isCommonField(name);
    const label = common ? commonFieldKey(name) : `${view.base}fields.${prefix}${name}.label`;
    const entry: UiSchema = {
      ...titleAndHelp(label, `${view.base}fields.${prefix}${name}.help`),
      ...widgetUi(view.name, field),
    };
    if (field.enum && !field.enumKey) entry["ui:enumNames"] = field.enum.map(String);
    const node = resolve(raw).node;
    const item = node.items ? resolve(node.items).node : undefined;
    if (node.properties) Object.assign(entry, objectUi(view, `${prefix}${name}.fields.`, node.properties));
    if (item?.properties) {
      entry.items = objectUi(view, `${prefix}${name}.fields.`, item.properties);
      const plain = Object.fromEntries(Object.entries(item.properties).map(([k, v]) => [k, resolve(v).node]));
      if (fitsTable({ properties: plain })) {
        // Edited as a table: labels in its header, not beside each input (help would repeat on every row).
        entry["ui:ArrayFieldTemplate"] = TableArrayTemplate;
        entry["ui:ArrayFieldItemTemplate"] = TableRowTemplate;
        entry.items["ui:ObjectFieldTemplate"] = TableRowObjectTemplate;
        for (const child of Object.keys(item.properties)) {
          const { "ui:description": _help, ...rest } = entry.items[child] as UiSchema;
          entry.items[child] = { ...rest, "ui:label": false };
        }
      }
    }
    ui[name] = entry;
  }
  return ui;
}

function widgetUi(entity: string, field: FieldView): UiSchema {
  const ui: UiSchema = {};
  const widget = widgetFor(field);
  if (widget) ui["ui:widget"] = widget;
  if (field.enumKey && field.enum) {
    const names = field.enum.map((v) => i18n.t(field.enumKey!(v)));
    if (field.kind === "enum" && field.node.type === "array") ui.items = { "ui:enumNames": names };
    else ui["ui:enumNames"] = names;
  }
  ui["ui:options"] = {
    entity,
    field: field.name,
    relation: field.relation,
    upload: field.upload,
    // The unit shown beside the input (money shows its currency as well).
    unit: field.ui.unit,
    // A phone's keyboard for it, and what the browser may fill it with.
    ...keyboardOf(field),
  };
  return ui;
}

/** The values the fields' `x-ui.when` read, as one key: the form's ui changes only when it does. */
export const whenKey = (view: FormView, data: Record<string, unknown>): string =>
  JSON.stringify([...new Set(view.fields.flatMap((f) => Object.keys(f.ui.when ?? {})))].map((name) => data[name]));

export function uiSchemaFor(
  view: FormView,
  schema: Schema,
  mode: FormMode,
  fixed: string[] = [],
  /** The form's values: a field for other records (a dryer's bake time on a vending device) is hidden. */
  data: Record<string, unknown> = {},
): UiSchema {
  // The schema's own properties (with their defs references), for those the form shows.
  const shown = new Set(Object.keys((schema.properties ?? {}) as object));
  const properties = Object.fromEntries(Object.entries(view.schema.properties).filter(([name]) => shown.has(name)));
  const ui = objectUi(view, "", properties);
  for (const field of view.fields) {
    const entry = ui[field.name];
    if (!entry) continue;
    if (field.ui.hidden || fixed.includes(field.name) || !holds(data, field.ui.when)) entry["ui:widget"] = "hidden";
    if (mode === "edit" && (field.readOnly || field.immutable)) entry["ui:readonly"] = true;
    if (mode === "edit" && field.writeOnly) entry["ui:placeholder"] = i18n.t("common:form.unchanged");
  }
  const order = view.fields.map((f) => f.name).filter((n) => n in properties);
  ui["ui:order"] = [...order, "*"];
  ui["ui:submitButtonOptions"] = { norender: true };
  return ui;
}

/** "/packages/0/fee" or ".packages.0.fee" → the field's translated label (nested labels included). */
export function labelOf(base: string, path: string): string {
  const names = path
    .split(/[./]/)
    .filter(Boolean)
    .filter((segment) => !/^\d+$/.test(segment));
  if (names.length === 0) return "";
  const key = fieldLabelKey(base, names);
  if (i18n.exists(key)) return i18n.t(key);
  const common = commonFieldKey(names[names.length - 1]);
  return i18n.exists(common) ? i18n.t(common) : names[names.length - 1];
}

/**
 * ajv's errors (via rjsf) in the user's language, named after the field's label (base: the schema's key
 * base). A relation left unchosen (missing, or 0 for none) says so: "nothing selected", before any call.
 */
export function translateErrors(base: string, isRelation: (field: string) => boolean = () => false) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // if/then failures repeat the branch's own errors; the branch's are the useful ones.
      .filter((error) => error.name !== "if")
      .map((error) => {
        const params = (error.params ?? {}) as Record<string, unknown>;
        const property =
          error.name === "required" &&
          params.missingProperty &&
          !String(error.property).endsWith(String(params.missingProperty))
            ? `${error.property ?? ""}.${params.missingProperty}`
            : (error.property ?? "");
        const field = labelOf(base, property);
        const limit = params.limit ?? params.comparison ?? params.multipleOf;
        let message: string;
        if (error.name === "x-compare") {
          const rule = String(params.rule ?? "");
          const key = ruleKey(base, rule);
          message = i18n.exists(key)
            ? i18n.t(key)
            : i18n.t("validation:x-compare", { field, other: labelOf(base, String(params.other)) });
        } else if (
          (error.name === "required" || (error.name === "minimum" && Number(limit) === 1)) &&
          isRelation(property.replace(/^[./]/, ""))
        ) {
          message = i18n.t("validation:notChosen", { field });
        } else if (i18n.exists(`validation:${error.name}`)) {
          // The format by its name in the user's language ("date"), else as the schema names it.
          const format = i18n.t(`validation:formats.${String(params.format)}`, { defaultValue: params.format });
          message = i18n.t(`validation:${error.name}`, { field, limit, format });
        } else {
          message = error.message ?? "";
        }
        return { ...error, property, message, stack: message };
      });
}

/** The server's per-field errors as rjsf's extraErrors ("packages/0/fee" → packages.0.fee). */
export function serverErrorSchema(errors: FieldError[] = []): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const error of errors) {
    const path = error.field.split("/").filter(Boolean);
    let node = root;
    for (const segment of path) node = (node[segment] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(error.message);
  }
  return root as ErrorSchema;
}

// The console's view of an entity schema: its fields in form order with what each one is (money,
// fraction, enum, upload, relation, ...), its list columns and filters, its state machines, and the
// translation keys of labels and enum values (codegen/keys.ts's grammar). Derived once per entity.
import { defsSchema, entitySchemas } from "../generated/schemas.ts";
import type { EntityName } from "../generated/types.ts";
import type { JsonSchemaEntity, JsonSchemaNode, Transition, XEntity, XUi, XUpload } from "../schema/types.ts";

export type FieldKind =
  | "money"
  | "fraction"
  | "enum"
  | "boolean"
  | "upload"
  | "uploads"
  | "relation"
  | "relations"
  | "date"
  | "datetime"
  | "integer"
  | "number"
  | "string"
  | "tags"
  | "object"
  | "list"
  | "document";

export interface FieldView {
  name: string;
  /** The property with its defs reference resolved (keywords beside the $ref win). */
  node: JsonSchemaNode;
  kind: FieldKind;
  ui: XUi;
  label: string;
  help: string;
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  immutable: boolean;
  enum?: (string | number)[];
  enumKey?: (value: string | number) => string;
  relation?: EntityName;
  upload?: XUpload;
}

export interface EntityView {
  name: EntityName;
  schema: JsonSchemaEntity;
  x: XEntity;
  fields: FieldView[];
  byName: Map<string, FieldView>;
  columns: FieldView[];
  filters: FieldView[];
  states: Map<string, Transition[]>;
  titleField?: string;
}

const DEFS = "defs#/definitions/";

/** Resolves a defs reference, remembering the definition's name (its enum labels live under defs:). */
export function resolve(node: JsonSchemaNode): { node: JsonSchemaNode; def?: string } {
  const ref = node.$ref;
  const def = ref?.slice(ref.indexOf("/definitions/") + "/definitions/".length);
  if (def && (ref!.startsWith(DEFS) || ref!.startsWith("#/definitions/")) && defsSchema.definitions?.[def]) {
    const { $ref: _ref, ...rest } = node;
    const target = resolve(defsSchema.definitions![def]);
    return { node: { ...target.node, ...rest }, def: target.def ?? def };
  }
  return { node };
}

function typeOf(node: JsonSchemaNode): string | undefined {
  return Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type;
}

function kindOf(node: JsonSchemaNode, item?: JsonSchemaNode): FieldKind {
  if (node.$ref) return "document";
  if (node["x-money"]) return "money";
  if (node["x-fraction"]) return "fraction";
  if (node["x-upload"]) return "upload";
  if (node["x-relation"]) return typeOf(node) === "array" ? "relations" : "relation";
  if (node.enum) return "enum";
  switch (typeOf(node)) {
    case "boolean":
      return "boolean";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "object":
      return "object";
    case "array":
      if (item?.["x-upload"]) return "uploads";
      if (item?.enum) return "enum";
      return typeOf(item ?? {}) === "object" ? "list" : "tags";
    default:
      if (node.format === "date-time") return "datetime";
      if (node.format === "date") return "date";
      return "string";
  }
}

export function fieldView(entity: string, name: string, raw: JsonSchemaNode, required: boolean): FieldView {
  const { node, def } = resolve(raw);
  const item = node.items ? resolve(node.items) : undefined;
  const kind = kindOf(node, item?.node);
  const values = node.enum ?? item?.node.enum;
  const enumDef = node.enum ? def : item?.def;
  return {
    name,
    node,
    kind,
    ui: node["x-ui"] ?? {},
    label: `${entity}:fields.${name}.label`,
    help: `${entity}:fields.${name}.help`,
    required,
    readOnly: node.readOnly === true,
    writeOnly: node.writeOnly === true,
    immutable: node["x-immutable"] === true,
    enum: values,
    enumKey: values
      ? (value) => (enumDef ? `defs:enum.${enumDef}.${value}` : `${entity}:enum.${name}.${value}`)
      : undefined,
    relation: (node["x-relation"] ?? item?.node["x-relation"])?.entity as EntityName | undefined,
    upload: node["x-upload"] ?? item?.node["x-upload"],
  };
}

const views = new Map<string, EntityView>();

export function entityView(name: EntityName): EntityView {
  const cached = views.get(name);
  if (cached) return cached;
  const schema = entitySchemas[name];
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties)
    .map(([field, node]) => fieldView(name, field, node, required.has(field)))
    .sort((a, b) => (a.ui.order ?? 1000) - (b.ui.order ?? 1000));
  const view: EntityView = {
    name,
    schema,
    x: schema["x-entity"],
    fields,
    byName: new Map(fields.map((f) => [f.name, f])),
    columns: fields.filter((f) => f.ui.column && !f.ui.hidden),
    filters: fields.filter((f) => f.ui.filter && !f.ui.hidden),
    states: new Map(Object.entries(schema["x-states"] ?? {}).map(([field, m]) => [field, m.transitions])),
    titleField: schema["x-entity"].titleField,
  };
  views.set(name, view);
  return view;
}

/** The transitions of a record allowed from its current state(s). */
export function allowedTransitions(view: EntityView, record: Record<string, unknown>): Transition[] {
  const out: Transition[] = [];
  for (const [field, transitions] of view.states) {
    for (const t of transitions) if (t.from.includes(record[field] as string | number)) out.push(t);
  }
  return out;
}

// The console's view of a schema (an entity's, or an operation's input): its fields in form order with
// what each one is (money, fraction, enum, upload, relation, ...), and for an entity its list columns
// and filters and its state machines. Labels follow the key grammar of src/schema/keys.ts from the
// schema's key base. Derived once per schema.
import { defsSchema, entitySchemas } from "../generated/schemas.ts";
import type { EntityName } from "../generated/types.ts";
import { entityKeyBase, enumKey, fieldHelpKey, fieldLabelKey, operationKeyBase } from "../schema/keys.ts";
import { resolveDefs } from "../schema/refs.ts";
import type {
  JsonSchemaEntity,
  JsonSchemaNode,
  JsonSchemaOperation,
  Transition,
  XEntity,
  XUi,
  XUpload,
} from "../schema/types.ts";

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
  /** The shared definition it is (schemas/defs.json: "phone", "account", ...), if it is one. */
  def?: string;
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
  /** History's field keeping the related record's title as written (x-relation.titleCopy), shown once it is gone. */
  titleCopy?: string;
  upload?: XUpload;
  /** The properties of a nested object, or of each object in a list (packages, lanes, tiers). */
  children?: FieldView[];
}

/** What a form needs of a schema: its fields and where their texts live. */
export interface FormView {
  /** The entity (uploads and pickers name it), or the operation's call. */
  name: string;
  /** Translation key base: "<entity>:" or an operation's "<namespace>:operations.<call>.". */
  base: string;
  schema: JsonSchemaNode & { properties: Record<string, JsonSchemaNode> };
  fields: FieldView[];
  byName: Map<string, FieldView>;
}

export interface EntityView extends FormView {
  name: EntityName;
  schema: JsonSchemaEntity;
  x: XEntity;
  columns: FieldView[];
  filters: FieldView[];
  states: Map<string, Transition[]>;
  titleField?: string;
}

/** Resolves a defs reference, remembering the definition's name (its enum labels live under defs:). */
export const resolve = (node: JsonSchemaNode): { node: JsonSchemaNode; def?: string } => resolveDefs(defsSchema, node);

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

/**
 * A field of the schema whose texts live under `base` ("goods:", "order:operations.order-refund.").
 * A nested field's label follows its parent's ("charge_plan:fields.packages.fields.minutes.label") and
 * its enum values sit under the schema's enum keys by path (`enumAt`: "charge_plan:" and "packages").
 */
export function fieldView(
  base: string,
  name: string,
  raw: JsonSchemaNode,
  required: boolean,
  enumAt: { base: string; path: string } = { base, path: name },
): FieldView {
  const { node, def } = resolve(raw);
  const item = node.items ? resolve(node.items) : undefined;
  const kind = kindOf(node, item?.node);
  const values = node.enum ?? item?.node.enum;
  const enumDef = node.enum ? def : item?.def;
  const nested = kind === "object" ? node : kind === "list" ? item?.node : undefined;
  const children = nested?.properties
    ? Object.entries(nested.properties)
        .map(([child, childNode]) =>
          fieldView(`${base}fields.${name}.`, child, childNode, (nested.required ?? []).includes(child), {
            base: enumAt.base,
            path: `${enumAt.path}.${child}`,
          }),
        )
        .sort((a, b) => (a.ui.order ?? 1000) - (b.ui.order ?? 1000))
    : undefined;
  return {
    name,
    node,
    kind,
    def,
    ui: node["x-ui"] ?? {},
    label: fieldLabelKey(base, name),
    help: fieldHelpKey(base, name),
    required,
    readOnly: node.readOnly === true,
    writeOnly: node.writeOnly === true,
    immutable: node["x-immutable"] === true,
    enum: values,
    enumKey: values ? (value) => enumKey(enumAt.base, enumAt.path, value, enumDef) : undefined,
    relation: (node["x-relation"] ?? item?.node["x-relation"])?.entity as EntityName | undefined,
    titleCopy: node["x-relation"]?.titleCopy,
    upload: node["x-upload"] ?? item?.node["x-upload"],
    children,
  };
}

function fieldsOf(base: string, schema: JsonSchemaNode & { properties: Record<string, JsonSchemaNode> }) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .map(([field, node]) => fieldView(base, field, node, required.has(field)))
    .sort((a, b) => (a.ui.order ?? 1000) - (b.ui.order ?? 1000));
}

const views = new Map<string, EntityView>();

export function entityView(name: EntityName): EntityView {
  const cached = views.get(name);
  if (cached) return cached;
  const schema = entitySchemas[name];
  const base = entityKeyBase(name);
  const fields = fieldsOf(base, schema);
  const view: EntityView = {
    name,
    base,
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
    for (const t of transitions)
      if (t.from.includes(record[field] as string | number) && holds(record, t.when)) out.push(t);
  }
  return out;
}

/** Whether the record's fields hold one of the given values each (a transition's or operation's `when`). */
export function holds(record: Record<string, unknown>, when: Record<string, (string | number)[]> | undefined): boolean {
  return Object.entries(when ?? {}).every(([field, values]) => values.includes(record[field] as string | number));
}

const operationViews = new Map<string, FormView>();

/** The form view of an operation's input. */
export function operationView(operation: JsonSchemaOperation): FormView {
  const cached = operationViews.get(operation.$id);
  if (cached) return cached;
  const base = operationKeyBase(operation);
  const fields = fieldsOf(base, operation);
  const view: FormView = {
    name: operation["x-operation"].entity ?? operation.$id,
    base,
    schema: operation,
    fields,
    byName: new Map(fields.map((f) => [f.name, f])),
  };
  operationViews.set(operation.$id, view);
  return view;
}

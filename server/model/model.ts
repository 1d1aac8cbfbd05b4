// The runtime model of an entity, derived once from its schema: which properties are stored in which
// columns, which are read-only, write-only, immutable, hashed or never stored, which can be sorted and
// filtered, its state machines. Everything the engine decides about an entity comes from here.
import { defsSchema, entitySchemas } from "../../src/generated/schemas.ts";
import { resolveDefs } from "../../src/schema/refs.ts";
import { entityKeyBase } from "../../src/schema/keys.ts";
import type { JsonSchemaEntity, JsonSchemaNode, Transition, XEntity } from "../../src/schema/types.ts";

export { SYSTEM_COLUMNS } from "../../src/schema/constants.ts";

export type FilterKind = "eq" | "like" | "range" | "in";
export type ValueKind = "integer" | "number" | "string" | "boolean" | "datetime" | "date" | "json";

export interface Field {
  name: string;
  node: JsonSchemaNode;
  kind: ValueKind;
  sqlType: string;
  stored: boolean;
}

export interface EntityModel {
  name: string;
  /** Translation key base of its texts: "<entity>:". */
  base: string;
  table: string;
  schema: JsonSchemaEntity;
  x: XEntity;
  fields: Map<string, Field>;
  readOnly: Set<string>;
  writeOnly: Set<string>;
  immutable: Set<string>;
  hashed: Set<string>;
  /** Read-only figures worked out on every read by the entity's derive hook, never stored. */
  derived: Set<string>;
  /** The properties a read answers, in schema order (stored or derived, never a hash), write-only ones masked. */
  answered: { name: string; masked: boolean }[];
  stateFields: Map<string, Transition[]>;
  sortable: Set<string>;
  filters: Map<string, FilterKind>;
  /** Text fields the header's search box finds records by (x-ui.search), in schema order. */
  searched: string[];
  /** agent_id is a column of every scoped table; declared properties reuse it. */
  scoped: boolean;
  /**
   * Rows belong to the user who made them (x-entity.scope "owner"): owner_kind and owner_id columns beside
   * the owner's agent_id and agent_path (so an owned table is scoped too, its reads by owner instead).
   */
  owned: boolean;
  recycle: boolean;
  singleton: boolean;
  titleField?: string;
}

/** A property with its defs reference resolved (keywords beside the $ref win). */
export const resolveNode = (node: JsonSchemaNode): JsonSchemaNode => resolveDefs(defsSchema, node).node;

function kindOf(node: JsonSchemaNode): { kind: ValueKind; sqlType: string } {
  if (node.$ref) return { kind: "json", sqlType: "jsonb" }; // a document (page layout)
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case "integer":
      return { kind: "integer", sqlType: "bigint" };
    case "number":
      return { kind: "number", sqlType: "double precision" };
    case "boolean":
      return { kind: "boolean", sqlType: "boolean" };
    case "string":
      if (node.format === "date-time") return { kind: "datetime", sqlType: "timestamptz" };
      if (node.format === "date") return { kind: "date", sqlType: "date" };
      return { kind: "string", sqlType: "text" };
    default:
      return { kind: "json", sqlType: "jsonb" };
  }
}

export function buildModel(schema: JsonSchemaEntity): EntityModel {
  const x = schema["x-entity"];
  const fields = new Map<string, Field>();
  const model: EntityModel = {
    name: schema.$id,
    base: entityKeyBase(schema.$id),
    table: x.table ?? schema.$id,
    schema,
    x,
    fields,
    readOnly: new Set(),
    writeOnly: new Set(),
    immutable: new Set(),
    hashed: new Set(),
    derived: new Set(),
    answered: [],
    stateFields: new Map(Object.entries(schema["x-states"] ?? {}).map(([f, m]) => [f, m.transitions])),
    sortable: new Set(["id", "created_at", "updated_at"]),
    filters: new Map(),
    searched: [],
    scoped: x.scope !== "none",
    owned: x.scope === "owner",
    recycle: x.recycle,
    singleton: x.storage === "singleton",
    titleField: x.titleField,
  };
  for (const [name, raw] of Object.entries(schema.properties)) {
    const node = resolveNode(raw);
    const { kind, sqlType } = kindOf(raw.$ref && !raw.$ref.startsWith("defs#") ? raw : node);
    const store = raw["x-store"];
    fields.set(name, { name, node, kind, sqlType, stored: store !== "none" && store !== "derived" });
    if (store === "derived") model.derived.add(name);
    if (raw.readOnly || node.readOnly) model.readOnly.add(name);
    if (node.writeOnly) model.writeOnly.add(name);
    if (raw["x-immutable"]) model.immutable.add(name);
    if (raw["x-store"] === "hash") model.hashed.add(name);
    const ui = raw["x-ui"];
    if (ui?.sortable) model.sortable.add(name);
    if (ui?.filter) model.filters.set(name, ui.filter);
    if (ui?.search) model.searched.push(name);
  }
  for (const field of fields.values())
    if ((field.stored || model.derived.has(field.name)) && !model.hashed.has(field.name))
      model.answered.push({ name: field.name, masked: model.writeOnly.has(field.name) });
  return model;
}

export const models: Map<string, EntityModel> = new Map(
  Object.values(entitySchemas).map((schema) => [schema.$id, buildModel(schema)]),
);

/** Entities with rows in the database: all of them (a command's input is an operation, not an entity). */
export const storedModels = (): EntityModel[] => [...models.values()];

export const modelOf = (name: string): EntityModel => {
  const model = models.get(name);
  if (!model) throw new Error(`no entity "${name}"`);
  return model;
};

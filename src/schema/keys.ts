// The translation-key grammar, written once (README, "Translation keys"). Every schema has a key base,
// its namespace plus a prefix: "<entity>:" for an entity, "<namespace>:operations.<call>." for an
// operation (namespace: the entity it acts on, or "operations"). Under the base the grammar is the same:
//   name | fields.<f>.label [| .help] | fields.<f>.fields.<sub>.label | enum.<f>[.<sub>].<value>
//   | actions.<action> | rules.<rule>       (operations: also confirm, success)
// Enums from defs.json are translated once, as defs:enum.<definition>.<value>.
import { COMMON_PARAMETERS, isSystemColumn } from "./constants.ts";
import type { JsonSchemaOperation } from "./types.ts";

/** Where an operation's texts live when it acts on no entity. */
export const OPERATIONS_NAMESPACE = "operations";

export const entityKeyBase = (entity: string): string => `${entity}:`;

/** An entity's name ("Device"), as a list's title or a message's {{entity}}. */
export const entityNameKey = (entity: string): string => `${entityKeyBase(entity)}name`;

export const operationNamespace = (operation: Pick<JsonSchemaOperation, "x-operation">): string =>
  operation["x-operation"].entity ?? OPERATIONS_NAMESPACE;

/** Where an operation's keys sit inside its namespace: operations.<call>. (entity) or <call>. ("operations"). */
export const operationKeyPrefix = (operation: Pick<JsonSchemaOperation, "$id" | "x-operation">): string =>
  operation["x-operation"].entity ? `operations.${operation.$id}.` : `${operation.$id}.`;

export const operationKeyBase = (operation: Pick<JsonSchemaOperation, "$id" | "x-operation">): string =>
  `${operationNamespace(operation)}:${operationKeyPrefix(operation)}`;

/** The label key of a field, following nested objects and arrays of objects ("packages/0/fee"). */
export function fieldLabelKey(base: string, path: string | string[]): string {
  const names = (Array.isArray(path) ? path : path.split(/[./]/)).filter((s) => s !== "" && !/^\d+$/.test(s));
  return `${base}fields.${names.join(".fields.")}.label`;
}

export const fieldHelpKey = (base: string, field: string): string => `${base}fields.${field}.help`;

/** An enum value's label: under the definition it comes from, or under the schema's own enum keys. */
export const enumKey = (base: string, path: string, value: string | number, def?: string): string =>
  def ? defEnumKey(def, value) : `${base}enum.${path}.${value}`;

/** A value's label of an enum defined in defs.json. */
export const defEnumKey = (def: string, value: string | number): string => `defs:enum.${def}.${value}`;

export const actionKey = (entity: string, action: string): string => `${entity}:actions.${action}`;
export const ruleKey = (base: string, rule: string): string => `${base}rules.${rule}`;

/** Request parameters and system columns (id, version, page, created_at, ...) are labelled in common:fields. */
export const isCommonField = (name: string): boolean =>
  isSystemColumn(name) || (COMMON_PARAMETERS as readonly string[]).includes(name);

export const commonFieldKey = (name: string): string => `common:fields.${name}`;

/**
 * Where the fields of a document (a JSON value a field holds, its schema in schemas/documents) are
 * labelled, by the document's $id: a page's layout's settings are the layout editor's.
 */
const DOCUMENT_LABELS: Record<string, string> = { page_layout: "common:layoutEditor.fields." };

/** The label key of a document's field, by its name at any depth ("count" of a banner module). */
export const documentFieldKey = (document: string, name: string): string | undefined =>
  DOCUMENT_LABELS[document] === undefined ? undefined : `${DOCUMENT_LABELS[document]}${name}`;

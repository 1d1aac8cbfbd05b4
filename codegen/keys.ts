// The translation keys the schemas, the operations and the resource manifest demand, by namespace (one
// namespace = one file locales/<lng>/<namespace>.json). The grammar is src/schema/keys.ts's:
//   <entity>: name | fields.<f>.label [| .help] | fields.<f>.fields.<sub>.label | enum.<f>[.<sub>].<value>
//             | actions.<action> | rules.<rule>
//             | operations.<call>.{name | fields... | enum... | rules... [| confirm | success]}
//   operations: <call>.{...} for operations that act on no entity
//   defs:     enum.<definition>[.<sub>].<value>
//   menu:     groups.<group> | routes.<route id>
//   validation: <keyword>     permissions: <operation>
// Other namespaces (common, ...) are free-form UI text: English is the reference there.
import type { EntitySchema, OperationSchema, Project, SchemaNode } from "./model.ts";
import { PERMISSION_OPERATIONS } from "../src/schema/permissions.ts";
import { elementOf, resolveDefs } from "../src/schema/refs.ts";
import { isCommonField, operationKeyPrefix, operationNamespace } from "../src/schema/keys.ts";

export { resolveDefs };

/** A node with its defs reference resolved; throws on a reference to a definition that does not exist. */
export function resolveRef(project: Pick<Project, "defs">, node: SchemaNode): { node: SchemaNode; def?: string } {
  const ref = node.$ref;
  if (ref?.startsWith("defs#/definitions/") && !project.defs.definitions?.[ref.slice(18)])
    throw new Error(`unknown definition ${ref}`);
  return resolveDefs(project.defs, node);
}

function walkFields(
  project: Pick<Project, "defs">,
  properties: Record<string, SchemaNode>,
  prefix: string,
  enumPrefix: string | undefined,
  keys: Set<string>,
  skipCommon: boolean,
) {
  for (const [field, raw] of Object.entries(properties)) {
    if (skipCommon && isCommonField(field)) continue;
    keys.add(`${prefix}${field}.label`);
    const { node, def } = elementOf(project.defs, raw);
    // An enum written in the schema is translated there; one from defs.json under defs:enum.
    if (node.enum && !def && enumPrefix !== undefined)
      for (const value of node.enum) keys.add(`${enumPrefix}${field}.${value}`);
    // A shared object (e.g. minutePackage): its labels are per schema, its enums live in defs.
    if (node.properties)
      walkFields(
        project,
        node.properties,
        `${prefix}${field}.fields.`,
        def || enumPrefix === undefined ? undefined : `${enumPrefix}${field}.`,
        keys,
        false,
      );
  }
}

/** Keys under one key base (an entity's root, or operations.<call>. inside a namespace). */
function schemaKeys(
  project: Pick<Project, "defs">,
  schema: SchemaNode & { properties: Record<string, SchemaNode> },
  base: string,
  skipCommon: boolean,
): Set<string> {
  const keys = new Set<string>([`${base}name`]);
  walkFields(project, schema.properties, `${base}fields.`, `${base}enum.`, keys, skipCommon);
  for (const rule of (schema["x-compare"] as { name: string }[] | undefined) ?? [])
    keys.add(`${base}rules.${rule.name}`);
  return keys;
}

export function entityKeys(project: Pick<Project, "defs">, schema: EntitySchema): Set<string> {
  const keys = schemaKeys(project, schema, "", false);
  for (const machine of Object.values(schema["x-states"] ?? {})) {
    for (const transition of machine.transitions) keys.add(`actions.${transition.action}`);
  }
  return keys;
}

/** An operation's keys, in its namespace: request parameters (id, page, ...) are labelled in common. */
export function operationKeys(project: Pick<Project, "defs">, operation: OperationSchema): Set<string> {
  return schemaKeys(project, operation, operationKeyPrefix(operation), true);
}

export function defsKeys(project: Pick<Project, "defs">): Set<string> {
  const keys = new Set<string>();
  const visit = (node: SchemaNode, path: string) => {
    if (node.enum) for (const value of node.enum) keys.add(`enum.${path}.${value}`);
    for (const [sub, child] of Object.entries(node.properties ?? {})) {
      if (!child.$ref) visit(child, `${path}.${sub}`);
    }
  };
  for (const [name, node] of Object.entries(project.defs.definitions ?? {})) visit(node, name);
  return keys;
}

export function menuKeys(project: Pick<Project, "manifest">): Set<string> {
  const keys = new Set<string>();
  for (const group of project.manifest.groups) keys.add(`groups.${group.id}`);
  for (const route of project.manifest.routes) keys.add(`routes.${route.id}`);
  return keys;
}

/** Every key the schemas, operations and manifest require, by namespace. */
export function requiredKeys(project: Project): Map<string, Set<string>> {
  const namespaces = new Map<string, Set<string>>();
  for (const schema of project.entities) namespaces.set(schema.$id, entityKeys(project, schema));
  for (const operation of project.operations) {
    const ns = operationNamespace(operation);
    const keys = namespaces.get(ns) ?? new Set<string>();
    for (const key of operationKeys(project, operation)) keys.add(key);
    namespaces.set(ns, keys);
  }
  namespaces.set("defs", defsKeys(project));
  if (project.manifest.routes.length) namespaces.set("menu", menuKeys(project));
  namespaces.set("validation", new Set([...VALIDATION_KEYWORDS, ...formatKeys(project)]));
  namespaces.set("permissions", new Set(PERMISSION_OPERATIONS));
  return namespaces;
}

/** Flattens a locale file to dotted keys with their string values. */
export function flatten(value: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/**
 * Keys a namespace may hold beyond the required ones: optional help texts of existing fields, and an
 * operation's own confirmation and success messages (its generic ones are in common otherwise), in
 * i18next's plural forms and with the confirmation's form once its dialog is filled in (`_chosen`).
 */
export function isOptionalKey(key: string, required: Set<string>): boolean {
  if (key.endsWith(".help")) return required.has(`${key.slice(0, -".help".length)}.label`);
  const op = /^((?:operations\.)?[^.]+\.)(confirm|success)(?:_chosen)?(?:_(?:zero|one|two|few|many|other))?$/.exec(key);
  return op !== null && required.has(`${op[1]}name`);
}

/**
 * The string formats (JSON Schema `format`) the defs, entities and operations use, by their names in each
 * language ("is not a valid date"): validation:formats.<format>.
 */
function formatKeys(project: Project): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const n = node as Record<string, unknown>;
      if (n.type === "string" && typeof n.format === "string") found.add(n.format);
      Object.values(n).forEach(walk);
    }
  };
  [project.defs, ...project.entities, ...project.operations].forEach(walk);
  return [...found].map((format) => `formats.${format}`);
}

/** Validation keywords whose messages the server and the forms show: validation:<keyword>. */
export const VALIDATION_KEYWORDS = [
  "required",
  "type",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "pattern",
  "format",
  "enum",
  "const",
  "minItems",
  "maxItems",
  "uniqueItems",
  "additionalProperties",
  "not",
  "oneOf",
  "anyOf",
  "x-compare",
  "readOnly",
  "x-immutable",
  "x-relation",
  // A relation left unchosen (a bind with no agent, outlet or plan): "nothing selected".
  "notChosen",
  "unique",
] as const;

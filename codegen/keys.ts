// The translation keys the schemas and the resource manifest demand, by namespace (one namespace =
// one file locales/<lng>/<namespace>.json). Grammar:
//   <entity>: name | fields.<f>.label [| fields.<f>.help] | fields.<f>.fields.<sub>.label
//             | enum.<f>[.<sub>].<value> | actions.<action> | rules.<rule>
//   defs:     enum.<definition>[.<sub>].<value>
//   menu:     groups.<group> | routes.<route id>
//   validation: <keyword>     permissions: <operation>
// Other namespaces (common, ...) are free-form UI text: English is the reference there.
import type { EntitySchema, Project, SchemaNode } from "./model.ts";
import { PERMISSION_OPERATIONS } from "./permissions.ts";

const DEFS_REF = "defs#/definitions/";

export function resolveRef(project: Pick<Project, "defs">, node: SchemaNode): { node: SchemaNode; def?: string } {
  if (node.$ref?.startsWith(DEFS_REF)) {
    const def = node.$ref.slice(DEFS_REF.length);
    const target = project.defs.definitions?.[def];
    if (!target) throw new Error(`unknown definition ${node.$ref}`);
    // Keywords beside the $ref (x-ui, minItems, ...) refine the definition.
    const { $ref: _ref, ...rest } = node;
    return { node: { ...resolveRef(project, target).node, ...rest }, def };
  }
  if (node.$ref?.startsWith("#/definitions/")) {
    const def = node.$ref.slice("#/definitions/".length);
    return resolveRef(project, { ...project.defs.definitions![def], ...node, $ref: undefined });
  }
  return { node };
}

/** The element schema of an array, or the node itself. */
function element(project: Pick<Project, "defs">, node: SchemaNode): { node: SchemaNode; def?: string } {
  const resolved = resolveRef(project, node);
  if (resolved.node.items) {
    const item = resolveRef(project, resolved.node.items);
    return { node: item.node, def: item.def ?? resolved.def };
  }
  return resolved;
}

function walkFields(
  project: Pick<Project, "defs">,
  properties: Record<string, SchemaNode>,
  prefix: string,
  enumPrefix: string,
  keys: Set<string>,
) {
  for (const [field, raw] of Object.entries(properties)) {
    keys.add(`${prefix}${field}.label`);
    const { node, def } = element(project, raw);
    // An enum written in the entity is translated there; one from defs.json under defs:enum.
    if (node.enum && !def) for (const value of node.enum) keys.add(`${enumPrefix}${field}.${value}`);
    if (node.properties && !def) {
      walkFields(project, node.properties, `${prefix}${field}.fields.`, `${enumPrefix}${field}.`, keys);
    } else if (node.properties) {
      // A shared object (e.g. minutePackage): its labels are per entity, its enums live in defs.
      walkFields(project, node.properties, `${prefix}${field}.fields.`, `\u0000`, keys);
    }
  }
  for (const key of keys) if (key.startsWith("\u0000")) keys.delete(key);
}

export function entityKeys(project: Pick<Project, "defs">, schema: EntitySchema): Set<string> {
  const keys = new Set<string>(["name"]);
  walkFields(project, schema.properties, "fields.", "enum.", keys);
  for (const machine of Object.values(schema["x-states"] ?? {})) {
    for (const transition of machine.transitions) keys.add(`actions.${transition.action}`);
  }
  for (const rule of schema["x-compare"] ?? []) keys.add(`rules.${rule.name}`);
  return keys;
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

/** Every key the schemas and manifest require, by namespace. */
export function requiredKeys(project: Project): Map<string, Set<string>> {
  const namespaces = new Map<string, Set<string>>();
  for (const schema of project.entities) namespaces.set(schema.$id, entityKeys(project, schema));
  namespaces.set("defs", defsKeys(project));
  if (project.manifest.routes.length) namespaces.set("menu", menuKeys(project));
  namespaces.set("validation", new Set(VALIDATION_KEYWORDS));
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

/** Keys a namespace may hold beyond the required ones: optional help texts of existing fields. */
export function isOptionalKey(key: string, required: Set<string>): boolean {
  return key.endsWith(".help") && required.has(`${key.slice(0, -".help".length)}.label`);
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
  "x-compare",
  "readOnly",
  "x-immutable",
  "x-relation",
  "unique",
] as const;

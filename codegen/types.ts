// TypeScript types for every entity, via json-schema-to-typescript over one combined schema so that
// shared definitions become one named type each (Money, PayType, ...) and EntityMap ties names to types.
import { compile } from "json-schema-to-typescript";
import type { Project, SchemaNode } from "./model.ts";
import { DOCUMENTS } from "./documents.ts";
import { permissionOfTransition } from "../src/schema/permissions.ts";

const pascal = (name: string) => name.replace(/(^|[-_.])([a-zA-Z0-9])/g, (_m, _s, c: string) => c.toUpperCase());
/** The type of an operation's input: order-refund → OrderRefundInput. */
export const operationTypeName = (call: string) => `${pascal(call)}Input`;
/** The type of what an operation answers, when its schema says (checksn → ChecksnAnswer). */
export const answerTypeName = (call: string) => `${pascal(call)}Answer`;
const DEFS_REF = "defs#/definitions/";
const STRUCTURAL = new Set([
  "type",
  "enum",
  "const",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "description",
  "anyOf",
  "oneOf",
  "allOf",
  "tsType",
  "readOnly",
]);

/** A shared definition worth a named type: an enum, an object, money or a fraction. Others are inlined. */
const isNamedDef = (def: SchemaNode) => Boolean(def.enum || def.properties || def["x-money"] || def["x-fraction"]);

/** Keeps what shapes a TypeScript type; points defs refs at the combined definitions. */
function toTypeSchema(
  node: SchemaNode,
  documents: Map<string, string>,
  defs: Record<string, SchemaNode>,
): Record<string, unknown> {
  if (node.$ref) {
    if (node.$ref.startsWith(DEFS_REF)) {
      const name = node.$ref.slice(DEFS_REF.length);
      if (!isNamedDef(defs[name])) {
        return toTypeSchema(
          { ...defs[name], ...(node.description ? { description: node.description } : {}) },
          documents,
          defs,
        );
      }
      const out: Record<string, unknown> = { $ref: `#/definitions/${pascal(name)}` };
      if (node.description) out.description = node.description;
      return out;
    }
    if (node.$ref.startsWith("#/definitions/")) {
      return toTypeSchema(
        { $ref: `${DEFS_REF}${node.$ref.slice(14)}`, description: node.description },
        documents,
        defs,
      );
    }
    const doc = documents.get(node.$ref);
    if (doc) return { tsType: doc, ...(node.description ? { description: node.description } : {}) };
    return { $ref: `#/definitions/${pascal(node.$ref)}` };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!STRUCTURAL.has(key)) continue;
    if (key === "items") out.items = toTypeSchema(value as SchemaNode, documents, defs);
    else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, SchemaNode>).map(([k, v]) => [k, toTypeSchema(v, documents, defs)]),
      );
    } else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      out[key] = (value as SchemaNode[]).map((v) => toTypeSchema(v, documents, defs));
    } else out[key] = value;
  }
  // readOnly is documented, not typed: a record read back carries the field.
  if (out.readOnly) {
    delete out.readOnly;
    out.description = [node.description, "Read-only: set by the server."].filter(Boolean).join(" ");
  }
  return out;
}

export async function generateTypes(project: Project, banner: string): Promise<string> {
  const documents = new Map(DOCUMENTS.map((d) => [d.id, d.type]));
  const defs = project.defs.definitions ?? {};
  const definitions: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(defs)) {
    if (isNamedDef(def)) definitions[pascal(name)] = { ...toTypeSchema(def, documents, defs), title: pascal(name) };
  }
  const entities = [...project.entities].sort((a, b) => a.$id.localeCompare(b.$id));
  for (const entity of entities) {
    definitions[pascal(entity.$id)] = { ...toTypeSchema(entity, documents, defs), title: pascal(entity.$id) };
  }
  const operations = [...project.operations].sort((a, b) => a.$id.localeCompare(b.$id));
  for (const operation of operations) {
    const name = operationTypeName(operation.$id);
    definitions[name] = { ...toTypeSchema(operation, documents, defs), title: name };
  }
  // What an operation answers, where its schema spells it out (not a record, a page or a file of its entity).
  const answered = operations.filter((o) => typeof o["x-operation"].answer === "object");
  for (const operation of answered) {
    const name = answerTypeName(operation.$id);
    const answer = operation["x-operation"].answer as SchemaNode;
    definitions[name] = { ...toTypeSchema(answer, documents, defs), title: name };
  }
  const root = {
    title: "EntityMap",
    description: "Every entity by name.",
    type: "object",
    additionalProperties: false,
    required: entities.map((e) => e.$id),
    properties: Object.fromEntries(entities.map((e) => [e.$id, { $ref: `#/definitions/${pascal(e.$id)}` }])),
    definitions,
  };
  const body = await compile(root as never, "EntityMap", {
    bannerComment: "",
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: false,
  });
  // json-schema-to-typescript notes where each definition was referenced from; that is noise here.
  const cleaned = body
    .replace(
      /\n \* ?\n \* This interface was referenced by `EntityMap`'s JSON-Schema\n \* via the `definition` "\w+"\.\n/g,
      "\n",
    )
    .replace(
      /\/\*\*\n \* This interface was referenced by `EntityMap`'s JSON-Schema\n \* via the `definition` "\w+"\.\n \*\/\n/g,
      "",
    );
  const imports = DOCUMENTS.map((d) => `import type { ${d.type} } from "../../${d.source}";`).join("\n");
  const transitions = new Set(
    entities.flatMap((e) =>
      Object.values(e["x-states"] ?? {}).flatMap((m) =>
        m.transitions.map((t) => permissionOfTransition(e.$id, t.action)),
      ),
    ),
  );
  return `${banner}
${imports}

${cleaned}
export type EntityName = keyof EntityMap;

/** Every state transition, as "<entity>.<action>": what a domain area's transition side effects are keyed by. */
export type TransitionKey =
${[...transitions].map((k) => `  | ${JSON.stringify(k)}`).join("\n")};

/** Columns every stored row carries, managed by the server. */
export interface RecordMeta {
  id: number;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A stored row of an entity as the server returns it. */
export type EntityRecord<K extends EntityName> = EntityMap[K] & RecordMeta;

/** Every operation's input by call name. */
export interface OperationInputs {
${operations.map((o) => `  ${JSON.stringify(o.$id)}: ${operationTypeName(o.$id)};`).join("\n")}
}

/** What an operation answers by call name, where its schema spells it out. */
export interface OperationAnswers {
${answered.map((o) => `  ${JSON.stringify(o.$id)}: ${answerTypeName(o.$id)};`).join("\n")}
}
`;
}

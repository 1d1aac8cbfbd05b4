// Resolving references to the shared definitions (schemas/defs.json): one helper for the server, the
// console and codegen. Keywords beside a $ref (x-ui, readOnly, minimum, ...) refine the definition.
import type { JsonSchemaNode } from "./types.ts";

const DEFS_REF = "defs#/definitions/";
const LOCAL_REF = "#/definitions/";

/** The definition a $ref names, when it points into defs.json ("defs#/..." or, inside defs, "#/..."). */
export function definitionName(ref: string | undefined): string | undefined {
  if (ref?.startsWith(DEFS_REF)) return ref.slice(DEFS_REF.length);
  if (ref?.startsWith(LOCAL_REF)) return ref.slice(LOCAL_REF.length);
  return undefined;
}

/**
 * The node with its defs reference resolved, and the name of the innermost definition it came from
 * (enum labels of a definition live under defs:enum.<name>). Other references (documents) stay.
 */
export function resolveDefs(defs: JsonSchemaNode, node: JsonSchemaNode): { node: JsonSchemaNode; def?: string } {
  const name = definitionName(node.$ref);
  const target = name === undefined ? undefined : defs.definitions?.[name];
  if (!target) return { node };
  const { $ref: _ref, ...rest } = node;
  const inner = resolveDefs(defs, target);
  return { node: { ...inner.node, ...rest }, def: inner.def ?? name };
}

/** The element schema of an array (resolved), or the node itself. */
export function elementOf(defs: JsonSchemaNode, node: JsonSchemaNode): { node: JsonSchemaNode; def?: string } {
  const resolved = resolveDefs(defs, node);
  if (!resolved.node.items) return resolved;
  const item = resolveDefs(defs, resolved.node.items);
  return { node: item.node, def: item.def ?? resolved.def };
}

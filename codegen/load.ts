// Reads the sources of truth from disk: entity schemas, shared defs, TypeScript-defined documents,
// the resource manifest and the locale files.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import type { EntitySchema, OperationSchema, SchemaNode, Project, ResourceManifest } from "./model.ts";
import { withImportOperations } from "./imports.ts";

export { LANGUAGES, type Language } from "../src/schema/constants.ts";
import { LANGUAGES } from "../src/schema/constants.ts";

export function readJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** kebab-case file name of an entity: machine_channel -> machine-channel.json */
export const schemaFileName = (entity: string): string => `${entity.replaceAll("_", "-")}.json`;

export function loadProject(root: string): Project {
  const schemaDir = join(root, "schemas");
  const entities: EntitySchema[] = [];
  const files = new Map<string, string>();
  for (const name of readdirSync(schemaDir).sort()) {
    if (!name.endsWith(".json") || name === "meta.schema.json" || name === "defs.json") continue;
    const file = join(schemaDir, name);
    const schema = readJson<SchemaNode>(file);
    // Document schemas are outputs of codegen (generated from schemas/documents/*.ts), not sources.
    if (schema["x-generated-from"]) continue;
    files.set(String(schema.$id), relative(root, file));
    entities.push(schema as EntitySchema);
  }
  // Operations: one file per call, named after it (schemas/operations/order-refund.json).
  const operations: OperationSchema[] = [];
  const operationDir = join(schemaDir, "operations");
  if (existsSync(operationDir)) {
    for (const name of readdirSync(operationDir).sort()) {
      if (!name.endsWith(".json")) continue;
      const file = join(operationDir, name);
      const schema = readJson<OperationSchema>(file);
      files.set(String(schema.$id), relative(root, file));
      operations.push(schema);
    }
  }
  const locales = {} as Project["locales"];
  for (const lng of LANGUAGES) {
    const dir = join(root, "locales", lng);
    locales[lng] = {};
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith(".json")) locales[lng][name.slice(0, -5)] = readJson(join(dir, name));
    }
  }
  const manifestFile = join(root, "resources", "routes.json");
  // The import calls of the entities that declare x-import are generated, and counted with the rest.
  return withImportOperations({
    root,
    defs: readJson(join(schemaDir, "defs.json")),
    meta: readJson(join(schemaDir, "meta.schema.json")),
    entities,
    operations,
    documents: [],
    schemaFiles: files,
    locales,
    manifest: existsSync(manifestFile)
      ? readJson<ResourceManifest>(manifestFile)
      : { home: { extension: "dashboard" }, groups: [], routes: [] },
  });
}

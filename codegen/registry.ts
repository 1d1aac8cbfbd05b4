// Modules that import every schema file, so the console and the server share one registry of schemas
// without reading the folder at run time: schemas.ts (defs, documents, entities, permission keys) and
// operations.ts (the operations' input schemas, loaded apart: the login page needs none of them).
import type { Project } from "./model.ts";
import { entityPermissions, operationPermission } from "./permissions.ts";
import { runsInTransaction } from "../src/schema/transaction.ts";

const ident = (id: string) =>
  id.replace(/[-_.]([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

export function generateRegistry(project: Project, banner: string): string {
  const entities = [...project.entities].sort((a, b) => a.$id.localeCompare(b.$id));
  const imports = [
    `import type { JsonSchemaEntity, JsonSchemaNode } from "../schema/types.ts";`,
    `import defs from "../../schemas/defs.json" with { type: "json" };`,
    ...project.documents.map(
      (d) =>
        `import ${ident(String(d.$id))} from "../../${project.schemaFiles.get(String(d.$id))}" with { type: "json" };`,
    ),
    ...entities.map(
      (e) => `import ${ident(e.$id)} from "../../${project.schemaFiles.get(e.$id)}" with { type: "json" };`,
    ),
  ];
  const operations = [...project.operations].sort((a, b) => a.$id.localeCompare(b.$id));
  const permissions = [
    ...new Set([
      ...entities.flatMap((e) => entityPermissions(e)),
      ...operations.flatMap((o) => operationPermission(o) ?? []),
    ]),
  ];
  return `${banner}
${imports.join("\n")}

export const defsSchema = defs as JsonSchemaNode;

/** Schemas generated from TypeScript documents (schemas/documents). */
export const documentSchemas = [${project.documents.map((d) => ident(String(d.$id))).join(", ")}] as JsonSchemaNode[];

/** Every entity schema by entity name. */
export const entitySchemas = {
${entities.map((e) => `  ${e.$id}: ${ident(e.$id)} as unknown as JsonSchemaEntity,`).join("\n")}
};

export const entityNames = Object.keys(entitySchemas) as (keyof typeof entitySchemas)[];

/** Every permission key a role can hold: the entities' calls and transitions, and the operations'. */
export const permissionKeys = ${JSON.stringify(permissions)} as const;

export type Permission = (typeof permissionKeys)[number];
`;
}

export function generateOperationRegistry(project: Project, banner: string): string {
  const operations = [...project.operations].sort((a, b) => a.$id.localeCompare(b.$id));
  const imports = operations.map(
    (o) => `import ${ident(o.$id)} from "../../${project.schemaFiles.get(o.$id)}" with { type: "json" };`,
  );
  return `${banner}
import type { JsonSchemaOperation } from "../schema/types.ts";
${imports.join("\n")}

/** Every operation (schemas/operations/): its input schema and x-operation, by call name. */
export const operationSchemas: Record<OperationCall, JsonSchemaOperation> = {
${operations.map((o) => `  ${JSON.stringify(o.$id)}: ${ident(o.$id)} as unknown as JsonSchemaOperation,`).join("\n")}
};

export type OperationCall =
${operations.map((o) => `  | ${JSON.stringify(o.$id)}`).join("\n")};

export const operationCalls = Object.keys(operationSchemas) as OperationCall[];

/** The calls whose handlers run in the transaction the route opens (x-operation.transaction, else all but GETs). */
export type TransactionalCall =
${operations
  .filter((o) => runsInTransaction(o["x-operation"]))
  .map((o) => `  | ${JSON.stringify(o.$id)}`)
  .join("\n")};
`;
}

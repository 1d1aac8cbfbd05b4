// A module that imports every schema file, so the console and the server share one registry of
// schemas without reading the folder at run time.
import type { Project } from "./model.ts";
import { entityPermissions } from "./permissions.ts";

const ident = (id: string) => id.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

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
  const permissions = entities.flatMap((e) => entityPermissions(e));
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

/** Every permission key a role can hold. */
export const permissionKeys = ${JSON.stringify(permissions)} as const;

export type Permission = (typeof permissionKeys)[number];
`;
}

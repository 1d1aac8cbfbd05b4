// The calls an entity's spreadsheet import (x-import, meta.schema.json xImport) is served by: codegen
// declares them from the entity schema (codegen/imports.ts) and the generic engine answers them
// (server/entities/import/). One name grammar for both, and for the console's wizard.
import type { JsonSchemaEntity } from "./types.ts";

/** The most rows one file of a generic import may hold. */
export const IMPORT_ROWS = 100_000;

/** The three calls of an entity's import, by step. */
export const importCalls = (entity: string) =>
  ({
    template: `${entity.replaceAll("_", "-")}-import-template`,
    check: `${entity.replaceAll("_", "-")}-import-check`,
    confirm: `${entity.replaceAll("_", "-")}-import-confirm`,
  }) as const;

/** The permission all three need. */
export const importPermission = (entity: string): string => `${entity}.import`;

/** The entities that declare an import, by name. */
export const importingEntities = (schemas: Record<string, JsonSchemaEntity>): string[] =>
  Object.values(schemas)
    .filter((s) => s["x-import"])
    .map((s) => s.$id)
    .sort();

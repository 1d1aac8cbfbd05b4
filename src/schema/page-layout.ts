// Facts of the page layout document that both the server and the layout editor use, from one place: the
// module types as schemas/page-layout.json lists them, and the grid styles a page may use only once (a
// rule the schema cannot say; the server's page hook enforces it, the editor refuses it first).
import type { LayoutModule } from "../../schemas/documents/page-layout.ts";
import { documentSchemas } from "../generated/schemas.ts";
import type { JsonSchemaNode } from "./types.ts";

export type ModuleType = LayoutModule["type"];

export const pageLayoutSchema = documentSchemas.find((s) => s.$id === "page_layout")!;

const definitions = (pageLayoutSchema as { definitions: Record<string, JsonSchemaNode> }).definitions;

/** Each module type's definition in the document, in the order the document lists them. */
export const MODULE_DEFINITIONS: [ModuleType, string][] = (definitions.LayoutModule.anyOf ?? []).map((ref) => {
  const name = String(ref.$ref).split("/").pop()!;
  return [(definitions[name].properties!.type as { const: ModuleType }).const, name];
});

/** The module types, in the order the layout document lists them. */
export const MODULE_TYPES: ModuleType[] = MODULE_DEFINITIONS.map(([type]) => type);

/** Grid styles a page may use once. */
export const ONCE_PER_PAGE = ["three_grid"];

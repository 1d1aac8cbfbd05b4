// Documents whose shape is defined in TypeScript (schemas/documents/*.ts) get their JSON Schema
// generated with ts-json-schema-generator, so the server validates them with the same rules.
import { createGenerator } from "ts-json-schema-generator";
import { join } from "node:path";

export interface DocumentSource {
  /** Entity-style id the schema is registered under, e.g. page_layout. */
  id: string;
  /** Source file, relative to the root. */
  source: string;
  type: string;
}

export const DOCUMENTS: DocumentSource[] = [
  { id: "page_layout", source: "schemas/documents/page-layout.ts", type: "PageLayout" },
];

export function documentSchemaFile(doc: DocumentSource): string {
  return `schemas/${doc.id.replaceAll("_", "-")}.json`;
}

export function generateDocumentSchema(root: string, doc: DocumentSource): Record<string, unknown> {
  const generator = createGenerator({
    path: join(root, doc.source),
    type: doc.type,
    tsconfig: join(root, "tsconfig.json"),
    expose: "export",
    topRef: false,
    jsDoc: "extended",
    skipTypeCheck: true,
    additionalProperties: false,
  });
  const { $schema, ...schema } = generator.createSchema(doc.type) as Record<string, unknown>;
  return {
    $schema,
    $id: doc.id,
    $comment: `Generated from ${doc.source} by npm run codegen; do not edit.`,
    "x-generated-from": `${doc.source}#${doc.type}`,
    ...schema,
  };
}

// The shape of our schema files as code reads them at run time (console and server). The meta-schema
// (schemas/meta.schema.json) is the authority; codegen/model.ts re-exports these for the generators.
export type {
  SchemaNode as JsonSchemaNode,
  EntitySchema as JsonSchemaEntity,
  XEntity,
  XUi,
  XUpload,
  Transition,
  CompareRule,
  CallKind,
} from "../../codegen/model.ts";

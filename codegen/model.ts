// Shapes of the sources codegen reads. The schema vocabulary itself lives in src/schema/types.ts, shared
// with the server and the console; what is codegen's own (the resource manifest, the project) is here.
import type { JsonSchemaEntity, JsonSchemaNode, JsonSchemaOperation } from "../src/schema/types.ts";

export type { CallKind, CompareRule, Transition, XEntity, XOperation, XUi, XUpload } from "../src/schema/types.ts";
export type SchemaNode = JsonSchemaNode;
export type EntitySchema = JsonSchemaEntity;
export type OperationSchema = JsonSchemaOperation;

export interface RouteEntry {
  /** Stable id, also the translation key menu:routes.<id>. */
  id: string;
  path: string;
  group: string;
  entity: string;
  screen: "list" | "recycle" | "settings" | "create" | "edit" | "statistics" | "import";
  extension?: ExtensionName;
  /** Overrides the entity's list call (e.g. goods-down for subordinates' goods). */
  listCall?: string;
  /** Fixed filters applied to this screen's list (several values: an "in" filter). */
  filter?: Record<string, string | number | (string | number)[]>;
  /** The screen's initial order (one to three keys), when it is not the entity's default. */
  sort?: { field: string; order: "asc" | "desc" }[];
  /** false: reachable but not shown in the menu / tab bar. */
  menu?: boolean;
  /** Create routes: false when the list's Add button should not lead here (an import). */
  listAdd?: boolean;
  tab?: boolean;
}

export type ExtensionName =
  | "layout-editor"
  | "dashboard"
  | "restock-grid"
  | "payment-certificates"
  | "system-upgrade"
  | "agent-wizard"
  | "device-statistics"
  | "stock-statistics";

export interface ResourceManifest {
  /** What / shows after sign-in. */
  home: { extension: ExtensionName };
  groups: { id: string; icon: string }[];
  routes: RouteEntry[];
}

export interface Project {
  root: string;
  defs: SchemaNode;
  meta: SchemaNode;
  entities: EntitySchema[];
  /** Operations (schemas/operations/*.json): calls beyond CRUD, each with its input schema. */
  operations: OperationSchema[];
  documents: SchemaNode[];
  /** $id -> path relative to root */
  schemaFiles: Map<string, string>;
  locales: Record<string, Record<string, unknown>>;
  manifest: ResourceManifest;
}

/** Columns every table row has, managed by the engine. */
export const SYSTEM_FIELDS = ["id", "created_at", "updated_at", "version"] as const;

// Shapes of the sources codegen reads: a schema node with our x- vocabulary, an entity schema,
// the resource manifest. The meta-schema (schemas/meta.schema.json) is the authority on these.
export interface XUi {
  column?: boolean;
  width?: number;
  sortable?: boolean;
  filter?: "eq" | "like" | "range" | "in";
  order?: number;
  hidden?: boolean;
  widget?: string;
}

export interface XUpload {
  kind: "image" | "video" | "audio" | "certificate" | "file";
  accept: string[];
  maxBytes: number;
  compressTo?: number;
  ratio?: string;
  private?: boolean;
}

export interface SchemaNode {
  $id?: string;
  $ref?: string;
  $comment?: string;
  description?: string;
  type?: string | string[];
  enum?: (string | number)[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  if?: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  definitions?: Record<string, SchemaNode>;
  "x-ui"?: XUi;
  "x-money"?: true;
  "x-fraction"?: true;
  "x-immutable"?: true;
  "x-relation"?: { entity: string };
  "x-upload"?: XUpload;
  "x-store"?: "hash" | "none";
  "x-generated-from"?: string;
  [key: string]: unknown;
}

export type CallKind =
  | "list"
  | "detail"
  | "all"
  | "add"
  | "update"
  | "delete"
  | "recycleList"
  | "recover"
  | "destroy"
  | "export"
  | "get"
  | "set";

export interface Transition {
  action: string;
  from: (string | number)[];
  to: string | number;
  call: string;
  confirm?: boolean;
  danger?: boolean;
  input?: string[];
  requiredInput?: string[];
}

export interface XEntity {
  storage: "table" | "singleton" | "input";
  table?: string;
  titleField?: string;
  scope: "agent" | "none";
  recycle: boolean;
  basePath?: "/merchant" | "/admin";
  defaultSort?: { field: string; order: "asc" | "desc" };
  calls: Partial<Record<CallKind, string>>;
}

export interface CompareRule {
  name: string;
  field: string;
  op: "eq" | "ne" | "lt" | "lte" | "gt" | "gte";
  other: string;
}

export interface EntitySchema extends SchemaNode {
  $id: string;
  properties: Record<string, SchemaNode>;
  "x-entity": XEntity;
  "x-states"?: Record<string, { transitions: Transition[] }>;
  "x-compare"?: CompareRule[];
}

export interface RouteEntry {
  /** Stable id, also the translation key menu:routes.<id>. */
  id: string;
  path: string;
  group: string;
  entity: string;
  screen: "list" | "recycle" | "settings" | "create" | "edit";
  extension?: "layout-editor" | "dashboard" | "restock-grid" | "payment-certificates";
  /** Overrides the entity's list call (e.g. goods-down for subordinates' goods). */
  listCall?: string;
  /** Fixed filters applied to this screen's list. */
  filter?: Record<string, string | number>;
  /** false: reachable but not shown in the menu / tab bar. */
  menu?: boolean;
  tab?: boolean;
}

export interface ResourceManifest {
  groups: { id: string; icon: string }[];
  routes: RouteEntry[];
}

export interface Project {
  root: string;
  defs: SchemaNode;
  meta: SchemaNode;
  entities: EntitySchema[];
  documents: SchemaNode[];
  /** $id -> path relative to root */
  schemaFiles: Map<string, string>;
  locales: Record<string, Record<string, unknown>>;
  manifest: ResourceManifest;
}

/** Columns every table row has, managed by the engine. */
export const SYSTEM_FIELDS = ["id", "created_at", "updated_at", "version"] as const;

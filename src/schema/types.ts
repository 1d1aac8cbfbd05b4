// The shape of our schema files as code reads them (console, server and codegen alike). The
// meta-schema (schemas/meta.schema.json) is the authority on every keyword; these types follow it.
export interface XUi {
  column?: boolean;
  width?: number;
  sortable?: boolean;
  filter?: "eq" | "like" | "range" | "in";
  order?: number;
  hidden?: boolean;
  widget?: string;
  /** The quantity's unit, shown after the number (on money: the amount is per this unit). */
  unit?: "minute" | "hour" | "day" | "kg" | "kWh" | "ms" | "perKWh" | "perHour";
  /** Shown only for records whose named fields hold one of the values (a vending device's cup limit). */
  when?: Record<string, (string | number)[]>;
  /** How much a list column matters: 1 always shown (also on a phone), 2 from 1200 px, 3 from 1600 px. */
  priority?: 1 | 2 | 3;
  /** The header's search box finds records by it (GET /merchant/search; indexed by the migration). */
  search?: true;
  /** What the browser may fill the field with (HTML autocomplete), where the field's kind does not say. */
  autocomplete?: "current-password" | "new-password" | "username" | "off";
}

export interface XUpload {
  kind: "image" | "video" | "audio" | "certificate" | "file";
  accept: string[];
  maxBytes: number;
  compressTo?: number;
  ratio?: string;
  private?: boolean;
}

export interface JsonSchemaNode {
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
  items?: JsonSchemaNode;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  if?: JsonSchemaNode;
  then?: JsonSchemaNode;
  else?: JsonSchemaNode;
  allOf?: JsonSchemaNode[];
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  definitions?: Record<string, JsonSchemaNode>;
  "x-ui"?: XUi;
  "x-money"?: true;
  "x-fraction"?: true;
  "x-immutable"?: true;
  /** history: the row records what the record was (it may be destroyed); titleCopy: the field keeping its title. */
  "x-relation"?: { entity: string; history?: true; titleCopy?: string };
  "x-upload"?: XUpload;
  "x-certificate"?: "x509" | "private-key" | "pkcs12";
  /** On a switch: the fields it needs while on (all of `all`, and all of one set of `anyOf`). */
  "x-needs"?: { all: string[]; anyOf?: string[][] };
  "x-store"?: "hash" | "none" | "derived";
  /** Named sets of an enum field's values that rules share (an order's paid-like pay states). */
  "x-groups"?: Record<string, string[]>;
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
  /** Offered only for records whose fields hold one of these values (e.g. the device kind). */
  when?: Record<string, (string | number)[]>;
}

export interface XEntity {
  storage: "table" | "singleton";
  table?: string;
  titleField?: string;
  scope: "agent" | "owner" | "none";
  recycle: boolean;
  basePath?: "/merchant" | "/admin";
  defaultSort?: { field: string; order: "asc" | "desc" };
  /** A list row's primary action, where the first transition is not what a row is opened for. */
  rowAction?: "show" | "edit";
  calls: Partial<Record<CallKind, string>>;
  /** Records of other entities shown with each record's details (those whose field points at it). */
  related?: { entity: string; field: string }[];
  /** Sets of fields no two (live) records share: a unique index; a breaking write is a 400. */
  unique?: string[][];
  /** Reads go through the entity's live view (server/db/live.ts), which works out its derived fields in SQL. */
  live?: boolean;
  /**
   * Records of the entity are accounts signing in with fixed permissions (operators): those each holds,
   * and those it holds while one of its switch fields is on (restocking while `refill` is).
   */
  signIn?: { permissions: string[]; whileOn?: Record<string, string[]> };
}

export interface CompareRule {
  name: string;
  field: string;
  op: "eq" | "ne" | "lt" | "lte" | "gt" | "gte";
  other: string;
}

export interface JsonSchemaEntity extends JsonSchemaNode {
  $id: string;
  properties: Record<string, JsonSchemaNode>;
  "x-entity": XEntity;
  "x-states"?: Record<string, { transitions: Transition[]; initial?: (string | number)[] }>;
  "x-compare"?: CompareRule[];
  "x-import"?: XImport;
}

/** An entity's spreadsheet import (meta.schema.json xImport): its columns in order, and the key of a record. */
export interface XImport {
  columns: string[];
  key: string[];
  /** A relation column's fields of the related entity a cell may name its record by (default: its title). */
  names?: Record<string, string[]>;
}

/** Who may call an operation: anyone, any signed-in account, or the holders of a permission key. */
export type OperationAccess = "public" | "signed-in" | string;

/** What an operation answers, for the OpenAPI document and the console. */
export type OperationAnswer = "record" | "page" | "records" | "options" | "count" | "file" | "none" | JsonSchemaNode;

export interface XOperation {
  method: "GET" | "POST" | "DELETE";
  /** The folder under server/domain/ whose module holds the one handler. */
  area: string;
  /** The entity it acts on: its labels live in that entity's namespace, under operations.<call>. */
  entity?: string;
  permission: OperationAccess;
  basePath?: "/merchant" | "/admin";
  /** The input arrives in the query (GET, DELETE), as JSON (POST) or as one multipart file. */
  body?: "json" | "multipart";
  /** handler: the handler opens its own transactions (slow work such as password hashing stays outside). */
  transaction?: "call" | "handler";
  answer: OperationAnswer;
  /** How the console offers it: on each row, on the selected rows, in the toolbar, or nowhere. */
  ui?: {
    placement: "row" | "bulk" | "toolbar" | "none";
    /** Row operations: offered only when the record's fields hold one of these values. */
    when?: Record<string, (string | number)[]>;
    /** Row operations whose id takes a list: also offered on the selected rows. */
    bulk?: boolean;
    confirm?: boolean;
    danger?: boolean;
    /** Record fields shown above the input (money, state) and passed to the confirmation text. */
    summary?: string[];
    /** A GET operation (taking the record's id) whose answer fills the dialog before editing. */
    load?: string;
    /** Row operations: the dialog starts from the record's values of the fields it asks. */
    prefill?: boolean;
  };
}

/** An operation: a call that is more than CRUD, declared by its input schema in schemas/operations/. */
export interface JsonSchemaOperation extends JsonSchemaNode {
  /** The call name, e.g. "order-refund". */
  $id: string;
  properties: Record<string, JsonSchemaNode>;
  "x-operation": XOperation;
  "x-compare"?: CompareRule[];
}

/** One field's error in a refused call's answer (a 400's data, DESIGN §4): server and console share it. */
export interface FieldError {
  /** Path of the field, e.g. "confirm_password" or "packages/0/fee". */
  field: string;
  keyword: string;
  message: string;
}

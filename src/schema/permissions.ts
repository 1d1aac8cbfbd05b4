// Permission keys: <entity>.<operation> for every call an entity has, <entity>.<action> for every
// transition, and the key each operation declares. Roles carry these keys; the server checks them on
// every call and the console hides what they do not allow.
import type { CallKind, JsonSchemaEntity, JsonSchemaOperation } from "./types.ts";

const KIND_KEYS: Record<CallKind, string> = {
  list: "list",
  detail: "detail",
  all: "all",
  add: "add",
  update: "update",
  delete: "delete",
  recycleList: "recycle_list",
  recover: "recover",
  destroy: "destroy",
  export: "export",
  get: "get",
  set: "set",
};

export const permissionOfCall = (entity: string, kind: CallKind): string => `${entity}.${KIND_KEYS[kind]}`;

/**
 * Who may make an entity's call: the holders of its permission key, or any signed-in account where the
 * rows are each user's own (x-entity.scope "owner": every user keeps their own, nobody grants it).
 */
export const accessOfCall = (schema: JsonSchemaEntity, kind: CallKind): string =>
  schema["x-entity"].scope === "owner" ? "signed-in" : permissionOfCall(schema.$id, kind);

export const permissionOfTransition = (entity: string, action: string): string => `${entity}.${action}`;

export function entityPermissions(schema: JsonSchemaEntity): string[] {
  if (schema["x-entity"].scope === "owner") return [];
  const keys = (Object.keys(schema["x-entity"].calls) as CallKind[]).map((kind) => permissionOfCall(schema.$id, kind));
  for (const machine of Object.values(schema["x-states"] ?? {})) {
    for (const t of machine.transitions) keys.push(permissionOfTransition(schema.$id, t.action));
  }
  return keys;
}

/** The permission key an operation needs; undefined for public calls and those any signed-in account may make. */
export function operationPermission(operation: JsonSchemaOperation): string | undefined {
  const access = operation["x-operation"].permission;
  return access === "public" || access === "signed-in" ? undefined : access;
}

/** The labels a role editor shows for permission operations: permissions:<operation>. */
export const PERMISSION_OPERATIONS = Object.values(KIND_KEYS);

/** The operation part of a permission key: "order.refund" → "refund". */
export const operationOfPermission = (key: string): string => key.slice(key.indexOf(".") + 1);

/**
 * Whether a role of `level` fits an agent directly below one whose role has level `above`: a role's level is
 * the depth of the agents it is for, so the next level down (server/domain/accounts/place.ts holds every new
 * agent to it; the agent wizard offers the roles it takes).
 */
export const nextLevelDown = (level: number, above: number): boolean => level === above + 1;

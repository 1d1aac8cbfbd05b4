// Permission keys: <entity>.<operation> for every call an entity has, <entity>.<action> for every
// transition. Roles carry these keys; the server checks them on every call, the console hides what
// they do not allow.
import type { CallKind, EntitySchema, RouteEntry } from "./model.ts";

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

export function entityPermissions(schema: EntitySchema): string[] {
  const keys = (Object.keys(schema["x-entity"].calls) as CallKind[]).map((kind) => permissionOfCall(schema.$id, kind));
  for (const machine of Object.values(schema["x-states"] ?? {})) {
    for (const t of machine.transitions) keys.push(`${schema.$id}.${t.action}`);
  }
  return keys;
}

/** The permission a route needs to be shown. */
export function routePermission(route: RouteEntry): string {
  const kind: CallKind = { list: "list", recycle: "recycleList", settings: "get", create: "add", edit: "update" }[
    route.screen
  ] as CallKind;
  return permissionOfCall(route.entity, kind);
}

/** The labels a role editor shows for permission operations: common:permissions.<operation>. */
export const PERMISSION_OPERATIONS = Object.values(KIND_KEYS);

// Refine's access control from the permission set login answered: `<entity>.<operation>` and
// `<entity>.<transition>` keys (codegen/permissions.ts). Menu, routes and buttons all ask here; the
// server checks the same keys on every call.
import type { AccessControlProvider } from "@refinedev/core";
import { currentSession } from "../session.ts";

/** Refine's action names to our operation names; anything else (transitions, recover) passes as is. */
const OPERATION: Record<string, string> = {
  list: "list",
  show: "detail",
  create: "add",
  edit: "update",
  delete: "delete",
  clone: "add",
};

export function allowed(permission: string): boolean {
  return currentSession()?.permissions.includes(permission) ?? false;
}

export const permissionOf = (entity: string, action: string): string => `${entity}.${OPERATION[action] ?? action}`;

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action }) => {
    if (!resource) return { can: true };
    const can = allowed(permissionOf(resource, action));
    return can ? { can } : { can, reason: "forbidden" };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};

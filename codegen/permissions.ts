// The permission a manifest route needs to be shown; the key grammar itself is src/schema/permissions.ts.
import type { CallKind, RouteEntry } from "./model.ts";
import { permissionOfCall } from "../src/schema/permissions.ts";

export {
  entityPermissions,
  operationPermission,
  permissionOfCall,
  PERMISSION_OPERATIONS,
} from "../src/schema/permissions.ts";

/** The permission a route needs to be shown. */
export function routePermission(route: RouteEntry): string {
  const kind: CallKind = {
    list: "list",
    recycle: "recycleList",
    settings: "get",
    create: "add",
    edit: "update",
    statistics: "list",
  }[route.screen] as CallKind;
  return permissionOfCall(route.entity, kind);
}

// The permission a manifest route needs to be shown; the key grammar itself is src/schema/permissions.ts.
import type { CallKind, RouteEntry } from "./model.ts";
import { permissionOfCall } from "../src/schema/permissions.ts";
import { importPermission } from "../src/schema/imports.ts";

export {
  accessOfCall,
  entityPermissions,
  operationPermission,
  permissionOfCall,
  PERMISSION_OPERATIONS,
} from "../src/schema/permissions.ts";

/** The entity call each kind of screen is served by (and so the permission it needs). */
export const SCREEN_CALL = {
  list: "list",
  recycle: "recycleList",
  settings: "get",
  create: "add",
  edit: "update",
  statistics: "list",
} as const satisfies Record<Exclude<RouteEntry["screen"], "import">, CallKind>;

/** The permission a route needs to be shown (an import screen: the entity's import permission). */
export function routePermission(route: RouteEntry): string {
  return route.screen === "import"
    ? importPermission(route.entity)
    : permissionOfCall(route.entity, SCREEN_CALL[route.screen]);
}

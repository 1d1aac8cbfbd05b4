// The route table, built once from the generated resources (resources/routes.json): every path, the
// resource it belongs to and what it shows. The router, the tab bar and the titles all read it.
import { matchPath } from "react-router";
import { resources, type GeneratedResource } from "../generated/resources.ts";

export type RouteAction = "list" | "create" | "edit" | "show";

export interface ScreenRoute {
  path: string;
  action: RouteAction;
  resource: GeneratedResource;
  /** The route id whose name titles the tab (menu:routes.<id>). */
  routeId: string;
}

function build(): ScreenRoute[] {
  const byPath = new Map<string, ScreenRoute>();
  for (const resource of resources) {
    for (const action of ["list", "create", "edit", "show"] as const) {
      const path = resource[action];
      if (!path) continue;
      const route = { path, action, resource, routeId: resource.identifier };
      const existing = byPath.get(path);
      // A path declared by its own route (e.g. /page/add) wins over the same path on a list's resource.
      const own = (r: ScreenRoute) => r.resource.meta.screen === r.action;
      if (!existing || (own(route) && !own(existing))) byPath.set(path, route);
    }
  }
  return [...byPath.values()];
}

export const screenRoutes: ScreenRoute[] = build();

export function routeOf(pathname: string): (ScreenRoute & { id?: string }) | undefined {
  for (const route of screenRoutes) {
    const match = matchPath(route.path, pathname);
    if (match) return { ...route, id: match.params.id };
  }
  return undefined;
}

// The screen a route shows: its generated resource (resources/routes.json), the entity's view and
// what the signed-in user may do there.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { resources, type GeneratedResource } from "../generated/resources.ts";
import { allowed } from "../app/providers/access-control.ts";
import { entityView, type EntityView } from "./model.ts";
import type { CallKind } from "../schema/types.ts";
import { permissionOfCall } from "../schema/permissions.ts";

export interface ScreenContext {
  resource: GeneratedResource;
  view: EntityView;
  /** True when the entity has the call and the user holds its permission. */
  can: (kind: CallKind) => boolean;
  canTransition: (action: string) => boolean;
  /** The list route of this entity, where forms return after saving (and an import screen leads back to). */
  listPath: string;
}

export function resourceById(identifier: string): GeneratedResource {
  const resource = resources.find((r) => r.identifier === identifier);
  if (!resource) throw new Error(`unknown resource ${identifier}`);
  return resource;
}

export function screenContext(identifier: string): ScreenContext {
  const resource = resourceById(identifier);
  const view = entityView(resource.meta.entity);
  const mainList = resources.find((r) => r.meta.entity === view.name && r.meta.screen === "list" && !r.meta.listCall);
  return {
    resource,
    view,
    can: (kind) => view.x.calls[kind] !== undefined && allowed(permissionOfCall(view.name, kind)),
    canTransition: (action) => allowed(`${view.name}.${action}`),
    // An import screen's own path is a list-type route, not the entity's list.
    listPath: (resource.meta.screen === "import" ? undefined : resource.list) ?? mainList?.list ?? "/",
  };
}

/** The screen's context, once its entity's translations (and the shared ones) are loaded. */
export function useScreen(identifier: string): ScreenContext {
  const screen = useMemo(() => screenContext(identifier), [identifier]);
  // Suspends until loaded; the lazy screen's Suspense shows the spinner meanwhile.
  useTranslation([screen.view.name, "defs", "validation", "permissions"]);
  return screen;
}

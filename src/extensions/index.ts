// The hand-written screens (DESIGN §9), one folder each, by the name the manifest gives them
// (resources/routes.json: a route's "extension", and "home"). A route whose extension is not here yet
// shows its entity's generated screen. Each loads on demand, like every screen.
import type { ComponentType } from "react";
import type { ExtensionName } from "../generated/resources.ts";
import { lazyScreen } from "../app/lazy-screen.tsx";
import type { ScreenRoute } from "../app/routes.ts";

export interface ExtensionProps {
  /** The manifest route it serves; undefined at home. */
  route?: ScreenRoute;
}

export const extensions: Partial<Record<ExtensionName, ComponentType<ExtensionProps>>> = {
  dashboard: lazyScreen(() => import("./dashboard/dashboard.tsx").then((m) => m.Dashboard)),
};

// The hand-written screens (DESIGN §9), one folder each, by the name the manifest gives them
// (resources/routes.json: a route's "extension", and "home"). A route whose extension is not here yet
// shows its entity's generated screen. Each loads on demand, like every screen.
import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import type { ExtensionName } from "../generated/resources.ts";
import { lazyScreen, type LazyScreen } from "../app/lazy-screen.tsx";
import type { ScreenRoute } from "../app/routes.ts";

export interface ExtensionProps {
  /** The manifest route it serves; undefined at home. */
  route?: ScreenRoute;
}

export const extensions: Partial<Record<ExtensionName, LazyScreen<ExtensionProps>>> = {
  dashboard: lazyScreen(() => import("./dashboard/dashboard.tsx").then((m) => m.Dashboard), { page: true }),
  "restock-grid": lazyScreen(() => import("./restock-grid/restock-screen.tsx").then((m) => m.RestockScreen), {
    page: true,
  }),
  "machine-import": lazyScreen(() => import("./machine-import/machine-import.tsx").then((m) => m.MachineImport), {
    page: true,
  }),
  "payment-certificates": lazyScreen(
    () => import("./payment-certificates/payment-settings.tsx").then((m) => m.PaymentSettings),
    { page: true },
  ),
  "layout-editor": lazyScreen(() => import("./layout-editor/layout-editor.tsx").then((m) => m.LayoutEditor), {
    page: true,
  }),
  "agent-wizard": lazyScreen(() => import("./agent-wizard/agent-wizard.tsx").then((m) => m.AgentWizard), {
    page: true,
  }),
  "system-upgrade": lazyScreen(() => import("./system-upgrade/system-upgrade.tsx").then((m) => m.SystemUpgrade), {
    page: true,
  }),
};

/**
 * Hand-written panels a generated detail screen shows below the record, by entity: a device's lane
 * grid (restocked in place), an agent's superiors and direct subordinates. Each loads on demand.
 */
export const detailPanels: Partial<Record<string, ComponentType<{ record: Record<string, unknown> }>>> = {
  machine: lazyScreen(() => import("./restock-grid/restock-grid.tsx").then((m) => m.RestockPanel)),
  agent: lazyScreen(() => import("./agent-tree/agent-tree.tsx").then((m) => m.AgentTreePanel)),
};

/**
 * What an extension starts before its screen is shown (its code, words and first calls), where the
 * console knows it comes next: home, during sign-in's wait before it.
 */
export const preloads: Partial<Record<ExtensionName, (client: QueryClient) => Promise<unknown>>> = {
  dashboard: (client) =>
    Promise.all([
      extensions.dashboard?.preload(),
      import("./dashboard/queries.ts").then((m) => m.preloadDashboard(client)),
    ]),
};

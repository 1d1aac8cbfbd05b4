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

/** A hand-written page, loaded on demand, with no loading fallback of its own (see lazyScreen). */
const pageOf = (load: () => Promise<ComponentType<ExtensionProps>>) => lazyScreen(load, { page: true });

export const extensions: Partial<Record<ExtensionName, LazyScreen<ExtensionProps>>> = {
  dashboard: pageOf(() => import("./dashboard/dashboard.tsx").then((m) => m.Dashboard)),
  "restock-grid": pageOf(() => import("./restock-grid/restock-screen.tsx").then((m) => m.RestockScreen)),
  "payment-certificates": pageOf(() =>
    import("./payment-certificates/payment-settings.tsx").then((m) => m.PaymentSettings),
  ),
  "layout-editor": pageOf(() => import("./layout-editor/layout-editor.tsx").then((m) => m.LayoutEditor)),
  "agent-wizard": pageOf(() => import("./agent-wizard/agent-wizard.tsx").then((m) => m.AgentWizard)),
  "system-upgrade": pageOf(() => import("./system-upgrade/system-upgrade.tsx").then((m) => m.SystemUpgrade)),
  "device-statistics": pageOf(() => import("./statistics/statistics-view.tsx").then((m) => m.DeviceStatistics)),
  "stock-statistics": pageOf(() => import("./statistics/statistics-view.tsx").then((m) => m.StockStatistics)),
};

export interface DetailPanel {
  Component: ComponentType<{ record: Record<string, unknown> }>;
  /**
   * A panel that is what the record is opened for (a vending device's lanes) is the detail's first tab,
   * titled by this key, beside the record's information and its records; without it the panel sits below
   * the information.
   */
  tab?: string;
  /** The records it is for (lanes: vending devices only). */
  applies?: (record: Record<string, unknown>) => boolean;
}

/**
 * Hand-written panels a generated detail screen shows with the record, by entity: a device's lane grid
 * (restocked in place), an agent's superiors and direct subordinates. Each loads on demand.
 */
export const detailPanels: Partial<Record<string, DetailPanel>> = {
  machine: {
    Component: lazyScreen(() => import("./restock-grid/restock-grid.tsx").then((m) => m.RestockPanel)),
    tab: "restock.lanesTab",
    applies: (record) => record.kind === "vending",
  },
  agent: { Component: lazyScreen(() => import("./agent-tree/agent-tree.tsx").then((m) => m.AgentTreePanel)) },
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

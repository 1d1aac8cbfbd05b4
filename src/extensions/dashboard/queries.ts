// The dashboard's calls, defined once: the screens read them with useQuery, and sign-in starts them
// (with the screen's code and translations) during its 300 ms wait before home, so that the figures are
// there as soon as the screen is (DESIGN §8: interactive within 1.5 s after sign-in).
import { queryOptions, type FetchQueryOptions, type QueryClient } from "@tanstack/react-query";
import i18n from "i18next";
import { mayFetchAhead } from "../../app/fetch-ahead.ts";
import { api } from "../../app/api.ts";
import type { StatisticsDevicesAnswer } from "../../generated/types.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { currentSession } from "../../app/session.ts";
import { FIGURES } from "../../app/query-reads.ts";

export type DataRow = Record<string, unknown> & { id: number };
export type Days = 7 | 30 | 90;

/** A row of an outlet manager's outlets (statistics-devices by outlet). */
export type OutletRow = StatisticsDevicesAnswer["breakdown"]["list"][number];

/** The namespaces the dashboard and its map translate with. */
export const NAMESPACES = ["common", "order", "machine", "withdrawal", "defs"];

/**
 * Who may see what: each part of the dashboard needs the permission of the list it sums up. The period
 * figures are the agent's whole business: an outlet manager, who lists its outlets' orders, has its own
 * (my-outlets.tsx) instead.
 */
export const access = () => ({
  orders: allowed("order.list") && currentSession()?.user.kind !== "manager",
  map: allowed("machine.list"),
  team: allowed("agent.list"),
  withdrawals: allowed("withdrawal.list"),
  review: allowed("withdrawal.approve") || allowed("withdrawal.refuse"),
});

/**
 * Figures this recent are shown without asking again: those started during sign-in are not fetched a
 * second time when the screen mounts a moment later. A change made in the console refetches them at once
 * (every data query is invalidated after an action).
 */
const FRESH_MS = 10_000;

export const queries = {
  totals: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "total"],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-total"),
    }),
  trade: (days: Days) =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "trade", days],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-trade", { query: { days } }),
    }),
  mix: (days: Days) =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "order", days],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-order", { query: { days } }),
    }),
  todo: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "dealt"],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-dealt"),
    }),
  team: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "manage"],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-manage"),
    }),
  pending: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "withdrawals"],
      meta: { reads: FIGURES },
      queryFn: () =>
        api<{ list: DataRow[]; total: number }>("data-withdraw-list", {
          query: { status: "pending", sort: "request_time", order: "asc", limit: 5 },
        }),
    }),
  /** An outlet manager's outlets, today: their takings, paid orders and devices (my-outlets.tsx). */
  outletsToday: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "devices", "outlets-today"],
      meta: { reads: FIGURES },
      queryFn: () =>
        api("statistics-devices", {
          query: { period: "today", by: "shop", sort: "takings", limit: 50 },
        }),
    }),
  map: () =>
    queryOptions({
      staleTime: FRESH_MS,
      queryKey: ["statistics", "line-machine"],
      meta: { reads: FIGURES },
      queryFn: () => api("statistics-line-machine"),
    }),
};

/** The first days shown in the trend. */
export const FIRST_DAYS: Days = 7;

/**
 * Starts everything the dashboard will need, for the permissions of the user just signed in. Settled
 * when its words and its map's code are in; its calls go on.
 */
export function preloadDashboard(client: QueryClient): Promise<unknown> {
  const can = access();
  const start = <T, K extends readonly unknown[]>(query: FetchQueryOptions<T, Error, T, K>) =>
    void client.prefetchQuery(query);
  start(queries.todo());
  if (currentSession()?.user.kind === "manager") start(queries.outletsToday());
  if (can.orders) {
    start(queries.totals());
    start(queries.trade(FIRST_DAYS));
    start(queries.mix(FIRST_DAYS));
  }
  if (can.team) start(queries.team());
  if (can.withdrawals) start(queries.pending());
  // The map's, the trend's, the team's and the withdrawal panel's code are fetched beside the dashboard's, which then
  // holds them ready; a phone fetches the map when asked, the rest when shown (src/app/fetch-ahead.ts).
  const ahead = mayFetchAhead();
  if (can.map && ahead) {
    start(queries.map());
    void import("./device-map.tsx");
  }
  if (can.orders && ahead) void import("./trend-cards.tsx");
  if (can.withdrawals && ahead) void import("./withdrawal-card.tsx");
  if (can.team && ahead) void import("./team-card.tsx");
  return Promise.all([
    i18n.loadNamespaces(NAMESPACES),
    can.map && ahead && import("./dashboard.tsx").then((m) => m.DeviceMap.preload()),
  ]);
}

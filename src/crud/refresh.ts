// After any action (a transition, an operation, a delete, a restore) every screen that shows records
// must show their new state at once: lists, details, counts, related records, relation titles,
// histories, figures. Refine keys its queries by the route's resource identifier, not by the entity, so the
// action invalidates every data query, and every query that declares what it reads (src/app/query-reads.ts);
// only the ones on screen refetch. A list kept hidden for its tab
// (src/app/layout/kept-pages.tsx) is not on screen: its queries say so in their meta (`shown`), and it
// fetches what went stale when it is shown again.
import { useQueryClient, type Query } from "@tanstack/react-query";
import { useCallback } from "react";
import { readsOf } from "../app/query-reads.ts";

/**
 * How long what a detail screen asks for along with its record (its history, its related lists) is fresh:
 * shown once the record has come, a moment later, it is not asked for again. An action refreshes it at
 * once all the same (below).
 */
export const WITH_RECORD_FRESH_MS = 10_000;

/** Whether a query shows records: one of Refine's data queries, or one of ours that says what it reads. */
const showsRecords = (query: Query) => query.queryKey[0] === "data" || readsOf(query) !== undefined;

/** A query's meta on a page that can be hidden: whether that page is on screen now. */
export interface ShownMeta {
  shown?: () => boolean;
  [key: string]: unknown;
}

/** Whether a query is shown: one of its observers' pages is on screen (a query of no such page is). */
export const onScreen = (query: Query): boolean =>
  query.observers.some((observer) => (observer.options.meta as ShownMeta | undefined)?.shown?.() !== false);

export function useRefreshAfterAction(): () => Promise<void> {
  const queries = useQueryClient();
  return useCallback(async () => {
    await queries.invalidateQueries({ predicate: showsRecords, refetchType: "none" });
    await queries.refetchQueries({ type: "active", predicate: (query) => showsRecords(query) && onScreen(query) });
  }, [queries]);
}

// What the stream's changes (src/app/live.ts) make the console read again: each query on screen that shows
// a changed record, or figures summed from one, is fetched again through its ordinary scoped call, at most
// once a second while changes keep coming. A generic list applies the changes itself (it keeps its rows in
// place: src/crud/list/use-live-rows.ts), and so does a form being edited (it is never refreshed under the
// user's hands): their queries say so in their meta (`live: "own"`). A query on a page hidden for its tab
// waits until that page is shown again (src/crud/refresh.ts).
import { useQueryClient, type Query, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { onScreen } from "../crud/refresh.ts";
import { resources } from "../generated/resources.ts";
import { onLiveChange, startLive, stopLive, type LiveChange, type LiveNews } from "./live.ts";
import { readsOf, type QueryOfRecords } from "./query-reads.ts";

/** Refine keys a record's queries by its resource's identifier (the route's id): the entity each names. */
const ENTITY_OF = new Map<unknown, string>(
  resources.flatMap((r) => [
    [r.identifier, r.meta.entity],
    [r.name, r.meta.entity],
  ]),
);

/** A query is read again at most this often while changes keep coming. */
export const LIVE_READ_MS = 1_000;

const named = (change: LiveChange, id: unknown) =>
  change.more || change.records.some((r) => String(r.id) === String(id));

/**
 * Whether a query shows what the change changed: a Refine data query by its resource (and its record's id),
 * any other by what it declared it reads (src/app/query-reads.ts).
 */
export function shows(query: QueryOfRecords, change: LiveChange): boolean {
  // Refine's: ["data", provider, resource (the entity), action, id?, ...]
  const [kind, , resource, action, id] = query.queryKey;
  if (kind === "data") return ENTITY_OF.get(resource) === change.entity && (action !== "one" || named(change, id));
  const ids = readsOf(query)?.[change.entity];
  return ids === true || (ids !== undefined && ids.some((id) => named(change, id)));
}

const ownsLive = (query: Query) =>
  query.observers.some((o) => (o.options.meta as { live?: string } | undefined)?.live === "own");

/** Reads again, once a second at most each, the queries on screen the news concern. */
export function liveReader(client: QueryClient): (news: LiveNews) => void {
  const last = new Map<string, number>();
  const waiting = new Set<string>();
  const read = (query: Query) => {
    waiting.delete(query.queryHash);
    last.set(query.queryHash, Date.now());
    void client.refetchQueries({ queryKey: query.queryKey, exact: true, type: "active" });
  };
  return (news) => {
    for (const query of client.getQueryCache().getAll()) {
      if (!query.isActive() || ownsLive(query) || waiting.has(query.queryHash)) continue;
      if (!news.reset && !news.changes.some((change) => shows(query, change))) continue;
      // Hidden for its tab: marked stale, it is read when shown again.
      if (!onScreen(query)) {
        void client.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: "none" });
        continue;
      }
      const wait = (last.get(query.queryHash) ?? 0) + LIVE_READ_MS - Date.now();
      if (wait <= 0) read(query);
      else {
        waiting.add(query.queryHash);
        setTimeout(() => read(query), wait);
      }
    }
  };
}

/** The signed-in console's stream, open while the shell is, and what it reads again. */
export function useLiveScreens(): void {
  const client = useQueryClient();
  useEffect(() => {
    const stop = onLiveChange(liveReader(client));
    startLive();
    return () => {
      stop();
      stopLive();
    };
  }, [client]);
}

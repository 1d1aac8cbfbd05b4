// A list that keeps itself up to date (issue 32) without moving the rows under its reader: when the stream
// says that records of its entity changed (src/app/live.ts), the list reads its page again, and then
//   - the rows it shows take their new values in place;
//   - a row no longer in the page (deleted elsewhere, or changed so that the filters leave it out) stays
//     where it was, marked, until the reader moves on;
//   - rows that would now be on the page and were not are announced ("3 new orders"), shown on a click.
// What the reader asks for (another page, filters, sort, a refresh, an action's own refresh) shows the page
// as it is.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { onLiveChange, type LiveNews } from "../../app/live.ts";

type Row = Record<string, unknown> & { id: number };

/** A list reads its page again at most this often while changes keep coming. */
export const LIVE_REFETCH_MS = 1_000;

interface Accepted {
  /** The page's query (page, size, sort, filters) these rows were shown for. */
  key: string;
  rows: Row[];
}

/** Whether the news concern the rows of this entity shown (or could add rows to the page). */
export function concerns(news: LiveNews, entity: string, shown: Set<number>): boolean {
  if (news.reset) return true;
  return news.changes.some(
    (c) => c.entity === entity && (c.kind === "added" || c.more || c.records.some((r) => shown.has(r.id))),
  );
}

/**
 * The rows to show, given the page's latest rows and its query's key: `refetch` reads the page again;
 * `active` is false while the list is hidden (its tab in the background: it reads what went stale when
 * shown again, src/app/layout/kept-pages.tsx).
 */
export function useLiveRows(options: {
  entity: string;
  key: string;
  fetched: Row[] | undefined;
  fetchedAt: number;
  refetch: () => Promise<unknown>;
  /** A read is under way (the reader's, or an action's refresh): the stream's waits for it to end. */
  fetching: boolean;
  active: () => boolean;
}) {
  const { entity, key, fetched, fetchedAt } = options;
  const [accepted, setAccepted] = useState<Accepted>();
  /** The key of a read the stream asked for, until its answer comes. */
  const liveRead = useRef<string | undefined>(undefined);
  const shownIds = useRef(new Set<number>());
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;

  // An answer the reader asked for is shown as it is; one the stream asked for keeps the rows shown.
  useLayoutEffect(() => {
    if (!fetched) return;
    const live = liveRead.current === key;
    liveRead.current = undefined;
    if (!live || accepted?.key !== key) setAccepted({ key, rows: fetched });
  }, [fetchedAt, key]);

  useEffect(() => {
    const read = () => {
      // A read the reader asked for (another page, an action's refresh) is shown as it is when it comes:
      // the stream's read comes after it, not in its place.
      if (latest.current.fetching) {
        timer.current = setTimeout(read, LIVE_REFETCH_MS / 4);
        return;
      }
      timer.current = undefined;
      last.current = Date.now();
      liveRead.current = latest.current.key;
      void latest.current.refetch();
    };
    return onLiveChange((news) => {
      if (!latest.current.active() || !concerns(news, entity, shownIds.current) || timer.current) return;
      // Changes that keep coming: one read a second at most (the first at once).
      timer.current = setTimeout(read, Math.max(0, last.current + LIVE_REFETCH_MS - Date.now()));
    });
  }, [entity]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return useMemo(() => {
    if (!fetched || !accepted || accepted.key !== key) {
      shownIds.current = new Set((fetched ?? []).map((r) => r.id));
      return { rows: fetched ?? [], gone: new Set<number>(), fresh: [] as Row[], showFresh: () => {} };
    }
    const now = new Map(fetched.map((r) => [r.id, r]));
    const kept = new Set(accepted.rows.map((r) => r.id));
    const gone = new Set(accepted.rows.filter((r) => !now.has(r.id)).map((r) => r.id));
    const rows = accepted.rows.map((r) => now.get(r.id) ?? r);
    shownIds.current = kept;
    return {
      rows,
      /** Rows shown that are no longer in the page. */
      gone,
      /** Rows now in the page that are not shown yet. */
      fresh: fetched.filter((r) => !kept.has(r.id)),
      showFresh: () => setAccepted({ key, rows: fetched }),
    };
  }, [fetched, accepted, key]);
}

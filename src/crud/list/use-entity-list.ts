// The list screen's state (list-screen.tsx lays it out): the page of records as the address says it
// (filters, sort, page, synced both ways), the titles of the records they point at, the selection, and
// the load's state as the user sees it: the spinner only for rows not yet there or a reload they asked
// for, a failure (or being offline) in words with a retry.
import { useTable, type CrudFilter, type CrudSort } from "@refinedev/core";
import type { TableProps } from "antd";
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../app/api.ts";
import { usePageShownNow } from "../../app/page-shown.ts";
import { fromCrudFilters } from "../filters.ts";
import { useRelationTitles, type AnswerTitles } from "../relations.ts";
import { useLiveRows } from "./use-live-rows.ts";
import type { ScreenContext } from "../resource.ts";

export type Row = Record<string, unknown> & { id: number };

export const PAGE_SIZES = [10, 20, 30, 40];

/** What a call paused for want of a network reads as. */
const OFFLINE = new ApiError(0, "");

export function useEntityList(screen: ScreenContext, recycle: boolean) {
  const { view, resource } = screen;
  const shownNow = usePageShownNow();
  const fixed = Object.entries(resource.meta.filter ?? {}).map(([field, value]): CrudFilter => ({
    field,
    operator: Array.isArray(value) ? "in" : "eq",
    value,
  }));
  const defaultSort = view.x.defaultSort ?? { field: "id", order: "desc" };
  const initialSort = (resource.meta.sort ?? [defaultSort]) as CrudSort[];
  // "Count exactly" beside an estimate: the list asks for its exact total until its filters change.
  const [countExact, setCountExact] = useState(false);
  const table = useTable<Row, ApiError>({
    resource: view.name,
    meta: { call: recycle ? "recycleList" : resource.meta.listCall, count: countExact ? "exact" : undefined },
    pagination: { pageSize: PAGE_SIZES[0] },
    sorters: { initial: initialSort },
    filters: { permanent: fixed, defaultBehavior: "replace" },
    syncWithLocation: true,
    // A list kept hidden for its tab (src/app/layout/kept-pages.tsx) is not refreshed after an action
    // elsewhere (refresh.ts), nor rendered; shown again, it fetches what went stale.
    // The stream's changes are the list's own to apply (use-live-rows.ts), not the shell's (live-refresh.ts).
    queryOptions: { placeholderData: (previous) => previous, meta: { shown: shownNow, live: "own" } },
    errorNotification: (error) => ({ type: "error", message: error?.message ?? "" }),
  });
  const query = table.tableQuery;
  const live = useLiveRows({
    entity: view.name,
    key: JSON.stringify([recycle, table.currentPage, table.pageSize, table.sorters, table.filters, countExact]),
    fetched: query.data === undefined ? undefined : (table.result.data as Row[]),
    fetchedAt: query.dataUpdatedAt,
    refetch: () => query.refetch(),
    fetching: query.isFetching,
    active: shownNow,
  });
  const rows = live.rows;
  const answerTitles = (query.data as { titles?: AnswerTitles } | undefined)?.titles;
  const titles = useRelationTitles(view.columns, rows, answerTitles, shownNow);
  const [selected, setSelected] = useState<number[]>([]);
  const filterKey = JSON.stringify(table.filters);
  useEffect(() => setCountExact(false), [filterKey]);

  const fixedFields = new Set(Object.keys(resource.meta.filter ?? {}));
  const userFilters = table.filters.filter((f) => !("field" in f && fixedFields.has(f.field)));
  const filterValues = useMemo(() => fromCrudFilters(view, userFilters), [view, JSON.stringify(userFilters)]);

  // Rows on screen that are the ones asked for stay as they are while they reload in the background (a
  // switch back to the list, the refresh after an action) and are replaced when the answer comes: the
  // spinner is for rows not yet there (a first load, another page, other filters) and for a reload the
  // user asked for.
  const [reloading, setReloading] = useState(false);
  const reload = (load: () => Promise<unknown>) => {
    setReloading(true);
    void load().finally(() => setReloading(false));
  };
  const retry = () => reload(() => query.refetch());

  const onTableChange: TableProps<Row>["onChange"] = (pagination, _filters, sorter, extra) => {
    if (extra.action === "sort") {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      table.setSorters(
        one?.order ? [{ field: String(one.columnKey), order: one.order === "ascend" ? "asc" : "desc" }] : initialSort,
      );
    }
    if (extra.action === "paginate") {
      if (pagination.pageSize && pagination.pageSize !== table.pageSize) {
        table.setPageSize(pagination.pageSize);
        table.setCurrentPage(1);
      } else if (pagination.current) table.setCurrentPage(pagination.current);
    }
  };

  // A page past the last (rows removed elsewhere since the total was counted: the server then answers the
  // total counted again): the list moves to its last page, which holds rows.
  const lastPage = Math.max(1, Math.ceil((table.result.total ?? 0) / table.pageSize));
  const pastTheLast = !query.isFetching && query.data !== undefined && !rows.length && table.currentPage > lastPage;
  useEffect(() => {
    if (pastTheLast) table.setCurrentPage(lastPage);
  }, [pastTheLast, lastPage]);

  // Offline, react-query pauses the call instead of failing it (and resumes it once back online).
  const paused = query.fetchStatus === "paused";
  return {
    table,
    rows,
    /** Rows shown that were removed from the page elsewhere; rows new on it, announced; showing them. */
    gone: live.gone,
    fresh: live.fresh,
    showFresh: live.showFresh,
    titles,
    selected,
    setSelected,
    fixedFields,
    filterValues,
    reload,
    retry,
    onTableChange,
    loading: query.isFetching && (reloading || query.isPlaceholderData || query.data === undefined),
    failed: query.isError || paused,
    failure: paused ? OFFLINE : query.error,
    /** The pager's total is exact, or an estimate the server says is one. */
    exact: (query.data as { totalExact?: boolean } | undefined)?.totalExact !== false,
    /** The sort the list opens with (its address's, else the schema's default). */
    initialSort,
    /** Asks the server for the exact total (past its counting cap) of the list as filtered now. */
    countExactly: () => setCountExact(true),
  };
}

export type EntityListState = ReturnType<typeof useEntityList>;

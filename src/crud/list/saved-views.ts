// A list's saved views (schemas/saved-view.json, the user's own and those an agent above shared): the list's
// filters, sort, columns and page size kept under a name on the server. Choosing one puts its state on the
// list (the address carries its filters, as any filter does); the default one is opened when the list is
// opened with no filters in the address. What a view names that the list no longer has (a field removed
// from the schema) is left out, and said.
import type { CrudFilter, CrudSort, LogicalFilter } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { useEffect, useState } from "react";
import { api } from "../../app/api.ts";
import { LIST_OWN_COLUMNS, type ColumnChoice } from "../../app/session.ts";
import type { SavedView } from "../../generated/types.ts";
import type { ColumnChoiceState } from "./column-choice.tsx";
import type { EntityListState, Row } from "./use-entity-list.ts";
import { PAGE_SIZES } from "./use-entity-list.ts";

/** A view as the server answers it. */
export type StoredView = SavedView & { id: number; version: number; mine?: boolean };
/** The filters as kept: by field, each of its conditions. */
type KeptFilters = Record<string, { operator: LogicalFilter["operator"]; value: unknown }[]>;

const CALLS = { list: "saved-view-list", add: "saved-view-add", update: "saved-view-update", del: "saved-view-delete" };
/** A user keeps at most this many views of one list (the server's page). */
const MOST = 40;

/** The parts of a list's state a view keeps, made from the list as it is now. */
export function viewOfList(list: EntityListState, columns: ColumnChoiceState, all: TableColumnsType<Row>) {
  const filters: KeptFilters = {};
  for (const filter of list.table.filters) {
    if (!("field" in filter) || list.fixedFields.has(filter.field)) continue;
    (filters[filter.field] ??= []).push({ operator: filter.operator, value: filter.value });
  }
  const sort = list.table.sorters[0];
  return {
    filters,
    sort: sort ? { field: sort.field, order: sort.order } : null,
    columns: columns.layout(all).map(({ key, shown, width }) => (width ? { key, shown, width } : { key, shown })),
    page_size: list.table.pageSize,
  };
}

/**
 * A view's state as the list can take it: what it names the list still has. `missing` names the rest (a
 * filter, the sort or a column of a field removed from the schema), left out.
 */
export function viewState(
  view: StoredView,
  filterable: Set<string>,
  sortable: Set<string>,
  all: TableColumnsType<Row>,
) {
  const missing = new Set<string>();
  const filters: CrudFilter[] = [];
  for (const [field, conditions] of Object.entries((view.filters ?? {}) as KeptFilters)) {
    if (!filterable.has(field)) missing.add(field);
    else for (const { operator, value } of conditions) filters.push({ field, operator, value } as CrudFilter);
  }
  let sorters: CrudSort[] | undefined;
  if (view.sort && !sortable.has(view.sort.field)) missing.add(view.sort.field);
  else if (view.sort) sorters = [view.sort];
  const known = new Set(all.map((column) => String(column.key)));
  const choice: ColumnChoice = { ...LIST_OWN_COLUMNS, shown: {}, order: [], widths: {} };
  for (const column of view.columns ?? []) {
    if (!known.has(column.key)) {
      missing.add(column.key);
      continue;
    }
    choice.order.push(column.key);
    choice.shown[column.key] = column.shown;
    if (column.width) choice.widths[column.key] = column.width;
  }
  const pageSize = PAGE_SIZES.includes(view.page_size ?? 0) ? view.page_size! : PAGE_SIZES[0];
  return { filters, sorters, choice, pageSize, missing: [...missing] };
}

/**
 * Puts a view's state on the list (none: the list as it comes, its own columns); answers what the view
 * names that the list no longer has, left out.
 */
export function applyView(
  view: StoredView | undefined,
  list: EntityListState,
  columns: ColumnChoiceState,
  all: TableColumnsType<Row>,
  filterable: Set<string>,
): string[] {
  const { table } = list;
  const sortable = new Set(all.filter((column) => column.sorter).map((column) => String(column.key)));
  const state = view
    ? viewState(view, filterable, sortable, all)
    : { filters: [], sorters: undefined, choice: LIST_OWN_COLUMNS, pageSize: PAGE_SIZES[0], missing: [] };
  table.setFilters(state.filters, "replace");
  table.setSorters(state.sorters ?? list.initialSort);
  table.setPageSize(state.pageSize);
  table.setCurrentPage(1);
  columns.choose(state.choice);
  return state.missing;
}

/** The user's views of the list, the one chosen now, and what changes them. */
export function useSavedViews(listName: string, bare: boolean, apply: (view: StoredView | undefined) => void) {
  const client = useQueryClient();
  const key = ["saved-views", listName];
  const views = useQuery({
    queryKey: key,
    queryFn: () =>
      api<{ list: StoredView[] }>(CALLS.list, { query: { list: listName, limit: MOST } }).then((a) => a.list),
  });
  const [currentId, setCurrentId] = useState<number>();
  const current = views.data?.find((view) => view.id === currentId);
  const choose = (view: StoredView | undefined) => {
    setCurrentId(view?.id);
    apply(view);
  };
  // Opened with no filters in the address: the default view, once its list has come.
  const [opened, setOpened] = useState(!bare);
  useEffect(() => {
    if (opened || !views.data) return;
    setOpened(true);
    const byDefault = views.data.find((view) => view.is_default && view.mine !== false);
    if (byDefault) choose(byDefault);
  }, [opened, views.data]);

  const refresh = () => client.invalidateQueries({ queryKey: key });
  /** Saves the state as a new view, which becomes the one chosen at once (before the list comes again). */
  const save = async (state: Partial<SavedView> & { name: string }) => {
    const made = await api<StoredView>(CALLS.add, { method: "POST", body: { ...state, list: listName } });
    client.setQueryData<StoredView[]>(key, (old) => [
      ...(old ?? []).map((v) => (made.is_default && v.is_default ? { ...v, is_default: false } : v)),
      made,
    ]);
    setCurrentId(made.id);
    void refresh();
    return made;
  };
  /** Changes a view of the user's own (its state, its name, being the default). */
  const update = async (view: StoredView, change: Partial<SavedView>) => {
    await api(CALLS.update, { method: "POST", body: { id: view.id, version: view.version, ...change } });
    await refresh();
  };
  const remove = async (view: StoredView) => {
    await api(CALLS.del, { method: "DELETE", query: { id: view.id } });
    if (view.id === currentId) setCurrentId(undefined);
    await refresh();
  };
  return { views: views.data ?? [], loading: views.isLoading, current, choose, save, update, remove };
}

export type SavedViewsState = ReturnType<typeof useSavedViews>;

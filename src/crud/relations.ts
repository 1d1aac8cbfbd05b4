// Titles and options of related records, from the target entity's `-all` call: `?id=1,2,3` for the
// rows on a list page, `?q=text` for a picker. Answers are [{ id, title }] and cached briefly.
import { useQueries, useQuery } from "@tanstack/react-query";
import { api } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import { entitySchemas } from "../generated/schemas.ts";
import type { EntityName } from "../generated/types.ts";
import type { FieldView } from "./model.ts";
import type { ShownMeta } from "./refresh.ts";
import type { ReadsMeta } from "../app/query-reads.ts";
import { permissionOfCall } from "../schema/permissions.ts";

export interface RelationOption {
  id: number;
  title: string;
}

/** The target's picker call, when it has one and the user may use it. */
export function pickerCall(entity: EntityName): { call: string; base: string } | undefined {
  const x = entitySchemas[entity]?.["x-entity"];
  const call = x?.calls.all;
  if (!call || !allowed(permissionOfCall(entity, "all"))) return undefined;
  return { call, base: x.basePath ?? "/merchant" };
}

const STALE_MS = 60_000;

/** Titles a list answer carries: target entity → id → title. */
export type AnswerTitles = Record<string, Record<number, string>>;

/** The related ids the given fields hold on the rows, per target entity. */
function relatedIds(fields: FieldView[], rows: Record<string, unknown>[]): Map<EntityName, Set<number>> {
  const wanted = new Map<EntityName, Set<number>>();
  for (const field of fields) {
    if (!field.relation) continue;
    const ids = wanted.get(field.relation) ?? new Set<number>();
    for (const row of rows) {
      const value = row[field.name];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === "number") ids.add(id);
    }
    wanted.set(field.relation, ids);
  }
  return wanted;
}

/**
 * History (an order's goods, a restock's device) names what it was written with: a related record that
 * is gone, and so has no title to show, reads the title the row kept (x-relation.titleCopy), not "#id".
 */
export function withTitleCopies(
  fields: FieldView[],
  rows: Record<string, unknown>[],
  titles: Map<EntityName, Map<number, string>>,
): Map<EntityName, Map<number, string>> {
  for (const field of fields) {
    if (!field.relation || !field.titleCopy) continue;
    for (const row of rows) {
      const id = row[field.name];
      const kept = row[field.titleCopy];
      if (typeof id !== "number" || kept === null || kept === undefined || kept === "") continue;
      const known = titles.get(field.relation) ?? new Map<number, string>();
      if (!known.has(id)) known.set(id, String(kept));
      titles.set(field.relation, known);
    }
  }
  return titles;
}

/** The query of some records' titles (lists and pickers share its cache entries; messages its call). */
function titlesQuery(entity: EntityName, ids: Set<number>) {
  const sorted = [...ids].sort((a, b) => a - b);
  const { call, base } = pickerCall(entity)!;
  return {
    queryKey: ["relation-titles", entity, sorted],
    meta: { reads: { [entity]: sorted } } satisfies ReadsMeta,
    queryFn: () => api<RelationOption[]>(call, { base, query: { id: sorted } }),
    staleTime: STALE_MS,
  };
}

/**
 * The titles of the records the fields hold on the rows, asked once (a message naming what a dialog
 * chose); a title that cannot be asked is left out (the message then says "#id").
 */
export async function fetchRelationTitles(
  fields: FieldView[],
  rows: Record<string, unknown>[],
): Promise<Map<EntityName, Map<number, string>>> {
  const titles = new Map<EntityName, Map<number, string>>();
  const targets = [...relatedIds(fields, rows)].filter(([entity, ids]) => ids.size > 0 && pickerCall(entity));
  await Promise.all(
    targets.map(async ([entity, ids]) => {
      const options = await titlesQuery(entity, ids)
        .queryFn()
        .catch(() => []);
      titles.set(entity, new Map(options.map((o) => [o.id, o.title])));
    }),
  );
  return withTitleCopies(fields, rows, titles);
}

/**
 * Title of each related id the given fields hold on the rows shown, per target entity. A list answer
 * carries them (`given`); otherwise they are asked of each target's `-all` call, where the user may.
 */
export function useRelationTitles(
  fields: FieldView[],
  rows: Record<string, unknown>[],
  given?: AnswerTitles,
  /** Whether the page is on screen (a list kept hidden does not refresh its titles until shown). */
  shown: () => boolean = () => true,
) {
  const wanted = relatedIds(fields, rows);
  const targets = given ? [] : [...wanted].filter(([entity, ids]) => ids.size > 0 && pickerCall(entity));
  const results = useQueries({
    queries: targets.map(([entity, ids]) => {
      const query = titlesQuery(entity, ids);
      return { ...query, meta: { ...query.meta, shown } satisfies ShownMeta & ReadsMeta };
    }),
  });
  const titles = new Map<EntityName, Map<number, string>>();
  if (given) {
    for (const [entity, byId] of Object.entries(given))
      titles.set(entity as EntityName, new Map(Object.entries(byId).map(([id, title]) => [Number(id), title])));
    return withTitleCopies(fields, rows, titles);
  }
  targets.forEach(([entity], i) => {
    titles.set(entity, new Map((results[i].data ?? []).map((o) => [o.id, o.title])));
  });
  return withTitleCopies(fields, rows, titles);
}

/** Options for a picker, searched by title on the server (up to 500 per answer). */
export function useRelationOptions(entity: EntityName, search: string, selected: number[]) {
  const picker = pickerCall(entity);
  const options = useQuery({
    queryKey: ["relation-options", entity, search],
    queryFn: () => api<RelationOption[]>(picker!.call, { base: picker!.base, query: { q: search } }),
    enabled: picker !== undefined,
    staleTime: STALE_MS,
  });
  // The chosen records may fall outside the searched page: fetch their titles too.
  const chosen = useQuery({
    queryKey: ["relation-titles", entity, [...selected].sort((a, b) => a - b)],
    meta: { reads: { [entity]: selected } } satisfies ReadsMeta,
    queryFn: () => api<RelationOption[]>(picker!.call, { base: picker!.base, query: { id: selected } }),
    enabled: picker !== undefined && selected.length > 0,
    staleTime: STALE_MS,
  });
  const merged = new Map<number, RelationOption>();
  for (const option of [...(chosen.data ?? []), ...(options.data ?? [])]) merged.set(option.id, option);
  return { options: [...merged.values()], loading: options.isFetching, available: picker !== undefined };
}

/**
 * The titles a record's detail screen shows, from its entity's list answering that one id (the list
 * answer carries them, also for records the user may not list themselves: an agent's superior).
 * `undefined` where the user may not list the entity: the detail then asks the `-all` calls.
 */
export function useRecordTitles(entity: EntityName, id: number): AnswerTitles | undefined {
  const x = entitySchemas[entity]?.["x-entity"];
  const call = x?.calls.list;
  const may = call !== undefined && allowed(permissionOfCall(entity, "list"));
  const query = useQuery({
    queryKey: ["record-titles", entity, id],
    meta: { reads: { [entity]: [id] } } satisfies ReadsMeta,
    queryFn: () => api<{ titles?: AnswerTitles }>(call!, { base: x.basePath ?? "/merchant", query: { id, limit: 1 } }),
    enabled: may,
    staleTime: STALE_MS,
  });
  return may ? (query.data?.titles ?? {}) : undefined;
}

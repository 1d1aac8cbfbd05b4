// Titles and options of related records, from the target entity's `-all` call: `?id=1,2,3` for the
// rows on a list page, `?q=text` for a picker. Answers are [{ id, title }] and cached briefly.
import { useQueries, useQuery } from "@tanstack/react-query";
import { api } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import { entitySchemas } from "../generated/schemas.ts";
import type { EntityName } from "../generated/types.ts";
import type { FieldView } from "./model.ts";
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

/** Title of each related id the given fields hold on the rows shown, per target entity. */
export function useRelationTitles(fields: FieldView[], rows: Record<string, unknown>[]) {
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
  const targets = [...wanted].filter(([entity, ids]) => ids.size > 0 && pickerCall(entity));
  const results = useQueries({
    queries: targets.map(([entity, ids]) => {
      const sorted = [...ids].sort((a, b) => a - b);
      const { call, base } = pickerCall(entity)!;
      return {
        queryKey: ["relation-titles", entity, sorted],
        queryFn: () => api<RelationOption[]>(call, { base, query: { id: sorted } }),
        staleTime: STALE_MS,
      };
    }),
  });
  const titles = new Map<EntityName, Map<number, string>>();
  targets.forEach(([entity], i) => {
    titles.set(entity, new Map((results[i].data ?? []).map((o) => [o.id, o.title])));
  });
  return titles;
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
    queryFn: () => api<RelationOption[]>(picker!.call, { base: picker!.base, query: { id: selected } }),
    enabled: picker !== undefined && selected.length > 0,
    staleTime: STALE_MS,
  });
  const merged = new Map<number, RelationOption>();
  for (const option of [...(chosen.data ?? []), ...(options.data ?? [])]) merged.set(option.id, option);
  return { options: [...merged.values()], loading: options.isFetching, available: picker !== undefined };
}

// A record's related list's query (the records of another entity pointing at it), apart from the list's
// table (related-list.tsx, loaded when one is shown), so that a detail can ask for the rows along with its
// record without downloading antd's Table first.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { api } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import type { EntityName } from "../generated/types.ts";
import { permissionOfCall } from "../schema/permissions.ts";
import { entityView } from "./model.ts";
import { WITH_RECORD_FRESH_MS } from "./refresh.ts";
import type { AnswerTitles } from "./relations.ts";
import { readsAny, type ReadsMeta } from "../app/query-reads.ts";

export type Row = Record<string, unknown> & { id: number };

export interface RelatedProps {
  entity: EntityName;
  /** The field of the related entity that holds this record's id. */
  field: string;
  id: number;
}

/** A page of the records of `entity` whose `field` points at the record `id`. */
export const relatedQuery = (entity: EntityName, field: string, id: number, page: number) => {
  const view = entityView(entity);
  return queryOptions({
    queryKey: ["related", entity, field, id, page],
    meta: { reads: readsAny(entity) } satisfies ReadsMeta,
    queryFn: () =>
      api<{ list: Row[]; total: number; titles?: AnswerTitles }>(view.x.calls.list!, {
        base: view.x.basePath ?? "/merchant",
        query: { [field]: id, page, limit: 10 },
      }),
    staleTime: WITH_RECORD_FRESH_MS,
  });
};

export const mayList = (entity: EntityName) => allowed(permissionOfCall(entity, "list"));

/** Asks for the first page of a related list along with the record (the list is shown once it has come). */
export function prefetchRelated(client: QueryClient, { entity, field, id }: RelatedProps): void {
  if (mayList(entity)) void client.prefetchQuery(relatedQuery(entity, field, id, 1));
}

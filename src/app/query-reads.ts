// What a query shows, declared where the query is made (its meta's `reads`): the entities its rows or
// figures come from, each with the ids of the records it shows, or `true` for any record of it. The live
// stream reads a query again when one of them changes (src/app/live-refresh.ts); an action reads again
// every such query on screen (src/crud/refresh.ts). Refine's own data queries are known by their keys.
export type Reads = Readonly<Record<string, true | readonly unknown[]>>;

export interface ReadsMeta {
  reads?: Reads;
  [key: string]: unknown;
}

/** A query as far as what it shows goes: a cached query, or the options one is made from. */
export interface QueryOfRecords {
  queryKey: readonly unknown[];
  meta?: Record<string, unknown>;
}

/** What the query declared it shows, if anything. */
export const readsOf = (query: Pick<QueryOfRecords, "meta">): Reads | undefined =>
  (query.meta as ReadsMeta | undefined)?.reads;

/** Any record of each of the entities. */
export const readsAny = (...entities: string[]): Reads => Object.fromEntries(entities.map((e) => [e, true]));

/** The entities the dashboard's and statistics' figures (and the device map) are summed from. */
export const FIGURES: Reads = readsAny(
  "order",
  "machine",
  "machine_channel",
  "withdrawal",
  "payment_record",
  "profit_record",
  "agent",
  "shop",
);

// The search box's SQL: one statement per kind, in the caller's scope (the list call's scope clause).
// Exact, prefix and inside matches are three limited reads, each served by an index of lower(field)
// (server/db/migrate.ts: a btree for the first two, pg_trgm for the third), so a common word over a
// million rows stops at the first few it finds instead of ranking them all.
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import type { EntityModel } from "../../model/model.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";

export const MATCHES = ["exact", "prefix", "inside"] as const;
export type Match = (typeof MATCHES)[number];

export interface Hit {
  id: number;
  title: string;
  match: Match;
  /** The context fields' values, in the order asked for (null where the record has none). */
  values: (string | null)[];
}

/**
 * The planner's price of a page read at random, for the search's statements (`set local`: its transaction
 * only). PostgreSQL's default (4, a spinning disk's) makes a trigram index look dearer than reading a table
 * until `limit` rows match: right for a fragment many rows hold, but a rare one (a whole code, a word found
 * nowhere) then reads every row. Measured on PostgreSQL over 100,000 devices, a word found nowhere: 40 ms
 * through every device at the default, 2 ms through the index at 1.1 (an SSD's or a cached table's price,
 * which the search's tables are); a fragment every order number holds stays a read of the first few rows.
 */
export const SEARCH_PRICES = "set local random_page_cost = 1.1";

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A fragment shorter than a trigram (one or two characters) cannot use the trigram index: its inside match
 * is looked for among each kind's records of the newest `shortWindow` ids (everyone's; the caller's scope
 * applies within them), a range of the primary key, instead of every row. Measured on PostgreSQL over
 * 1,000,000 orders, two characters found nowhere: 452 ms as the admin reading every row. A common fragment
 * is met among the first rows either way, and a third character searches everything.
 */
export const SEARCH = { shortWindow: 20_000 };

/**
 * Up to `limit` records of the kind whose searched fields hold `text`, best first: every exact match (up to
 * the limit), then prefix matches, then inside ones; within one kind of match the shortest title first.
 */
export async function searchKind(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  text: string,
  limit: number,
  context: string[],
): Promise<Hit[]> {
  const params: unknown[] = [text, `${escapeLike(text)}%`, `%${escapeLike(text)}%`];
  const scoped = scopeClause(model, scope, params.length);
  params.push(...scoped.values);
  const live = model.recycle ? " and deleted_at is null" : "";
  const any = (test: (column: string) => string) => model.searched.map((f) => test(`lower(${q(f)})`)).join(" or ");
  const read = (rank: number, test: (column: string) => string, from = q(model.table)) =>
    `(select id, ${rank} as rank from ${from} where (${any(test)})${live}${scoped.sql} limit ${limit})`;
  // Too short for a trigram: the rows of the newest ids alone, a range of the primary key whose bound the
  // planner is told as a number (with the bound as a subquery the admin's search took 222 ms), read first
  // (`offset 0` keeps it from reaching past the range for an index of the scope's, which read every one of
  // an agent's million orders), then the text and the scope tested on them.
  let newest: string | undefined;
  if ([...text].length < 3) {
    const { rows } = await db.query<{ top: string | number }>(
      `select coalesce(max(id), 0) as top from ${q(model.table)}`,
    );
    const from = Math.max(0, Number(rows[0].top) - SEARCH.shortWindow);
    newest = `(select * from ${q(model.table)} where id > ${from} offset 0) w`;
  }
  const title = q(model.titleField ?? "id");
  const { rows } = await db.query<{ id: number; title: string; rank: number } & Record<string, string | null>>(
    `with hits as (${read(0, (c) => `${c} = lower($1)`)} union all ${read(1, (c) => `${c} like lower($2)`)}
                   union all ${read(2, (c) => `${c} like lower($3)`, newest)}),
          best as (select id, min(rank) as rank from hits group by id)
     select r.id, coalesce(r.${title}::text, '') as title, best.rank::int as rank
            ${context.map((f, i) => `, r.${q(f)}::text as c${i}`).join("")}
       from best join ${q(model.table)} r on r.id = best.id
      order by best.rank, length(coalesce(r.${title}::text, '')), r.${title}, r.id
      limit ${limit}`,
    params,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    match: MATCHES[Number(row.rank)],
    values: context.map((_, i) => row[`c${i}`] ?? null),
  }));
}

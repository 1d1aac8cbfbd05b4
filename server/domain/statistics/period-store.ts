// The statements of the two statistics views over a period of business days (statistics-devices,
// statistics-stock): totals, one row per day, and a page of a breakdown by device, goods or outlet. Each
// statement takes the caller's scope as the engine does (`scopeClause`): the devices' own (an operator's
// bound devices, an agent's subtree) for the device figures, the stock consumption rows' own for the stock
// figures. Device takings come from the stat_machine_day roll-up, stock from the stock consumption rows
// (both kept by the triggers of server/db/rollups.ts), so no statement reads the orders themselves.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { businessDay } from "../../db/rollups.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

export type Period = "today" | "yesterday" | "last_7_days" | "last_30_days" | "last_90_days" | "this_month" | "custom";
export type Dimension = "machine" | "goods" | "shop";
type Row = Record<string, unknown>;

const TODAY = businessDay("now()");

/** Each preset's first and last business day, in SQL (custom: the caller's $2 and $3). */
const FIRST: Record<Period, string> = {
  today: TODAY,
  yesterday: `${TODAY} - 1`,
  last_7_days: `${TODAY} - 6`,
  last_30_days: `${TODAY} - 29`,
  last_90_days: `${TODAY} - 89`,
  this_month: `date_trunc('month', ${TODAY})::date`,
  custom: `$2::date`,
};
const LAST: Record<Period, string> = {
  today: TODAY,
  yesterday: `${TODAY} - 1`,
  last_7_days: TODAY,
  last_30_days: TODAY,
  last_90_days: TODAY,
  this_month: TODAY,
  custom: `$3::date`,
};

/** The period's first and last business days and today's, as YYYY-MM-DD. */
export async function resolvePeriod(
  db: Queryable,
  period: Period,
  from?: string,
  to?: string,
): Promise<{ first: string; last: string; today: string }> {
  const { rows } = await db.query<{ first: string; last: string; today: string }>(
    `select $1::text as period, (${FIRST[period]})::text as first, (${LAST[period]})::text as last,
            ${TODAY}::text as today`,
    period === "custom" ? [period, from, to] : [period],
  );
  return rows[0];
}

/** The title column of an entity (its x-entity.titleField): a device's code, an outlet's or goods' name. */
const title = (entity: string) => q(modelOf(entity).titleField ?? "id");

/** The page of a breakdown: its rows in the order asked, and how many there are in all. */
export interface Page {
  sort: string;
  order: "asc" | "desc";
  page: number;
  limit: number;
}

/**
 * A breakdown's page and total in one statement: `rows` (a query with an `id` column and the sort column)
 * numbered in the order asked (ties by id, the outlet-less group last), then the page cut from them.
 * `values` are the statement's parameters so far: the page's two follow them.
 */
async function pageOf(
  db: Queryable,
  ctes: string,
  rows: string,
  values: unknown[],
  page: Page,
): Promise<{ total: number; list: Row[] }> {
  const at = values.length;
  const order = page.order === "asc" ? "asc" : "desc";
  const { rows: answer } = await db.query<{ total: number; list: Row[] | string }>(
    `with ${ctes}, r as (${rows}),
          o as (select r.*, row_number() over (order by r.${q(page.sort)} ${order}, r.id nulls last) as n from r)
     select (select count(*) from o)::int as total,
            coalesce((select json_agg(o order by o.n) from o where o.n > $${at + 1} and o.n <= $${at + 1} + $${at + 2}), '[]')
              as list`,
    [...values, (page.page - 1) * page.limit, page.limit],
  );
  const list = answer[0].list;
  return { total: Number(answer[0].total), list: typeof list === "string" ? (JSON.parse(list) as Row[]) : list };
}

// ---------------------------------------------------------------- device statistics

/**
 * A row of the caller's devices: its machine_id among those of `m`. An array rather than a join: read in
 * one index scan of the roll-up whatever the planner guesses of `m`'s size (PGlite has no autovacuum to
 * give it statistics, and a guess of one row made a join probe the index once per device).
 */
const OF_DEVICES = `machine_id = any(array(select id from m))`;

/** Each of the caller's devices' takings and paid orders of the period ($1 to $2). */
const PER_DEVICE = `(select machine_id, sum(orders) as orders, sum(takings) as takings from stat_machine_day
                      where day between $1::date and $2::date and ${OF_DEVICES} group by machine_id)`;

/** The caller's live devices, after the period's $1 and $2: the `m` every device statement starts from. */
function devicesIn(scope: Scope): { cte: string; values: unknown[] } {
  const s = scopeClause(modelOf("machine"), scope, 2);
  return {
    cte: `m as materialized (select id, shop_id, ${title("machine")} as title from ${q("machine")}
                              where deleted_at is null${s.sql})`,
    values: s.values,
  };
}

/** Takings, paid orders, the devices and those with takings in the period. */
export async function deviceTotals(db: Queryable, scope: Scope, first: string, last: string): Promise<Row> {
  const m = devicesIn(scope);
  const { rows } = await db.query<Row>(
    `with ${m.cte},
          d as materialized ${PER_DEVICE}
     select (select count(*) from m) as devices,
            (select count(distinct machine_id) from d where orders <> 0 or takings <> 0) as active_devices,
            (select coalesce(sum(orders), 0) from d) as orders,
            (select coalesce(sum(takings), 0) from d) as takings`,
    [first, last, ...m.values],
  );
  return rows[0];
}

/** Each day's takings and paid orders, oldest first (a day without any: zeros). */
export async function deviceTrend(db: Queryable, scope: Scope, first: string, last: string): Promise<Row[]> {
  const m = devicesIn(scope);
  const { rows } = await db.query<Row>(
    `with ${m.cte},
          d as (select d.day, sum(d.orders) as orders, sum(d.takings) as takings
                  from stat_machine_day d where d.day between $1::date and $2::date and ${OF_DEVICES}
                 group by d.day)
     select g.day::date::text as day, coalesce(d.orders, 0) as orders, coalesce(d.takings, 0) as takings
       from generate_series($1::date, $2::date, interval '1 day') as g(day)
       left join d on d.day = g.day::date
      order by g.day`,
    [first, last, ...m.values],
  );
  return rows;
}

/**
 * A page of the device figures by device (every device in scope, those without takings too, with its
 * outlet), by outlet (the devices standing there; those at none together) or by goods (what the vending
 * devices' stock consumption says of each goods item sold: items and takings).
 */
export async function deviceBreakdown(
  db: Queryable,
  scope: Scope,
  first: string,
  last: string,
  by: Dimension,
  page: Page,
): Promise<{ total: number; list: Row[] }> {
  const m = devicesIn(scope);
  const values = [first, last, ...m.values];
  const f = `f as materialized (select * from ${PER_DEVICE} f)`;
  if (by === "machine")
    return pageOf(
      db,
      `${m.cte}, ${f}`,
      `select m.id, m.title as name, s.${title("shop")} as outlet, 1 as devices,
              coalesce(f.orders, 0) as orders, coalesce(f.takings, 0) as takings
         from m left join f on f.machine_id = m.id left join ${q("shop")} s on s.id = m.shop_id`,
      values,
      page,
    );
  if (by === "shop")
    return pageOf(
      db,
      `${m.cte}, ${f}`,
      `select m.shop_id as id, min(s.${title("shop")}) as name, count(*) as devices,
              coalesce(sum(f.orders), 0) as orders, coalesce(sum(f.takings), 0) as takings
         from m left join f on f.machine_id = m.id left join ${q("shop")} s on s.id = m.shop_id
        group by m.shop_id`,
      values,
      page,
    );
  return pageOf(
    db,
    m.cte,
    `select c.goods_id as id, min(g.${title("goods")}) as name,
            count(distinct c.machine_id) filter (where c.quantity <> 0 or c.money <> 0) as devices,
            sum(c.quantity) as sold, sum(c.money) as takings
       from ${q("stock_consumption")} c left join ${q("goods")} g on g.id = c.goods_id
      where c."date" between $1::date and $2::date and c.${OF_DEVICES}
      group by c.goods_id having sum(c.quantity) <> 0 or sum(c.money) <> 0`,
    values,
    page,
  );
}

// ---------------------------------------------------------------- stock statistics

/** The caller's stock consumption rows of the period: the `c` every stock statement starts from. */
function stockIn(scope: Scope): { cte: string; values: unknown[] } {
  const s = scopeClause(modelOf("stock_consumption"), scope, 2);
  return {
    cte: `c as (select machine_id, goods_id, "date" as day, quantity, money, restocked from ${q("stock_consumption")}
                 where "date" between $1::date and $2::date${s.sql})`,
    values: s.values,
  };
}

/** Items sold, their takings, items restocked, the goods sold and the devices with any of these. */
export async function stockTotals(db: Queryable, scope: Scope, first: string, last: string): Promise<Row> {
  const c = stockIn(scope);
  const { rows } = await db.query<Row>(
    `with ${c.cte}
     select coalesce(sum(quantity), 0) as sold, coalesce(sum(money), 0) as takings,
            coalesce(sum(restocked), 0) as restocked,
            count(distinct goods_id) filter (where quantity <> 0) as goods,
            count(distinct machine_id) filter (where quantity <> 0 or money <> 0 or restocked <> 0) as devices
       from c`,
    [first, last, ...c.values],
  );
  return rows[0];
}

/** Each day's items sold, takings and items restocked, oldest first (a day without any: zeros). */
export async function stockTrend(db: Queryable, scope: Scope, first: string, last: string): Promise<Row[]> {
  const c = stockIn(scope);
  const { rows } = await db.query<Row>(
    `with ${c.cte},
          d as (select day, sum(quantity) as sold, sum(money) as takings, sum(restocked) as restocked from c group by day)
     select g.day::date::text as day, coalesce(d.sold, 0) as sold, coalesce(d.takings, 0) as takings,
            coalesce(d.restocked, 0) as restocked
       from generate_series($1::date, $2::date, interval '1 day') as g(day)
       left join d on d.day = g.day::date
      order by g.day`,
    [first, last, ...c.values],
  );
  return rows;
}

/** A page of the stock figures by goods, by device (with its outlet) or by the outlet the device stands at. */
export async function stockBreakdown(
  db: Queryable,
  scope: Scope,
  first: string,
  last: string,
  by: Dimension,
  page: Page,
): Promise<{ total: number; list: Row[] }> {
  const c = stockIn(scope);
  const figures = `count(distinct c.machine_id) as devices, sum(c.quantity) as sold, sum(c.money) as takings,
                   sum(c.restocked) as restocked`;
  const active = `having sum(c.quantity) <> 0 or sum(c.money) <> 0 or sum(c.restocked) <> 0`;
  const rows = {
    goods: `select c.goods_id as id, min(g.${title("goods")}) as name, ${figures}
              from c left join ${q("goods")} g on g.id = c.goods_id group by c.goods_id ${active}`,
    machine: `select c.machine_id as id, min(m.${title("machine")}) as name, min(s.${title("shop")}) as outlet, ${figures}
                from c left join ${q("machine")} m on m.id = c.machine_id left join ${q("shop")} s on s.id = m.shop_id
               group by c.machine_id ${active}`,
    shop: `select m.shop_id as id, min(s.${title("shop")}) as name, ${figures}
             from c left join ${q("machine")} m on m.id = c.machine_id left join ${q("shop")} s on s.id = m.shop_id
            group by m.shop_id ${active}`,
  }[by];
  return pageOf(db, c.cte, rows, [first, last, ...c.values], page);
}

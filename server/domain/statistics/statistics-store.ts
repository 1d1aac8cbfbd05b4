// The home statistics' statements (issue 28, step 4: a handler reads validate → store → answer), their SQL
// as the handlers had it. Figures of orders, turnover, refunds and revenue come from the daily roll-ups
// (stat_order_day, stat_revenue_day, stat_order_mix: server/db/rollups.ts), kept exact by triggers, so
// no statement reads the orders themselves; a roll-up is read for `path`, the caller's subtree as a LIKE
// pattern on agent_path (null for the platform admin: everything). What is read from an entity's own
// table (devices, work orders, withdrawals, scans) takes the caller's scope as the engine does instead.
import type { StatisticsLineMachineAnswer } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { readRelation } from "../../db/live.ts";
import { businessDay } from "../../db/rollups.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** The caller's scope on an entity's rows, as " and ..." conditions with placeholders after the first `offset`. */
const scoped = (scope: Scope, entity: string, offset: number) => scopeClause(modelOf(entity), scope, offset);

/** Today's business day, in SQL. */
const TODAY = businessDay("now()");

/** The devices with their live state (server/db/live.ts): one definition for the list, the map and the to-do. */
const LIVE_MACHINES = readRelation(modelOf("machine"));
/** Out of stock: a device with an empty lane (its live stock state), online or not; the to-do's link filters the same. */
const OUT_OF_STOCK = `stock_status = 'out_of_stock'`;

/** The home's periods (today, yesterday, this week, this month) as rows of their first and last business days. */
const periods = `(values ('today', ${TODAY}, ${TODAY}), ('yesterday', ${TODAY} - 1, ${TODAY} - 1),
                              ('week', date_trunc('week', ${TODAY})::date, ${TODAY}),
                              ('month', date_trunc('month', ${TODAY})::date, ${TODAY})) as p(name, first, last)`;

/** Orders, turnover and refunds of each period (by name), from the daily order roll-up. */
export async function periodOrders(db: Queryable, path: string | null): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select p.name, coalesce(sum(s.orders), 0) as orders, coalesce(sum(s.turnover), 0) as turnover,
                coalesce(sum(s.refunds), 0) as refunds
           from ${periods}
           left join stat_order_day s on s.day between p.first and p.last and ($1::text is null or s.agent_path like $1)
          group by p.name`,
    [path],
  );
  return rows;
}

/** Revenue of each period (by name), from the daily revenue roll-up. */
export async function periodRevenue(db: Queryable, path: string | null): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select p.name, coalesce(sum(s.revenue), 0) as revenue
           from ${periods}
           left join stat_revenue_day s on s.day between p.first and p.last and ($1::text is null or s.agent_path like $1)
          group by p.name`,
    [path],
  );
  return rows;
}

/**
 * The totals of all time: orders and turnover, revenue, devices, the team (the agents in scope but the
 * caller's own) and members (distinct scanners), with today's business day.
 */
export async function totals(
  db: Queryable,
  path: string | null,
  agentId: number,
  scope: Scope,
): Promise<Record<string, unknown>> {
  const agents = scoped(scope, "agent", 2);
  const devices = scoped(scope, "machine", 2 + agents.values.length);
  const scans = scoped(scope, "scan_record", 2 + agents.values.length + devices.values.length);
  const { rows } = await db.query<Record<string, unknown>>(
    `select (select coalesce(sum(orders), 0) from stat_order_day where $1::text is null or agent_path like $1) as orders,
                (select coalesce(sum(turnover), 0) from stat_order_day where $1::text is null or agent_path like $1) as turnover,
                (select coalesce(sum(total_revenue), 0) from ${q("agent")} where deleted_at is null${agents.sql}) as revenue,
                (select count(*) from ${q("machine")} where deleted_at is null${devices.sql}) as devices,
                (select count(*) from ${q("agent")} where deleted_at is null and id <> $2${agents.sql}) as team,
                (select count(distinct openid) from ${q("scan_record")} where true${scans.sql}) as members,
                ${TODAY}::text as day`,
    [path, agentId, ...agents.values, ...devices.values, ...scans.values],
  );
  return rows[0];
}

/** Orders, turnover, refunds and revenue of each of the last `days` business days, oldest first (a day with none: zeros). */
export async function tradeByDay(db: Queryable, path: string | null, days: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `with d as (select generate_series(${TODAY} - ($2::int - 1), ${TODAY}, interval '1 day')::date as day),
              o as (select day, sum(orders) as orders, sum(turnover) as turnover, sum(refunds) as refunds
                      from stat_order_day where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1)
                     group by day),
              r as (select day, sum(revenue) as revenue from stat_revenue_day
                     where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1) group by day)
         select d.day::text as day, coalesce(o.orders, 0) as orders, coalesce(o.turnover, 0) as turnover,
                coalesce(o.refunds, 0) as refunds, coalesce(r.revenue, 0) as revenue
           from d left join o on o.day = d.day left join r on r.day = d.day order by d.day`,
    [path, days],
  );
  return rows;
}

/** Orders and turnover of the last `days` business days by kind, pay type and status: one pass over the mix roll-up. */
export async function orderMix(db: Queryable, path: string | null, days: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select dimension, key, sum(orders) as orders, sum(turnover) as turnover
           from stat_order_mix where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1)
          group by dimension, key having sum(orders) <> 0 order by dimension, 3 desc, key`,
    [path, days],
  );
  return rows;
}

/**
 * The devices in scope that stand at an outlet with a place, as one row of columns (arrays, in id order):
 * the map draws 100,000 points from arrays without objects. Arrays of int8 and numeric come as text (only
 * the scalar types have parsers, server/db/db.ts).
 */
export async function machinesOnMap(
  db: Queryable,
  scope: Scope,
): Promise<
  Pick<StatisticsLineMachineAnswer, "mac_name" | "kind" | "status"> &
    Record<"id" | "longitude" | "latitude", (string | number)[]>
> {
  const devices = scoped(scope, "machine", 0);
  const { rows } = await db.query<
    Pick<StatisticsLineMachineAnswer, "mac_name" | "kind" | "status"> &
      Record<"id" | "longitude" | "latitude", (string | number)[]>
  >(
    `select coalesce(array_agg(m.id order by m.id), '{}') as id,
                coalesce(array_agg(m.mac_name order by m.id), '{}') as mac_name,
                coalesce(array_agg(m.kind order by m.id), '{}') as kind,
                coalesce(array_agg(m.status order by m.id), '{}') as status,
                coalesce(array_agg(s.longitude order by m.id), '{}') as longitude,
                coalesce(array_agg(s.latitude order by m.id), '{}') as latitude
           from (select * from ${q(LIVE_MACHINES)} where deleted_at is null${devices.sql}) m
           join ${q("shop")} s on s.id = m.shop_id
          where s.longitude is not null and s.latitude is not null`,
    devices.values,
  );
  return rows[0];
}

/** The rows `where` matches among those in scope of the entity, read from `from` (its table or live relation). */
async function countIn(db: Queryable, inScope: Scope, entity: string, from: string, where: string): Promise<number> {
  const scope = scoped(inScope, entity, 0);
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from ${from} where ${where}${scope.sql}`,
    scope.values,
  );
  return rows[0].n;
}

/**
 * Orders waiting on a refund request: the order mix's status counts (kept exact by the order trigger as
 * orders change state), so no statement counts a million orders.
 */
export async function refundRequests(db: Queryable, path: string | null): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select coalesce(sum(orders), 0)::int as n from stat_order_mix
            where dimension = 'status' and key = 'refund_requested' and ($1::text is null or agent_path like $1)`,
    [path],
  );
  return rows[0].n;
}

/** The work orders in scope not dealt with yet. */
export const pendingWorkOrders = (db: Queryable, scope: Scope): Promise<number> =>
  countIn(db, scope, "service_order", q("service_order"), `status = 'pending'`);

/** The devices in scope out of stock, by their live state. */
export const outOfStockDevices = (db: Queryable, scope: Scope): Promise<number> =>
  countIn(db, scope, "machine", q(LIVE_MACHINES), `deleted_at is null and ${OUT_OF_STOCK}`);

/** The withdrawal requests in scope not reviewed yet. */
export const pendingWithdrawals = (db: Queryable, scope: Scope): Promise<number> =>
  countIn(db, scope, "withdrawal", q("withdrawal"), `status = 'pending'`);

/** The agent's direct sub-agents, each with its whole subtree's devices and this month's turnover and revenue. */
export async function team(db: Queryable, agentId: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select a.id, a.nickname, coalesce(a.withdrawable, 0) as withdrawable, coalesce(a.frozen, 0) as pending,
                (select count(*) from ${q("machine")} m where m.deleted_at is null and m.agent_path like a.agent_path || '%') as devices,
                (select coalesce(sum(s.turnover), 0) from stat_order_day s
                  where s.agent_path like a.agent_path || '%' and s.day >= date_trunc('month', ${TODAY})::date) as turnover,
                (select coalesce(sum(r.revenue), 0) from stat_revenue_day r
                  where r.agent_path like a.agent_path || '%' and r.day >= date_trunc('month', ${TODAY})::date) as revenue
           from ${q("agent")} a
          where a.deleted_at is null and a.pid = $1
          order by 6 desc, a.id`,
    [agentId],
  );
  return rows;
}

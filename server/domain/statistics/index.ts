// The home statistics (SPEC §1 and §7): figures of the caller's business, that is its own and its
// subordinates' (the admin's: everything). Each figure has one definition shared with the lists and
// the ledger:
//   orders     orders placed on the business day (the order list filtered to that day counts the same)
//   turnover   what paid orders (refunded or not) were paid, by the day they were placed
//   refunds    what was refunded of those orders
//   revenue    the ledger's revenue entries on the day (income less refunds and reversals, deliveries)
// Days and periods are business days (server/db/rollups.ts). Counts and sums come from the daily
// roll-ups, kept exact by triggers, so no call reads the orders themselves.
import { q } from "../../core/sql.ts";
import { readRelation } from "../../db/live.ts";
import { modelOf } from "../../model/model.ts";
import { businessDay } from "../../db/rollups.ts";
import { can, scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { scopeClause } from "../../entities/repository.ts";
import { defineArea } from "../area.ts";
import { operationSchemas } from "../../../src/generated/operations.ts";
import type {
  PeriodFigures,
  StatisticsLineMachineAnswer,
  StatisticsTotalAnswer,
} from "../../../src/generated/types.ts";

/** A call's `days` when the caller gives none: its schema's default, the one source. */
const defaultDays = (call: "statistics-trade" | "statistics-order"): number =>
  Number((operationSchemas[call].properties!.days as { default: number }).default);

/**
 * The caller's subtree as a LIKE pattern on agent_path, for the roll-ups (per agent and day); null for the
 * platform admin (everything). What is read from an entity's own table (devices, work orders, withdrawals,
 * scans) takes the caller's scope as the engine does instead (`scoped`): an operator's is its bound
 * devices, not its agent's subtree.
 */
const subtree = (ctx: Ctx): string | null => (ctx.principal.isAdmin ? null : `${ctx.principal.agentPath}%`);

/** The caller's scope on an entity's rows, as " and ..." conditions with placeholders after the first `offset`. */
const scoped = (ctx: Ctx, entity: string, offset: number) =>
  scopeClause(modelOf(entity), scopeOf(ctx.principal), offset);

/** Today's business day, in SQL. */
const TODAY = businessDay("now()");

const num = (value: unknown) => Number(value ?? 0);

/** The devices with their live state (server/db/live.ts): one definition for the list, the map and the to-do. */
const LIVE_MACHINES = readRelation(modelOf("machine"));
/** Out of stock: a device with an empty lane (its live stock state), online or not; the to-do's link filters the same. */
const OUT_OF_STOCK = `stock_status = 'out_of_stock'`;

export const statistics = defineArea({
  name: "statistics",
  handlers: {
    async "statistics-total"({ ctx }) {
      const db = sqlOf(ctx);
      const path = subtree(ctx);
      const periods = `(values ('today', ${TODAY}, ${TODAY}), ('yesterday', ${TODAY} - 1, ${TODAY} - 1),
                              ('week', date_trunc('week', ${TODAY})::date, ${TODAY}),
                              ('month', date_trunc('month', ${TODAY})::date, ${TODAY})) as p(name, first, last)`;
      const { rows: orderRows } = await db.query<Record<string, unknown>>(
        `select p.name, coalesce(sum(s.orders), 0) as orders, coalesce(sum(s.turnover), 0) as turnover,
                coalesce(sum(s.refunds), 0) as refunds
           from ${periods}
           left join stat_order_day s on s.day between p.first and p.last and ($1::text is null or s.agent_path like $1)
          group by p.name`,
        [path],
      );
      const { rows: revenueRows } = await db.query<Record<string, unknown>>(
        `select p.name, coalesce(sum(s.revenue), 0) as revenue
           from ${periods}
           left join stat_revenue_day s on s.day between p.first and p.last and ($1::text is null or s.agent_path like $1)
          group by p.name`,
        [path],
      );
      const figuresOf = (name: keyof StatisticsTotalAnswer["periods"]): PeriodFigures => {
        const row = orderRows.find((r) => r.name === name);
        return {
          orders: num(row?.orders),
          turnover: num(row?.turnover),
          refunds: num(row?.refunds),
          revenue: num(revenueRows.find((r) => r.name === name)?.revenue),
        };
      };
      const agents = scoped(ctx, "agent", 2);
      const devices = scoped(ctx, "machine", 2 + agents.values.length);
      const scans = scoped(ctx, "scan_record", 2 + agents.values.length + devices.values.length);
      const { rows: totals } = await db.query<Record<string, unknown>>(
        `select (select coalesce(sum(orders), 0) from stat_order_day where $1::text is null or agent_path like $1) as orders,
                (select coalesce(sum(turnover), 0) from stat_order_day where $1::text is null or agent_path like $1) as turnover,
                (select coalesce(sum(total_revenue), 0) from ${q("agent")} where deleted_at is null${agents.sql}) as revenue,
                (select count(*) from ${q("machine")} where deleted_at is null${devices.sql}) as devices,
                (select count(*) from ${q("agent")} where deleted_at is null and id <> $2${agents.sql}) as team,
                (select count(distinct openid) from ${q("scan_record")} where true${scans.sql}) as members,
                ${TODAY}::text as day`,
        [path, ctx.principal.agentId, ...agents.values, ...devices.values, ...scans.values],
      );
      const t = totals[0];
      return {
        periods: {
          today: figuresOf("today"),
          yesterday: figuresOf("yesterday"),
          week: figuresOf("week"),
          month: figuresOf("month"),
        },
        totals: { orders: num(t.orders), turnover: num(t.turnover), revenue: num(t.revenue) },
        devices: num(t.devices),
        team: num(t.team),
        members: num(t.members),
        day: String(t.day),
      };
    },

    async "statistics-trade"({ ctx, input }) {
      const days = input.days ?? defaultDays("statistics-trade");
      const { rows } = await sqlOf(ctx).query<Record<string, unknown>>(
        `with d as (select generate_series(${TODAY} - ($2::int - 1), ${TODAY}, interval '1 day')::date as day),
              o as (select day, sum(orders) as orders, sum(turnover) as turnover, sum(refunds) as refunds
                      from stat_order_day where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1)
                     group by day),
              r as (select day, sum(revenue) as revenue from stat_revenue_day
                     where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1) group by day)
         select d.day::text as day, coalesce(o.orders, 0) as orders, coalesce(o.turnover, 0) as turnover,
                coalesce(o.refunds, 0) as refunds, coalesce(r.revenue, 0) as revenue
           from d left join o on o.day = d.day left join r on r.day = d.day order by d.day`,
        [subtree(ctx), days],
      );
      return rows.map((r) => ({
        day: String(r.day),
        orders: num(r.orders),
        turnover: num(r.turnover),
        refunds: num(r.refunds),
        revenue: num(r.revenue),
      }));
    },

    async "statistics-order"({ ctx, input }) {
      const days = input.days ?? defaultDays("statistics-order");
      // One pass over the mix roll-up, the three splits at once.
      const { rows } = await sqlOf(ctx).query<Record<string, unknown>>(
        `select dimension, key, sum(orders) as orders, sum(turnover) as turnover
           from stat_order_mix where day > ${TODAY} - $2::int and ($1::text is null or agent_path like $1)
          group by dimension, key having sum(orders) <> 0 order by dimension, 3 desc, key`,
        [subtree(ctx), days],
      );
      const by = (dimension: string) =>
        rows
          .filter((r) => r.dimension === dimension)
          .map((r) => ({
            key: dimension === "pay_type" ? Number(r.key) : String(r.key),
            orders: num(r.orders),
            turnover: num(r.turnover),
          }));
      return { kinds: by("kind"), pay_types: by("pay_type"), statuses: by("status") };
    },

    async "statistics-line-machine"({ ctx }) {
      // One row per device, as columns: the map draws 100,000 points from arrays without objects.
      // Arrays of int8 and numeric come as text (only the scalar types have parsers, server/db/db.ts).
      // The devices the caller may see (an operator: its bound ones), as the device list has them.
      const devices = scoped(ctx, "machine", 0);
      const { rows } = await sqlOf(ctx).query<
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
      const r = rows[0];
      return {
        id: r.id.map(Number),
        mac_name: r.mac_name,
        kind: r.kind,
        status: r.status,
        longitude: r.longitude.map(Number),
        latitude: r.latitude.map(Number),
      };
    },

    async "statistics-dealt"({ ctx }) {
      /** -1 without the permission; else the rows `where` matches among those the caller may see of the entity. */
      const count = async (permission: string, entity: string, from: string, where: string) => {
        if (!can(ctx.principal, permission)) return -1;
        const scope = scoped(ctx, entity, 0);
        const { rows } = await sqlOf(ctx).query<{ n: number }>(
          `select count(*)::int as n from ${from} where ${where}${scope.sql}`,
          scope.values,
        );
        return rows[0].n;
      };
      // Orders waiting on a refund request: the order mix's status counts (kept exact by the order
      // trigger as orders change state), so no call counts a million orders. Per agent: an order's
      // permission is never an operator's.
      const refundRequests = async () => {
        if (!can(ctx.principal, "order.list")) return -1;
        const { rows } = await sqlOf(ctx).query<{ n: number }>(
          `select coalesce(sum(orders), 0)::int as n from stat_order_mix
            where dimension = 'status' and key = 'refund_requested' and ($1::text is null or agent_path like $1)`,
          [subtree(ctx)],
        );
        return rows[0].n;
      };
      return {
        refund_requests: await refundRequests(),
        work_orders: await count("service_order.list", "service_order", q("service_order"), `status = 'pending'`),
        out_of_stock: await count(
          "machine.list",
          "machine",
          q(LIVE_MACHINES),
          `deleted_at is null and ${OUT_OF_STOCK}`,
        ),
        withdrawals: await count("withdrawal.list", "withdrawal", q("withdrawal"), `status = 'pending'`),
      };
    },

    async "statistics-manage"({ ctx }) {
      // The team: direct sub-agents, each with its whole subtree's figures.
      const { rows } = await sqlOf(ctx).query<Record<string, unknown>>(
        `select a.id, a.nickname, coalesce(a.withdrawable, 0) as withdrawable,
                (select count(*) from ${q("machine")} m where m.deleted_at is null and m.agent_path like a.agent_path || '%') as devices,
                (select coalesce(sum(s.turnover), 0) from stat_order_day s
                  where s.agent_path like a.agent_path || '%' and s.day >= date_trunc('month', ${TODAY})::date) as turnover,
                (select coalesce(sum(r.revenue), 0) from stat_revenue_day r
                  where r.agent_path like a.agent_path || '%' and r.day >= date_trunc('month', ${TODAY})::date) as revenue
           from ${q("agent")} a
          where a.deleted_at is null and a.pid = $1
          order by 5 desc, a.id`,
        [ctx.principal.agentId],
      );
      return rows.map((r) => ({
        id: num(r.id),
        nickname: String(r.nickname),
        devices: num(r.devices),
        turnover: num(r.turnover),
        revenue: num(r.revenue),
        withdrawable: num(r.withdrawable),
      }));
    },
  },
});

// The home statistics (SPEC §1 and §7): figures of the caller's business, that is its own and its
// subordinates' (the admin's: everything). Each figure has one definition shared with the lists and
// the ledger:
//   orders     orders placed on the business day (the order list filtered to that day counts the same)
//   turnover   what paid orders (refunded or not) were paid, by the day they were placed
//   refunds    what was refunded of those orders
//   revenue    the ledger's revenue entries on the day (income less refunds and reversals, deliveries)
// Days and periods are business days (server/db/rollups.ts). Counts and sums come from the daily
// roll-ups, kept exact by triggers, so no call reads the orders themselves.
// The two statistics views (statistics-devices, statistics-stock) take a period of business days (a preset
// or a custom range) and answer its totals, each day's figures and a page of a breakdown by device, goods
// or outlet (period-store.ts).
import { can, scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { badRequest, forbidden, type FieldError } from "../../core/errors.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { defineArea } from "../area.ts";
import { operationSchemas } from "../../../src/generated/operations.ts";
import type {
  PeriodFigures,
  StatisticsDevicesInput,
  StatisticsStockInput,
  StatisticsTotalAnswer,
} from "../../../src/generated/types.ts";
import * as store from "./statistics-store.ts";
import * as periods from "./period-store.ts";

/** A call's `days` when the caller gives none: its schema's default, the one source. */
const defaultDays = (call: "statistics-trade" | "statistics-order"): number =>
  Number((operationSchemas[call].properties!.days as { default: number }).default);

/**
 * The caller's subtree as a LIKE pattern on agent_path, for the roll-ups (per agent and day); null for the
 * platform admin (everything). What is read from an entity's own table (devices, work orders, withdrawals,
 * scans) takes the caller's scope as the engine does instead (`scopeOf`): an operator's is its bound
 * devices, not its agent's subtree. The roll-ups are per agent, never per outlet: an outlet manager, who may
 * list its outlets' orders, is refused the figures read from them (its takings are statistics-devices').
 */
const subtree = (ctx: Ctx): string | null => {
  if (ctx.principal.kind === "manager") throw forbidden();
  return ctx.principal.isAdmin ? null : `${ctx.principal.agentPath}%`;
};

const num = (value: unknown) => Number(value ?? 0);

/** The longest custom period, in days: a year's trend (the answers' trend holds at most 366 days). */
const MOST_DAYS = 366;

type PeriodInput = StatisticsDevicesInput | StatisticsStockInput;

/**
 * The input's period as its first and last business days: a preset worked out on the business calendar,
 * or the custom range the caller gave, which must have both ends, in order, at most a year apart.
 */
async function periodOf(ctx: Ctx, input: PeriodInput) {
  const period = input.period ?? "last_7_days";
  if (period === "custom") {
    const errors: FieldError[] = [];
    if (!input.from) errors.push(fieldMessage("from", "periodFromMissing", ctx.lng));
    if (!input.to) errors.push(fieldMessage("to", "periodToMissing", ctx.lng));
    if (input.from && input.to) {
      const days = (Date.parse(input.to) - Date.parse(input.from)) / 86_400_000 + 1;
      if (days < 1) errors.push(fieldMessage("to", "periodBackwards", ctx.lng));
      else if (days > MOST_DAYS) errors.push(fieldMessage("to", "periodTooLong", ctx.lng, { days: MOST_DAYS }));
    }
    if (errors.length) throw badRequest(errors);
  }
  return periods.resolvePeriod(sqlOf(ctx), period, input.from, input.to);
}

/** The breakdown's page, its sort a figure the dimension's rows have (else the view's first). */
function pageOf(input: PeriodInput, figures: string[]): periods.Page {
  return {
    sort: input.sort && figures.includes(input.sort) ? input.sort : figures[0],
    order: input.order ?? "desc",
    page: input.page ?? 1,
    limit: input.limit ?? 10,
  };
}

/** The figures of a breakdown row the answer declares, as numbers; id, name and outlet as they are. */
const rowOf = (row: Record<string, unknown>, figures: string[]) => ({
  id: row.id === null || row.id === undefined ? null : Number(row.id),
  name: row.name === null || row.name === undefined ? null : String(row.name),
  ...("outlet" in row ? { outlet: row.outlet === null ? null : String(row.outlet) } : {}),
  ...Object.fromEntries(figures.map((f) => [f, num(row[f])])),
});

export const statistics = defineArea({
  name: "statistics",
  handlers: {
    async "statistics-total"({ ctx }) {
      const db = sqlOf(ctx);
      const path = subtree(ctx);
      const orderRows = await store.periodOrders(db, path);
      const revenueRows = await store.periodRevenue(db, path);
      const figuresOf = (name: keyof StatisticsTotalAnswer["periods"]): PeriodFigures => {
        const row = orderRows.find((r) => r.name === name);
        return {
          orders: num(row?.orders),
          turnover: num(row?.turnover),
          refunds: num(row?.refunds),
          revenue: num(revenueRows.find((r) => r.name === name)?.revenue),
        };
      };
      const t = await store.totals(db, path, ctx.principal.agentId, scopeOf(ctx.principal));
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
      const rows = await store.tradeByDay(sqlOf(ctx), subtree(ctx), days);
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
      const rows = await store.orderMix(sqlOf(ctx), subtree(ctx), days);
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
      // The devices the caller may see (an operator: its bound ones), as the device list has them.
      const r = await store.machinesOnMap(sqlOf(ctx), scopeOf(ctx.principal));
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
      const db = sqlOf(ctx);
      const scope = scopeOf(ctx.principal);
      /** -1 without the permission; else what `count` answers. */
      const ifAllowed = async (permission: string, count: () => Promise<number>) =>
        can(ctx.principal, permission) ? count() : -1;
      return {
        // Per agent: an order's permission is never an operator's; an outlet manager's is not for refunds.
        refund_requests:
          ctx.principal.kind === "manager"
            ? -1
            : await ifAllowed("order.list", () => store.refundRequests(db, subtree(ctx))),
        work_orders: await ifAllowed("service_order.list", () => store.pendingWorkOrders(db, scope)),
        out_of_stock: await ifAllowed("machine.list", () => store.outOfStockDevices(db, scope)),
        withdrawals: await ifAllowed("withdrawal.list", () => store.pendingWithdrawals(db, scope)),
      };
    },

    async "statistics-devices"({ ctx, input }) {
      const db = sqlOf(ctx);
      const scope = scopeOf(ctx.principal);
      const { first, last, today } = await periodOf(ctx, input);
      const by = input.by ?? "machine";
      // By goods the figures are the stock consumption's (items, not orders); by device or outlet the orders'.
      const figures = by === "goods" ? ["takings", "sold", "devices"] : ["takings", "orders", "devices"];
      const totals = await periods.deviceTotals(db, scope, first, last);
      const trend = await periods.deviceTrend(db, scope, first, last);
      const breakdown = await periods.deviceBreakdown(db, scope, first, last, by, pageOf(input, figures));
      return {
        from: first,
        to: last,
        today,
        totals: {
          takings: num(totals.takings),
          orders: num(totals.orders),
          devices: num(totals.devices),
          active_devices: num(totals.active_devices),
        },
        trend: trend.map((d) => ({ day: String(d.day), takings: num(d.takings), orders: num(d.orders) })),
        breakdown: {
          total: breakdown.total,
          list: breakdown.list.map((r) => rowOf(r, figures) as never),
        },
      };
    },

    async "statistics-stock"({ ctx, input }) {
      const db = sqlOf(ctx);
      const scope = scopeOf(ctx.principal);
      const { first, last, today } = await periodOf(ctx, input);
      const figures = ["sold", "takings", "restocked", "devices"];
      const totals = await periods.stockTotals(db, scope, first, last);
      const trend = await periods.stockTrend(db, scope, first, last);
      const breakdown = await periods.stockBreakdown(
        db,
        scope,
        first,
        last,
        input.by ?? "goods",
        pageOf(input, figures),
      );
      return {
        from: first,
        to: last,
        today,
        totals: {
          sold: num(totals.sold),
          takings: num(totals.takings),
          restocked: num(totals.restocked),
          goods: num(totals.goods),
          devices: num(totals.devices),
        },
        trend: trend.map((d) => ({
          day: String(d.day),
          sold: num(d.sold),
          takings: num(d.takings),
          restocked: num(d.restocked),
        })),
        breakdown: {
          total: breakdown.total,
          list: breakdown.list.map((r) => rowOf(r, figures) as never),
        },
      };
    },

    async "statistics-manage"({ ctx }) {
      // The team: direct sub-agents, each with its whole subtree's figures.
      const rows = await store.team(sqlOf(ctx), ctx.principal.agentId);
      return rows.map((r) => ({
        id: num(r.id),
        nickname: String(r.nickname),
        devices: num(r.devices),
        turnover: num(r.turnover),
        revenue: num(r.revenue),
        withdrawable: num(r.withdrawable),
        pending: num(r.pending),
      }));
    },
  },
});

// The home statistics (SPEC §1 and §7): figures of the caller's business, that is its own and its
// subordinates' (the admin's: everything). Each figure has one definition shared with the lists and
// the ledger:
//   orders     orders placed on the business day (the order list filtered to that day counts the same)
//   turnover   what paid orders (refunded or not) were paid, by the day they were placed
//   refunds    what was refunded of those orders
//   revenue    the ledger's revenue entries on the day (income less refunds and reversals, deliveries)
// Days and periods are business days (server/db/rollups.ts). Counts and sums come from the daily
// roll-ups, kept exact by triggers, so no call reads the orders themselves.
import { can, scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import { defineArea } from "../area.ts";
import { operationSchemas } from "../../../src/generated/operations.ts";
import type { PeriodFigures, StatisticsTotalAnswer } from "../../../src/generated/types.ts";
import * as store from "./statistics-store.ts";

/** A call's `days` when the caller gives none: its schema's default, the one source. */
const defaultDays = (call: "statistics-trade" | "statistics-order"): number =>
  Number((operationSchemas[call].properties!.days as { default: number }).default);

/**
 * The caller's subtree as a LIKE pattern on agent_path, for the roll-ups (per agent and day); null for the
 * platform admin (everything). What is read from an entity's own table (devices, work orders, withdrawals,
 * scans) takes the caller's scope as the engine does instead (`scopeOf`): an operator's is its bound
 * devices, not its agent's subtree.
 */
const subtree = (ctx: Ctx): string | null => (ctx.principal.isAdmin ? null : `${ctx.principal.agentPath}%`);

const num = (value: unknown) => Number(value ?? 0);

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
        // Per agent: an order's permission is never an operator's.
        refund_requests: await ifAllowed("order.list", () => store.refundRequests(db, subtree(ctx))),
        work_orders: await ifAllowed("service_order.list", () => store.pendingWorkOrders(db, scope)),
        out_of_stock: await ifAllowed("machine.list", () => store.outOfStockDevices(db, scope)),
        withdrawals: await ifAllowed("withdrawal.list", () => store.pendingWithdrawals(db, scope)),
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
      }));
    },
  },
});

// Money that moves (DESIGN §10): refunds, refused refund requests, withdrawal requests and reviews,
// delivery reviews, profit settings and the profit lists. Every movement goes through the ledger
// (ledger.ts) in the transaction of its cause; every rule on an amount is part of the SQL statement
// that changes it, so concurrent clicks cannot pass it twice.
import { q } from "../../core/sql.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { listRecords, runTransition } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { toApi } from "../../entities/answer.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import type { Row } from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, conflict, notFound } from "../../core/errors.ts";
import { defineArea } from "../area.ts";
import { reviewDeliveries } from "./deliveries.ts";
import { recordRefunds } from "./orders.ts";
import { pagesFor, saveSettings, settingsOf } from "./profit.ts";
import { confirmEffect, notOwnEffect, refuseEffect, requesterOf, requestWithdrawal } from "./withdrawals.ts";
import { moneyText } from "../../core/money.ts";
import { REFUNDABLE_STATES } from "../../../src/schema/groups.ts";

/** Orders show what can still be refunded: paid less refunded, for paid orders; nothing otherwise. */
function refundable(row: Row): number {
  return REFUNDABLE_STATES.includes(String(row.pay_status)) ? Number(row.money) - Number(row.refund_money ?? 0) : 0;
}

export const money = defineArea({
  name: "money",
  hooks: {
    order: {
      async derive(_ctx, rows) {
        for (const row of rows) row.refundable_money = refundable(row);
      },
    },
    withdrawal: {
      // The agent's balance beside its request, for the reviewer: one query for the page.
      async derive(ctx, rows) {
        const ids = [...new Set(rows.map((r) => Number(r.agent_id)))];
        const { rows: agents } = await sqlOf(ctx).query<{ id: number; withdrawable: number | null }>(
          `select id, withdrawable from ${q("agent")} where id = any($1)`,
          [ids],
        );
        const balance = new Map(agents.map((a) => [Number(a.id), Number(a.withdrawable ?? 0)]));
        for (const row of rows) row.agent_withdrawable = balance.get(Number(row.agent_id)) ?? 0;
      },
    },
  },
  effects: {
    "withdrawal.approve": notOwnEffect,
    "withdrawal.refuse": refuseEffect,
    "withdrawal.confirm": confirmEffect,
  },
  handlers: {
    async "order-refund"({ ctx, input }) {
      const tx = ctx.tx;
      const model = modelOf("order");
      const scope = repo.scopeClause(model, scopeOf(ctx.principal), 2);
      // The refunded total grows by the amount, never past what was paid: checked and written at once.
      const { rows } = await tx.query<Row & { before: number }>(
        `update ${q("order")} o
            set refund_money = coalesce(o.refund_money, 0) + $2,
                pay_status = case when coalesce(o.refund_money, 0) + $2 = o.money then 'refund_success' else 'partial_refund' end,
                refund_request_time = coalesce(o.refund_request_time, now()),
                refund_time = now(), version = o.version + 1, updated_at = now()
          where o.id = $1 and o.pay_status = any($${scope.values.length + 3})
            and coalesce(o.refund_money, 0) + $2 <= o.money${scope.sql}
          returning o.*, coalesce(o.refund_money, 0) - $2 as before`,
        [input.id, input.refund_money, ...scope.values, REFUNDABLE_STATES],
      );
      const order = rows[0];
      if (!order) {
        const found = await repo.findById(tx, model, scopeOf(ctx.principal), input.id);
        if (!found) throw notFound();
        if (!REFUNDABLE_STATES.includes(String(found.pay_status))) throw conflict("stateConflict");
        throw badRequest([
          fieldMessage("refund_money", "refundAboveRefundable", ctx.lng, {
            refundable: moneyText(refundable(found)),
          }),
        ]);
      }
      await recordRefunds(tx, [
        { orderId: Number(order.id), before: Number(order.before), after: Number(order.refund_money) },
      ]);
      await audit(tx, ctx, "order", input.id, "refund", {
        refund_money: [Number(order.before), Number(order.refund_money)],
        pay_status: [null, order.pay_status],
      });
      const { before: _before, ...stored } = order;
      stored.refundable_money = refundable(stored);
      return toApi(model, stored);
    },

    async "order-check"({ ctx, input }) {
      const tx = ctx.tx;
      const model = modelOf("order");
      const scope = repo.scopeClause(model, scopeOf(ctx.principal), 1);
      // Back to the state before the request: partially refunded when part of it was, else paid.
      const { rows } = await tx.query<Row>(
        `update ${q("order")} set pay_status = case when coalesce(refund_money, 0) > 0 then 'partial_refund' else 'paid' end,
                version = version + 1, updated_at = now()
          where id = $1 and pay_status = 'refund_requested'${scope.sql} returning *`,
        [input.id, ...scope.values],
      );
      if (!rows[0]) {
        if (!(await repo.findById(tx, model, scopeOf(ctx.principal), input.id))) throw notFound();
        throw conflict("stateConflict");
      }
      await audit(tx, ctx, "order", input.id, "check", { pay_status: ["refund_requested", rows[0].pay_status] });
      rows[0].refundable_money = refundable(rows[0]);
      return toApi(model, rows[0]);
    },

    async "data-withdraw-apply"({ ctx, input }) {
      const tx = ctx.tx;
      const withdrawal = await requestWithdrawal(tx, requesterOf(ctx), input);
      await audit(tx, ctx, "withdrawal", Number(withdrawal.id), "create", { amount: input.amount });
      return toApi(modelOf("withdrawal"), withdrawal);
    },

    async "recycle-withdraw-list"({ ctx, list }) {
      const recycling = { ...list, where: [...list.where, { field: "source", op: "eq" as const, value: "recycling" }] };
      return listRecords(ctx, modelOf("withdrawal"), recycling, false);
    },

    async "recycle-withdraw-action"({ ctx, input }) {
      const model = modelOf("withdrawal");
      const found = await repo.findById(ctx.tx, model, scopeOf(ctx.principal), input.id);
      if (!found || found.source !== "recycling") throw notFound();
      return runTransition(ctx, model, "data-withdraw-action", input);
    },

    async "order-recycle-review"({ ctx, input }) {
      const ids = Array.isArray(input.id) ? input.id : [input.id];
      const count = await reviewDeliveries(ctx as never, { ...input, ids });
      for (const id of ids) await audit(ctx.tx, ctx, "delivery_order", id, "review", { outcome: input.outcome });
      return { count };
    },

    async "data-promote-profit-list"({ ctx, list }) {
      const invites = { ...list, where: [...list.where, { field: "type", op: "eq" as const, value: "invite" }] };
      return listRecords(ctx, modelOf("profit_record"), invites, false);
    },

    "manage-profit-user": ({ ctx, input }) => settingsOf(ctx, input.id),
    "manage-profit-page": ({ ctx, input }) => pagesFor(ctx, input.id),
    "manage-profit-save": ({ ctx, input }) => saveSettings(ctx as never, input.id, input.settings),
  },
});

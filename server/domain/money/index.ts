// Money that moves (DESIGN §10): refunds, refused refund requests, withdrawal requests and reviews,
// delivery reviews, profit settings and the profit lists. Every movement goes through the ledger
// (ledger.ts) in the transaction of its cause; every rule on an amount is part of the SQL statement
// that changes it, so concurrent clicks cannot pass it twice.
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
import * as orders from "./order-store.ts";
import { balancesOf } from "./money-store.ts";
import { pagesFor, saveSettings, settingsOf } from "./profit.ts";
import { confirmEffect, notOwnEffect, refuseEffect, requesterOf, requestWithdrawal } from "./withdrawals.ts";
import { amountText } from "../../core/money.ts";
import { currencyOf } from "../../db/settings.ts";
import { REFUNDABLE_STATES } from "../../../src/schema/groups.ts";

/** An order as answered, with what can still be refunded of it. */
const answerOrder = (order: orders.StoredOrder) =>
  toApi(modelOf("order"), { ...order, refundable_money: orders.refundableOf(order) } as Row);

export const money = defineArea({
  name: "money",
  hooks: {
    order: {
      async derive(_ctx, rows) {
        for (const row of rows) row.refundable_money = orders.refundableOf(row);
      },
    },
    withdrawal: {
      // The agent's balance beside its request, for the reviewer: one query for the page.
      async derive(ctx, rows) {
        const ids = [...new Set(rows.map((r) => Number(r.agent_id)))];
        const balance = await balancesOf(sqlOf(ctx), ids);
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
      const scope = scopeOf(ctx.principal);
      const order = await orders.refund(ctx.tx, scope, input.id, input.refund_money);
      if (!order) {
        const found = await orders.whyUnchanged(ctx.tx, scope, input.id);
        if (!found) throw notFound();
        if (!REFUNDABLE_STATES.includes(String(found.pay_status))) throw conflict("stateConflict");
        throw badRequest([
          fieldMessage("refund_money", "refundAboveRefundable", ctx.lng, {
            refundable: amountText(orders.refundableOf(found), ctx.lng, await currencyOf(ctx.tx)),
          }),
        ]);
      }
      const { before, before_status, ...stored } = order;
      await recordRefunds(ctx.tx, [{ orderId: stored.id, before: Number(before), after: Number(stored.refund_money) }]);
      await audit(ctx.tx, ctx, "order", input.id, "refund", {
        refund_money: [Number(before), Number(stored.refund_money)],
        pay_status: [before_status, stored.pay_status],
      });
      return answerOrder(stored);
    },

    async "order-check"({ ctx, input }) {
      const scope = scopeOf(ctx.principal);
      const order = await orders.refuseRefundRequest(ctx.tx, scope, input.id);
      if (!order) {
        if (!(await orders.whyUnchanged(ctx.tx, scope, input.id))) throw notFound();
        throw conflict("stateConflict");
      }
      await audit(ctx.tx, ctx, "order", input.id, "check", { pay_status: ["refund_requested", order.pay_status] });
      return answerOrder(order);
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
      const count = await reviewDeliveries(ctx, { ...input, ids });
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

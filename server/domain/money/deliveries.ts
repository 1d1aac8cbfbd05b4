// Delivery orders of recycling devices: the estimated income of a delivery waits on the agent's pending
// figure until a reviewer either credits the actual income (at most the estimate; the rest of the estimate
// lapses) or deducts it in full. Review takes one delivery or a batch, all or nothing, and never one of the
// reviewer's own agent (the platform admin reviews any), as for withdrawals.
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type TxCtx } from "../../entities/context.ts";
import { HttpError, badRequest, conflict, forbidden, notFound } from "../../core/errors.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { post, type Movement } from "./ledger.ts";
import { unreviewableAgent } from "./withdrawals.ts";
import { amountText } from "../../core/money.ts";
import { currencyOf } from "../../db/settings.ts";
import * as store from "./money-store.ts";

/** A delivery the device just made: its estimated income becomes pending for its agent. */
export async function recordDeliveries(tx: Queryable, ids: number[]): Promise<void> {
  const rows = await store.unrecordedDeliveries(tx, ids);
  await post(
    tx,
    rows.map((d) => ({
      agentId: Number(d.agent_id),
      kind: "delivery_pending",
      amount: Number(d.estimated_income),
      frozen: Number(d.estimated_income),
      deliveryOrderId: Number(d.id),
      at: new Date(d.delivery_time).toISOString(),
    })),
  );
}

export interface Review {
  ids: number[];
  outcome: "income" | "deduction";
  actual_income?: number;
  remark?: string;
  at?: string;
}

/**
 * Reviews deliveries in the caller's scope: every one of them pending and not the reviewer's own agent's,
 * or none is touched.
 */
export async function reviewDeliveries(ctx: TxCtx, review: Review): Promise<number> {
  const { tx } = ctx;
  const ids = [...new Set(review.ids)];
  const income = review.outcome === "income" ? (review.actual_income ?? 0) : null;
  const at = review.at ?? new Date().toISOString();
  const own = unreviewableAgent(ctx);
  const scope = scopeOf(ctx.principal);
  // One statement: only pending deliveries of another agent change, and an income never above its estimate.
  const rows = await store.review(tx, scope, { ids, income, remark: review.remark ?? null, at, own });
  if (rows.length !== ids.length) {
    // Say why: not there, the reviewer's own, not pending, or an income too high.
    const found = await store.deliveriesInScope(tx, scope, ids);
    if (found.length !== ids.length) throw notFound();
    if (found.some((d) => Number(d.agent_id) === own)) throw forbidden();
    if (found.some((d) => d.status !== "pending")) throw conflict("stateConflict");
    const over = found.find((d) => income !== null && income > Number(d.estimated_income));
    if (over)
      throw badRequest([
        fieldMessage("actual_income", "incomeAboveEstimate", ctx.lng, {
          estimate: amountText(Number(over.estimated_income), ctx.lng, await currencyOf(tx)),
        }),
      ]);
    throw new HttpError(409, "stateConflict");
  }
  const movements: Movement[] = rows.map((d) => {
    const estimate = Number(d.estimated_income);
    return income === null
      ? {
          agentId: Number(d.agent_id),
          kind: "delivery_deduction",
          amount: estimate,
          frozen: -estimate,
          deliveryOrderId: Number(d.id),
          at,
        }
      : {
          agentId: Number(d.agent_id),
          kind: "delivery_income",
          amount: income,
          frozen: -estimate,
          balance: income,
          revenue: income,
          deliveryOrderId: Number(d.id),
          at,
        };
  });
  await post(tx, movements);
  return rows.length;
}

// Delivery orders of recycling devices: the estimated income of a delivery waits on the agent's pending
// figure until a reviewer either credits the actual income (at most the estimate; the rest of the estimate
// lapses) or deducts it in full. Review takes one delivery or a batch, all or nothing, and never one of the
// reviewer's own agent (the platform admin reviews any), as for withdrawals.
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { scopeOf, type TxCtx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import { scopeClause } from "../../entities/repository.ts";
import { HttpError, badRequest, conflict, forbidden, notFound } from "../../core/errors.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { post, type Movement } from "./ledger.ts";
import { unreviewableAgent } from "./withdrawals.ts";
import { amountText } from "../../core/money.ts";
import { currencyOf } from "../../db/settings.ts";

/** A delivery the device just made: its estimated income becomes pending for its agent. */
export async function recordDeliveries(tx: Queryable, ids: number[]): Promise<void> {
  const { rows } = await tx.query<{ id: number; agent_id: number; estimated_income: number; delivery_time: string }>(
    `select d.id, d.agent_id, d.estimated_income, d.delivery_time from ${q("delivery_order")} d
      where d.id = any($1)
        and not exists (select 1 from ${q("payment_record")} r where r.delivery_order_id = d.id and r.kind = 'delivery_pending')`,
    [ids],
  );
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
  const model = modelOf("delivery_order");
  const income = review.outcome === "income" ? (review.actual_income ?? 0) : null;
  const at = review.at ?? new Date().toISOString();
  const own = unreviewableAgent(ctx);
  const scoped = (offset: number) => scopeClause(model, scopeOf(ctx.principal), offset);
  // One statement: only pending deliveries of another agent change, and an income never above its estimate.
  const { rows } = await tx.query<{ id: number; agent_id: number; estimated_income: number }>(
    `update ${q("delivery_order")}
        set status = 'processed', review_time = $4,
            actual_income = coalesce($2, 0), deduction = case when $2::bigint is null then estimated_income else 0 end,
            remark = $3, version = version + 1, updated_at = now()
      where id = any($1) and status = 'pending' and ($2::bigint is null or $2 <= estimated_income)
        and ($5::bigint is null or agent_id <> $5)${scoped(5).sql}
      returning id, agent_id, estimated_income`,
    [ids, income, review.remark ?? null, at, own, ...scoped(5).values],
  );
  if (rows.length !== ids.length) {
    // Say why: not there, the reviewer's own, not pending, or an income too high.
    const { rows: found } = await tx.query<{ id: number; agent_id: number; status: string; estimated_income: number }>(
      `select id, agent_id, status, estimated_income from ${q("delivery_order")} where id = any($1)${scoped(1).sql}`,
      [ids, ...scoped(1).values],
    );
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

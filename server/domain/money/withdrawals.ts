// Withdrawals: the request moves the amount from the agent's balance to its pending figure at once
// (profit shares past their profit days are released to the balance first, in the same transaction);
// refusing returns it; confirming the payout pays out the amount less the fee (both recorded). Each is
// the side effect of its state change, in its transaction, so it happens exactly once.
import type { Queryable } from "../../db/db.ts";
import type { Ctx } from "../../entities/context.ts";
import type { TransitionEffect } from "../../entities/domain.ts";
import type { Row } from "../../entities/repository.ts";
import { forbidden } from "../../core/errors.ts";
import { post } from "./ledger.ts";
import { releaseDue } from "./orders.ts";
import * as store from "./money-store.ts";

export interface WithdrawalRequest {
  amount: number;
  legal_name: string;
  payout_method: string;
  account_number: string;
  bank_name?: string;
  province?: string;
  city?: string;
  branch?: string;
  source?: string;
  remark?: string;
}

/** The fee of a withdrawal: the system settings' withdraw fee (a fraction), rounded to the minor unit. */
async function feeOf(tx: Queryable, amount: number): Promise<number> {
  return Math.round(amount * Number((await store.withdrawFee(tx)) ?? 0));
}

/** A new withdrawal of the agent's, pending review; its amount leaves the balance for the pending figure. */
export async function requestWithdrawal(
  tx: Queryable,
  agent: { id: number; path: string },
  request: WithdrawalRequest,
  at = new Date(),
): Promise<Row> {
  // Shares whose profit days have just passed count towards the balance this request draws on.
  await releaseDue(tx, { agentIds: [agent.id], now: at });
  const fee = await feeOf(tx, request.amount);
  const withdrawal = await store.insertWithdrawal(tx, {
    agentId: agent.id,
    agentPath: agent.path,
    legal_name: request.legal_name,
    amount: request.amount,
    fee,
    at: at.toISOString(),
    payout_method: request.payout_method,
    bank_name: request.bank_name ?? null,
    province: request.province ?? null,
    city: request.city ?? null,
    account_number: request.account_number,
    branch: request.branch ?? null,
    remark: request.remark ?? null,
    source: request.source ?? "earnings",
  });
  await post(tx, [
    {
      agentId: agent.id,
      kind: "withdrawal_request",
      amount: request.amount,
      balance: -request.amount,
      frozen: request.amount,
      withdrawalId: Number(withdrawal.id),
      at: at.toISOString(),
    },
  ]);
  return { ...withdrawal };
}

/**
 * The agent whose money the caller may not review (its own withdrawals and deliveries, an operator's its
 * agent's), whatever its role allows; none for the platform admin, who reviews everything (there is
 * nobody above it).
 */
export const unreviewableAgent = (ctx: Ctx): number | null => (ctx.principal.isAdmin ? null : ctx.principal.agentId);

/** An agent never reviews its own withdrawal (403, as for a missing permission). */
export const notOwnEffect: TransitionEffect = async (ctx, { after }) => {
  if (Number(after.agent_id) === unreviewableAgent(ctx)) throw forbidden();
};

/** refuse: the pending amount goes back to the balance. */
export const refuseEffect: TransitionEffect = async (ctx, change) => {
  await notOwnEffect(ctx, change);
  const { after } = change;
  await post(ctx.tx, [
    {
      agentId: Number(after.agent_id),
      kind: "withdrawal_refused",
      amount: Number(after.amount),
      balance: Number(after.amount),
      frozen: -Number(after.amount),
      withdrawalId: Number(after.id),
      remark: String(after.refuse_reason ?? ""),
    },
  ]);
};

/** confirm: the payout (amount less fee) and the fee leave the pending figure; the payout time is set. */
export const confirmEffect: TransitionEffect = async (ctx, change) => {
  await notOwnEffect(ctx, change);
  const { after } = change;
  const fee = Number(after.fee ?? 0);
  const paid = Number(after.amount) - fee;
  await post(ctx.tx, [
    {
      agentId: Number(after.agent_id),
      kind: "withdrawal_payout",
      amount: paid,
      frozen: -paid,
      withdrawalId: Number(after.id),
    },
    {
      agentId: Number(after.agent_id),
      kind: "withdrawal_fee",
      amount: fee,
      frozen: -fee,
      withdrawalId: Number(after.id),
    },
  ]);
  const paidOut = await store.markPaid(ctx.tx, after.id, paid);
  return paidOut && { ...paidOut };
};

/** The agent a withdrawal request is made for: the caller's own account (an operator has none). */
export const requesterOf = (ctx: Ctx) => ({ id: ctx.principal.agentId, path: ctx.principal.agentPath });

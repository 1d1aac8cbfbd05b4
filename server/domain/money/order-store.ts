// The order statements of the money calls (issue 28, step 4: a handler reads validate → store → answer).
// Each rule on an amount or a state is part of the statement that changes the order, so two clicks at
// once cannot both pass it; when the statement changes nothing, `whyUnchanged` says which rule held.
import type { EntityRecord } from "../../../src/generated/types.ts";
import { REFUNDABLE_STATES } from "../../../src/schema/groups.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import type { Scope } from "../../entities/repository.ts";
import * as repo from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** An order as stored (money in minor units). */
export type StoredOrder = EntityRecord<"order"> & { agent_id: number; agent_path: string };

const order = () => modelOf("order");

/** What can still be refunded of an order: paid less refunded, for a refundable state; nothing otherwise. */
export const refundableOf = (row: { pay_status?: unknown; money?: unknown; refund_money?: unknown }): number =>
  REFUNDABLE_STATES.includes(String(row.pay_status)) ? Number(row.money) - Number(row.refund_money ?? 0) : 0;

/**
 * Refunds `amount` more of a refundable order in scope: the refunded total grows, never past what was paid
 * (refund_success once it reaches it, partial_refund before). Answers the order and its refunded total
 * and its state before, or nothing when a rule held.
 */
export async function refund(
  tx: Queryable,
  scope: Scope,
  id: number,
  amount: number,
): Promise<(StoredOrder & { before: number; before_status: string }) | undefined> {
  const where = repo.scopeClause(order(), scope, 2);
  // The state before, for the history: read under the row's lock, so it is the one this refund changed.
  const { rows } = await tx.query<StoredOrder & { before: number; before_status: string }>(
    `with was as (select pay_status from ${q("order")} where id = $1 for no key update)
     update ${q("order")} o
        set refund_money = coalesce(o.refund_money, 0) + $2,
            pay_status = case when coalesce(o.refund_money, 0) + $2 = o.money then 'refund_success' else 'partial_refund' end,
            refund_request_time = coalesce(o.refund_request_time, now()),
            refund_time = now(), version = o.version + 1, updated_at = now()
       from was
      where o.id = $1 and o.pay_status = any($${where.values.length + 3})
        and coalesce(o.refund_money, 0) + $2 <= o.money${where.sql}
      returning o.*, coalesce(o.refund_money, 0) - $2 as before, was.pay_status as before_status`,
    [id, amount, ...where.values, REFUNDABLE_STATES],
  );
  return rows[0];
}

/**
 * Refuses an order's refund request: back to the state before it (partial_refund when part of it was
 * refunded, else paid). Answers the order, or nothing when it is not in scope or not requested.
 */
export async function refuseRefundRequest(tx: Queryable, scope: Scope, id: number): Promise<StoredOrder | undefined> {
  const where = repo.scopeClause(order(), scope, 1);
  const { rows } = await tx.query<StoredOrder>(
    `update ${q("order")} set pay_status = case when coalesce(refund_money, 0) > 0 then 'partial_refund' else 'paid' end,
            version = version + 1, updated_at = now()
      where id = $1 and pay_status = 'refund_requested'${where.sql} returning *`,
    [id, ...where.values],
  );
  return rows[0];
}

/** Why a statement above changed nothing: the order is not in scope, or is as the caller found it. */
export async function whyUnchanged(tx: Queryable, scope: Scope, id: number): Promise<StoredOrder | undefined> {
  return (await repo.findById(tx, order(), scope, id)) as StoredOrder | undefined;
}

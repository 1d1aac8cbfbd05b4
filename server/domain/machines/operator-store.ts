// The statements of operator bindings (operator_binding; issue 28, step 4: a handler reads validate → store
// → answer): the device a bind locks, the operator it binds, the shares already given, and the removal.
// Each runs in the caller's transaction; the device's lock (lockDevice) holds until it ends, so binds to
// one device are taken one at a time.
import type { EntityRecord, OperatorEarningsAnswer } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A binding as stored, with its owner. */
export type StoredBinding = EntityRecord<"operator_binding"> & { agent_id: number; agent_path: string };

/** Which bindings to remove: by id, or the one of an operator and a device. */
export type BindingTarget = { ids: number[] } | { operator_id: unknown; machine_id: unknown };

/** The live device's place in the tree, its row locked for no key update until the transaction ends. */
export async function lockDevice(tx: Queryable, machineId: unknown): Promise<{ agent_path: string } | undefined> {
  const { rows } = await tx.query<{ agent_path: string }>(
    `select agent_path from ${q("machine")} where id = $1 and deleted_at is null for no key update`,
    [machineId],
  );
  return rows[0];
}

/** The live operator's agent and its place in the tree. */
export async function operatorOf(
  tx: Queryable,
  operatorId: unknown,
): Promise<{ agent_id: number; agent_path: string } | undefined> {
  const { rows } = await tx.query<{ agent_id: number; agent_path: string }>(
    `select agent_id, agent_path from ${q("operator")} where id = $1 and deleted_at is null`,
    [operatorId],
  );
  return rows[0];
}

/** Is the operator bound to the device already? */
export async function isBound(tx: Queryable, operatorId: unknown, machineId: unknown): Promise<boolean> {
  const { rows } = await tx.query(`select 1 from ${q("operator_binding")} where operator_id = $1 and machine_id = $2`, [
    operatorId,
    machineId,
  ]);
  return rows.length > 0;
}

/** The shares of the device's percent bindings and a new one, over 100 %? (Sums in numeric: 0.1 + 0.2 is 0.3.) */
export async function percentLeft(
  tx: Queryable,
  machineId: number,
  adding: number,
): Promise<{ over: boolean; left: number }> {
  const { rows } = await tx.query<{ over: boolean; left: string | number }>(
    `select coalesce(sum(profit_percent::numeric), 0) + $2::numeric > 1 as over,
            greatest(1 - coalesce(sum(profit_percent::numeric), 0), 0) as left
       from ${q("operator_binding")} where machine_id = $1 and profit_type = 'percent'`,
    [machineId, adding],
  );
  return { over: rows[0].over, left: Number(rows[0].left) };
}

/** Removes the target's bindings in the caller's scope; answers those removed. */
export async function unbind(tx: Queryable, scope: Scope, target: BindingTarget): Promise<StoredBinding[]> {
  const [where, params] =
    "ids" in target
      ? [`id = any($1::bigint[])`, [target.ids]]
      : [`operator_id = $1 and machine_id = $2`, [target.operator_id, target.machine_id]];
  const scoped = scopeClause(modelOf("operator_binding"), scope, params.length);
  const { rows } = await tx.query<StoredBinding>(
    `delete from ${q("operator_binding")} where ${where}${scoped.sql} returning *`,
    [...params, ...scoped.values],
  );
  return rows;
}

/** An operator's earnings and latest ledger entries (its shares and their reversals, newest first), when it is in the scope (the caller's: an operator's is itself), else nothing. */
export async function earningsOf(
  db: Queryable,
  scope: Scope,
  operatorId: number,
  limit: number,
): Promise<OperatorEarningsAnswer | undefined> {
  const where = scopeClause(modelOf("operator"), scope, 1);
  const { rows } = await db.query<{ id: number; nickname: string; earnings: number | null }>(
    `select id, nickname, earnings from ${q("operator")} where id = $1 and deleted_at is null${where.sql}`,
    [operatorId, ...where.values],
  );
  if (!rows[0]) return undefined;
  const { rows: entries } = await db.query<OperatorEarningsAnswer["entries"][number]>(
    `select r.id, r.kind, r.amount, r.order_no, o.mac_name, r.paid_at
       from ${q("payment_record")} r left join ${q("order")} o on o.id = r.order_id
      where r.operator_id = $1 and r.kind in ('operator_share', 'operator_share_reversal')
      order by r.paid_at desc, r.id desc limit $2`,
    [operatorId, limit],
  );
  return {
    operator_id: Number(rows[0].id),
    nickname: rows[0].nickname,
    earnings: Number(rows[0].earnings ?? 0),
    entries: entries.map((e) => ({
      ...e,
      id: Number(e.id),
      amount: Number(e.amount),
      paid_at: new Date(e.paid_at).toISOString(),
    })),
  };
}

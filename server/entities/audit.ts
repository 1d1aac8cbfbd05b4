// The audit trail: every write records who did it, when and what changed (sys_audit), and a record's
// history reads it back for whoever may see the record.
import type { Queryable } from "../db/db.ts";
import { q } from "../core/sql.ts";
import { notFound } from "../core/errors.ts";
import type { RecordHistoryAnswer } from "../../src/generated/types.ts";
import { scopeOf, sqlOf, type Ctx } from "./context.ts";
import type { EntityModel } from "../model/model.ts";
import * as repo from "./repository.ts";

export async function audit(
  tx: Queryable,
  ctx: Ctx,
  entity: string,
  recordId: number | null,
  action: string,
  changes: unknown,
): Promise<void> {
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes) values ($1, $2, $3, $4, $5, $6)`,
    [
      ctx.principal.kind,
      ctx.principal.id,
      entity,
      recordId,
      action,
      changes === undefined ? null : JSON.stringify(changes),
    ],
  );
}

/** The same action on many records, audited in one statement. */
export async function auditMany(tx: Queryable, ctx: Ctx, entity: string, ids: number[], action: string): Promise<void> {
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes)
     select $1, $2, $3, unnest($4::bigint[]), $5, null`,
    [ctx.principal.kind, ctx.principal.id, entity, ids, action],
  );
}

/** Who changed a record, when, and what: newest first. Needs the right to see the record. */
export async function history(ctx: Ctx, model: EntityModel, id: number): Promise<RecordHistoryAnswer> {
  const record =
    (await repo.findById(sqlOf(ctx), model, scopeOf(ctx.principal), id)) ??
    (model.recycle ? await repo.findById(sqlOf(ctx), model, scopeOf(ctx.principal), id, true) : undefined);
  if (!record) throw notFound();
  const { rows } = await sqlOf(ctx).query<RecordHistoryAnswer[number]>(
    `select a.id, a.at, a.action, a.changes, a.actor_kind, a.actor_id,
            coalesce(m.nickname, o.nickname) as actor_name
       from sys_audit a
       left join ${q("agent")} m on a.actor_kind = 'agent' and m.id = a.actor_id
       left join ${q("operator")} o on a.actor_kind = 'operator' and o.id = a.actor_id
      where a.entity = $1 and a.record_id = $2 order by a.id desc limit 200`,
    [model.name, id],
  );
  return rows;
}

// The statements of the device import (issue 28, step 4: a handler reads validate → store → answer): the
// names the template's sample uses, the related records a file names, the live devices it may repeat, and
// the confirm's writes (its lock, the inserts 1,000 a statement and their audit). The writes run in the
// confirm's transaction after importLock, so two confirms of one file never both insert its devices.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A live device a file's row may repeat: its codes and the values an import sets. */
export interface LiveDevice {
  id: number;
  mac_name: string;
  mac_id: string;
  kind: string;
  model_id: number;
  spec_id: number;
  protocol_id: number;
  shop_id: number | null;
  agent_path: string;
}

/** The first name of an entity's rows ("" when none): of the live ones in the scope when a scope is given. */
export async function firstName(sql: Queryable, entity: string, scope?: Scope): Promise<string> {
  const table = modelOf(entity).table;
  const where = scope ? scopeClause(modelOf(entity), scope, 0) : undefined;
  const extra = where ? ` and deleted_at is null${where.sql}` : "";
  const values = where ? where.values : [];
  return (
    (await sql.query<{ name: string }>(`select name from ${q(table)} where true${extra} order by id limit 1`, values))
      .rows[0]?.name ?? ""
  );
}

/** The rows of an entity in the scope whose keys (lower-cased) are among names: their id and keys, by id. */
export async function byNames(
  sql: Queryable,
  scope: Scope,
  entity: string,
  keys: string[],
  names: Set<string>,
): Promise<Record<string, unknown>[]> {
  const model = modelOf(entity);
  const where = scopeClause(model, scope, 1);
  const live = model.recycle ? " and deleted_at is null" : "";
  const { rows } = await sql.query<Record<string, unknown>>(
    `select id, ${keys.map((k) => `lower(${q(k)}) as ${q(k)}`).join(", ")} from ${q(model.table)}
      where (${keys.map((k) => `lower(${q(k)}) = any($1)`).join(" or ")})${live}${where.sql} order by id`,
    [[...names], ...where.values],
  );
  return rows;
}

/** The live devices, everyone's, with one of the device codes or hardware codes. */
export async function liveDevices(sql: Queryable, macNames: string[], macIds: string[]): Promise<LiveDevice[]> {
  const { rows } = await sql.query<LiveDevice>(
    `select id, mac_name, mac_id, kind, model_id, spec_id, protocol_id, shop_id, agent_path from ${q(modelOf("machine").table)}
      where deleted_at is null and (mac_name = any($1) or mac_id = any($2))`,
    [macNames, macIds],
  );
  return rows;
}

/** One import at a time: the confirm's lock, held until its transaction ends. */
export async function importLock(tx: Queryable): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('machine-import'))`);
}

/** Inserts devices in one statement, each with every one of the columns (null when it has none); answers their ids. */
export async function insertDevices(
  tx: Queryable,
  columns: string[],
  records: Record<string, unknown>[],
): Promise<number[]> {
  const values: unknown[] = [];
  const tuples = records.map(
    (row) =>
      `(${columns.map((c) => {
        values.push(row[c] ?? null);
        return `$${values.length}`;
      })})`,
  );
  const { rows } = await tx.query<{ id: number }>(
    `insert into ${q(modelOf("machine").table)} (${columns.map(q).join(", ")}) values ${tuples.join(", ")} returning id`,
    values,
  );
  return rows.map((r) => Number(r.id));
}

/** Audits the creation of imported devices, each with its changes, in one statement. */
export async function auditCreated(
  tx: Queryable,
  actor: { kind: string; id: number },
  created: { id: number; changes: Record<string, unknown> }[],
): Promise<void> {
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes)
       select $1, $2, 'machine', r.id, 'create', r.changes
         from jsonb_to_recordset($3::jsonb) as r(id bigint, changes jsonb)`,
    [actor.kind, actor.id, JSON.stringify(created)],
  );
}

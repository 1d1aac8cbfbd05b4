// The statements of a spreadsheet import (the generic engine's): the related records a file names, the
// confirm's lock, and its writes (inserts 1,000 rows a statement and their audit). The writes run in the
// confirm's transaction after importLock, so two confirms of one file never both insert its records.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Row, type Scope } from "../repository.ts";
import { modelOf } from "../../model/model.ts";

/**
 * The rows of an entity in the scope whose keys (lower-cased) are among names: their id, keys and (for a
 * scoped entity) owner, by id.
 */
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
    `select id, ${model.scoped ? "agent_id, " : ""}${keys.map((k) => `lower(${q(k)}) as ${q(k)}`).join(", ")} from ${q(model.table)}
      where (${keys.map((k) => `lower(${q(k)}) = any($1)`).join(" or ")})${live}${where.sql} order by id`,
    [[...names], ...where.values],
  );
  return rows;
}

/** One import of an entity at a time: the confirm's lock, held until its transaction ends. */
export async function importLock(tx: Queryable, entity: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`${entity}-import`]);
}

/**
 * Inserts rows of an entity in one statement, each with every one of the columns (null when it has none);
 * answers their ids (whole rows when `whole`), in the order given.
 */
export async function insertRows(
  tx: Queryable,
  entity: string,
  columns: string[],
  records: Record<string, unknown>[],
  whole = false,
): Promise<Row[]> {
  const values: unknown[] = [];
  const tuples = records.map(
    (row) =>
      `(${columns.map((c) => {
        const value = row[c] ?? null;
        // Lists and objects go to jsonb columns as JSON text.
        values.push(value !== null && typeof value === "object" ? JSON.stringify(value) : value);
        return `$${values.length}`;
      })})`,
  );
  const { rows } = await tx.query<Row>(
    `insert into ${q(modelOf(entity).table)} (${columns.map(q).join(", ")}) values ${tuples.join(", ")} returning ${whole ? "*" : "id"}`,
    values,
  );
  return rows;
}

/** Audits the creation of imported records, each with its changes, in one statement. */
export async function auditCreated(
  tx: Queryable,
  actor: { kind: string; id: number },
  entity: string,
  created: { id: number; changes: Record<string, unknown> }[],
): Promise<void> {
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes)
       select $1, $2, $3, r.id, 'create', r.changes
         from jsonb_to_recordset($4::jsonb) as r(id bigint, changes jsonb)`,
    [actor.kind, actor.id, entity, JSON.stringify(created)],
  );
}

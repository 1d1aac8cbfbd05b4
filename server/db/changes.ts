// Every write to an entity's table is told, once its transaction commits, to whoever listens on the
// database (server/entities/live-hub.ts), whichever process or hand made it: a call of this server, another
// instance on the same PostgreSQL, a device report, a roll-up's trigger, a restore. A trigger per statement
// (not per row) sends one notification on its schema's channel (changeChannel) naming the table, the kind of write, and either the
// rows (id, version and the owner's agent path, old and new when an update moved it) or, past
// CHANGE_ROWS_NAMED rows, their count and the owners' paths alone; more owners than CHANGE_PATHS_NAMED are
// not named (the change then reaches the platform admin only). PostgreSQL merges the same notification sent
// twice in a transaction and delivers them in the order their transactions committed.
import { storedModels, type EntityModel } from "../model/model.ts";
import { q } from "../core/sql.ts";

/**
 * The channel of a schema's changes: several test runs share one PostgreSQL database, each in a schema of
 * its own, and a notification reaches every connection of the database that listens on its channel.
 */
export const changeChannel = (schema: string) => `sys_change_${schema}`;
/** Rows a notification names one by one; a larger statement names its owners only. */
export const CHANGE_ROWS_NAMED = 50;
/** Owners a notification of a large statement names (each path ~10 bytes, under NOTIFY's 8,000). */
export const CHANGE_PATHS_NAMED = 300;

/** What a change notification carries (keys kept short: a notification holds at most 8,000 bytes). */
export interface ChangeNotice {
  /** The table. */
  t: string;
  /** I(nsert), U(pdate) or D(elete). */
  op: "I" | "U" | "D";
  /** The rows: id, version, agent path (null when the table has none), the path before when an update moved it. */
  r?: [number, number, string | null, string | null][];
  /** A large statement: how many rows, and their owners' paths (null: more than CHANGE_PATHS_NAMED). */
  n?: number;
  p?: (string | null)[] | null;
}

type Notifier = "sys_change_plain" | "sys_change_scoped" | "sys_change_moved";

/**
 * The notifying function of a table without owners, of one with owners (agent_path), and of an update of
 * one with owners (which names the path before, from the old rows: a table named in a PL/pgSQL statement
 * must exist when it first runs, and an insert's or a delete's trigger has only one).
 */
function notifier(name: Notifier): string {
  const scoped = name !== "sys_change_plain";
  const moved = name === "sys_change_moved";
  const path = (alias: string) => (scoped ? `${alias}.agent_path` : "null::text");
  const before = moved
    ? `(select nullif(b.agent_path, c.agent_path) from before_rows b where b.id = c.id)`
    : "null::text";
  return `create or replace function ${name}() returns trigger language plpgsql as $$
declare
  n bigint;
  paths json;
  payload text;
begin
  select count(*) into n from changed_rows;
  if n = 0 then return null; end if;
  if n <= ${CHANGE_ROWS_NAMED} then
    select json_build_object('t', TG_TABLE_NAME, 'op', left(TG_OP, 1),
             'r', json_agg(json_build_array(c.id, c.version, ${path("c")}, ${before}) order by c.id))::text
      into payload from changed_rows c;
  else
    select case when count(*) <= ${CHANGE_PATHS_NAMED} then json_agg(p) end into paths
      from (select distinct ${path("c")} as p from changed_rows c
            ${moved ? "union select b.agent_path from before_rows b" : ""}) d;
    payload := json_build_object('t', TG_TABLE_NAME, 'op', left(TG_OP, 1), 'n', n, 'p', paths)::text;
  end if;
  perform pg_notify('sys_change_' || TG_TABLE_SCHEMA, payload);
  return null;
end $$`;
}

/** A table's three triggers. */
function triggers(model: EntityModel): string[] {
  const table = q(model.table);
  const of = (op: "insert" | "update" | "delete") => {
    const name = `${model.table}_change_${op}`.slice(0, 63);
    const referencing =
      op === "update"
        ? "old table as before_rows new table as changed_rows"
        : op === "insert"
          ? "new table as changed_rows"
          : "old table as changed_rows";
    return [
      `drop trigger if exists ${q(name)} on ${table}`,
      `create trigger ${q(name)} after ${op} on ${table} referencing ${referencing}
         for each statement execute function ${!model.scoped ? "sys_change_plain" : op === "update" ? "sys_change_moved" : "sys_change_scoped"}()`,
    ];
  };
  return [...of("insert"), ...of("update"), ...of("delete")];
}

/** The routine (server/db/migrate.ts makes it again when its text changes): the functions and every table's triggers. */
export function changeRoutine(): { name: string; statements: string[] } {
  return {
    name: "sys_change",
    statements: [
      notifier("sys_change_plain"),
      notifier("sys_change_scoped"),
      notifier("sys_change_moved"),
      ...storedModels().flatMap(triggers),
    ],
  };
}

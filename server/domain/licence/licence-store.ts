// The licence's statements (issue 28, step 4: a handler reads validate → store → answer): the entries of
// sys_state the serial service keeps (the secret key, the serial number, the installation's id, stored as
// JSON) and when the installation was made (its first migration).
import type { Queryable } from "../../db/db.ts";

/** The stored values of these sys_state keys (the ones present). */
export async function stateValues(
  db: Queryable,
  keys: [string, string, string],
): Promise<{ key: string; value: unknown }[]> {
  const { rows } = await db.query<{ key: string; value: unknown }>(
    `select key, value from sys_state where key in ($1, $2, $3)`,
    keys,
  );
  return rows;
}

/** When the first migration ran, or nothing when none is recorded. */
export async function firstMigrationAt(db: Queryable): Promise<Date | null | undefined> {
  const first = await db.query<{ at: Date | null }>(`select min(at) as at from sys_migration`);
  return first.rows[0]?.at;
}

/** Stores a sys_state entry unless the key has one already (the first insert wins). */
export async function putStateOnce(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(`insert into sys_state (key, value) values ($1, $2) on conflict (key) do nothing`, [
    key,
    JSON.stringify(value),
  ]);
}

/** The stored value of a sys_state key, or nothing when it has none. */
export async function stateValue(db: Queryable, key: string): Promise<unknown> {
  const { rows } = await db.query<{ value: unknown }>(`select value from sys_state where key = $1`, [key]);
  return rows[0]?.value;
}

/** Stores a sys_state entry, replacing the one the key had. */
export async function putState(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    `insert into sys_state (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [key, JSON.stringify(value)],
  );
}

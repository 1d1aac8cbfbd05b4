// The session area's statements (issue 28, step 4: a handler reads validate → store → answer): an account's
// password hash and its change, the login page's settings, the installed and newest versions, and the roles
// the role pickers read. Signing in, tokens and sign-in counters have their own statements in auth.ts.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";

/** A role as the role pickers read it. */
export interface PickerRole {
  id: number;
  name: string;
  level: number;
  permissions: string[] | null;
}

/** The password hash of an account of `table` (agent or operator), or nothing when there is none. */
export async function passwordOf(db: Queryable, table: string, id: number): Promise<string | undefined> {
  const { rows } = await db.query<{ password: string }>(`select password from ${q(table)} where id = $1`, [id]);
  return rows[0]?.password;
}

/** Sets an account's password hash, a new version of it. */
export async function setPassword(tx: Queryable, table: string, id: number, hash: string): Promise<void> {
  await tx.query(`update ${q(table)} set password = $1, version = version + 1, updated_at = now() where id = $2`, [
    hash,
    id,
  ]);
}

/** The site settings the login page shows (site name, logo, title, currency), or nothing when unset. */
export async function loginSettings(db: Queryable): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(
    `select site_name, logo, nav_title, currency from ${q("system_setting")} where singleton_key = 'global'`,
  );
  return rows[0];
}

/** The newest version published, or nothing when none is. */
export async function latestVersion(db: Queryable): Promise<string | undefined> {
  return (
    await db.query<{ version_number: string }>(`select version_number from ${q("version")} order by id desc limit 1`)
  ).rows[0]?.version_number;
}

/** The version installed, or nothing when none was recorded. */
export async function installedVersion(db: Queryable): Promise<string | undefined> {
  return (await db.query<{ value: string }>(`select value from sys_state where key = 'installed_version'`)).rows[0]
    ?.value;
}

/** Records `version` as the one installed. */
export async function setInstalledVersion(db: Queryable, version: string): Promise<void> {
  await db.query(
    `insert into sys_state (key, value) values ('installed_version', $1) on conflict (key) do update set value = excluded.value`,
    [JSON.stringify(version)],
  );
}

/** Every role, by level then id. */
export async function roles(db: Queryable): Promise<PickerRole[]> {
  const { rows } = await db.query<PickerRole>(
    `select id, name, level, permissions from ${q("role")} order by level, id`,
  );
  return rows;
}

/** An agent's own role (id and level), or nothing when it holds none. */
export async function ownRole(db: Queryable, agentId: number): Promise<{ level: number; id: number } | undefined> {
  return (
    await db.query<{ level: number; id: number }>(
      `select r.id, r.level from ${q("agent")} a join ${q("role")} r on r.id = a.role_id where a.id = $1`,
      [agentId],
    )
  ).rows[0];
}

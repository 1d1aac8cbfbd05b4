// The accounts' statements (issue 28, step 4: a handler reads validate → store → answer): sign-in accounts
// across agents and operators, roles' permissions, levels and use, an agent's place and path in the tree,
// its superiors' cards, a password reset and the sessions a delete ends. Every one runs in the caller's
// connection or transaction.
import type { EntityRecord, ManageUpAnswer } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** An agent as stored, with its place in the tree. */
export type StoredAgent = EntityRecord<"agent"> & { agent_id: number | null; agent_path: string };

/** A superior's card: who it is, never its money. */
export type SuperiorCard = Omit<ManageUpAnswer[number], "depth">;

/** An agent's place: its role, that role's level and name (null when it holds none). */
export interface Place {
  role_id: number | null;
  level: number | null;
  role: string | null;
  permissions: string[] | null;
}

/** A role next to another in the tree: the role of a holder's superior, or of a holder's subordinate. */
export interface NeighbourRole {
  side: "above" | "below";
  name: string;
  level: number;
  permissions: string[];
}

/** The ids of the records of `entity` (agent or operator) signing in with `account`. */
export async function idsWithAccount(tx: Queryable, entity: string, account: string): Promise<{ id: number }[]> {
  const { rows } = await tx.query<{ id: number }>(`select id from ${q(entity)} where account = $1`, [account]);
  return rows;
}

/** A role's permissions, or nothing when there is no such role. */
export async function rolePermissions(
  tx: Queryable,
  roleId: unknown,
): Promise<{ permissions: string[] | null } | undefined> {
  const { rows } = await tx.query<{ permissions: string[] | null }>(
    `select permissions from ${q("role")} where id = $1`,
    [roleId],
  );
  return rows[0];
}

/** A role's level, or nothing when there is no such role. */
export async function roleLevel(tx: Queryable, roleId: unknown): Promise<number | undefined> {
  const { rows } = await tx.query<{ level: number }>(`select level from ${q("role")} where id = $1`, [roleId]);
  return rows[0]?.level;
}

/** An agent's place: its role, the role's level and name; nothing when there is no such agent. */
export async function placeOf(tx: Queryable, agentId: number): Promise<Place | undefined> {
  const { rows } = await tx.query<Place>(
    `select a.role_id, r.level, r.name as role, r.permissions
       from ${q("agent")} a left join ${q("role")} r on r.id = a.role_id
      where a.id = $1`,
    [agentId],
  );
  const row = rows[0];
  return (
    row && {
      role_id: row.role_id === null ? null : Number(row.role_id),
      level: row.level,
      role: row.role,
      permissions: row.permissions,
    }
  );
}

/** Sets a new agent's path and makes it its own owner; answers the agent as stored (just inserted, it is there). */
export async function setPath(tx: Queryable, id: unknown, path: string): Promise<StoredAgent> {
  const { rows } = await tx.query<StoredAgent>(
    `update ${q("agent")} set agent_path = $1, agent_id = $2 where id = $2 returning *`,
    [path, id],
  );
  return rows[0];
}

/**
 * Ends the sessions of the accounts of `kind` with these ids; for agents, those of the operators they own
 * too (in the caller's transaction).
 */
export async function endSessions(tx: Queryable, kind: "agent" | "operator" | "manager", ids: number[]): Promise<void> {
  await tx.query(
    `update sys_token set revoked_at = now()
      where revoked_at is null and principal_kind = $1 and principal_id = any($2::bigint[])`,
    [kind, ids],
  );
  // An agent's operators and outlet managers go with it.
  if (kind === "agent")
    for (const [principal, table] of [
      ["operator", "operator"],
      ["manager", "shop_manager"],
    ])
      await tx.query(
        `update sys_token set revoked_at = now()
          where revoked_at is null and principal_kind = $2
            and principal_id in (select id from ${q(table)} where agent_id = any($1::bigint[]))`,
        [ids, principal],
      );
}

/** Whether every one of these outlets is a live outlet of this agent itself (not of its sub-agents). */
export async function outletsOwnedBy(tx: Queryable, agentId: number, ids: number[]): Promise<boolean> {
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from ${q("shop")} where id = any($1::bigint[]) and agent_id = $2 and deleted_at is null`,
    [ids, agentId],
  );
  return rows[0].n === new Set(ids).size;
}

/** The cards of these agents (superiors), with their role's name, in no order. */
export async function superiorCards(db: Queryable, ids: number[]): Promise<SuperiorCard[]> {
  const { rows } = await db.query<SuperiorCard>(
    `select a.id, a.nickname, a.account, a.phone, a.pid, r.name as role
       from ${q("agent")} a left join ${q("role")} r on r.id = a.role_id
      where a.id = any($1::bigint[])`,
    [ids],
  );
  return rows;
}

/** Sets a live agent's password hash; answers whether there was such an agent. */
export async function setPassword(tx: Queryable, id: unknown, hash: string): Promise<boolean> {
  const { rows } = await tx.query(
    `update ${q("agent")} set password = $1, updated_at = now() where id = $2 and deleted_at is null returning id`,
    [hash, id],
  );
  return rows.length > 0;
}

/** The agents among these ids in the scope, by id: id, nickname and superior. */
export async function agentsInScope(
  tx: Queryable,
  scope: Scope,
  ids: number[],
): Promise<{ id: number; nickname: string; pid: number | null }[]> {
  const where = scopeClause(modelOf("agent"), scope, 1);
  const { rows } = await tx.query<{ id: number; nickname: string; pid: number | null }>(
    `select id, nickname, pid from ${q("agent")} where id = any($1::bigint[])${where.sql} order by id`,
    [ids, ...where.values],
  );
  return rows;
}

/** The first of these roles held by some agent (as role or parent role, recycle bin included), with how many. */
export async function roleInUse(tx: Queryable, ids: number[]): Promise<{ name: string; n: number } | undefined> {
  const { rows } = await tx.query<{ name: string; n: number }>(
    `select r.name, count(a.id)::int as n
       from ${q("role")} r join ${q("agent")} a on a.role_id = r.id or a.parent_role_id = r.id
      where r.id = any($1::bigint[])
      group by r.id, r.name order by r.id limit 1`,
    [ids],
  );
  return rows[0];
}

/**
 * The roles around a role in the tree (recycle bin included: a recovered agent comes back where it was):
 * "above", the roles of the superiors of the agents holding it; "below", the roles of the agents whose
 * superior holds it. The role itself is left out (agents made before the rule may sit under their peer).
 */
export async function neighbourRoles(tx: Queryable, roleId: unknown): Promise<NeighbourRole[]> {
  const { rows } = await tx.query<NeighbourRole>(
    `select distinct 'above' as side, r.name, r.level, coalesce(r.permissions, '[]'::jsonb) as permissions, r.id
       from ${q("agent")} a join ${q("agent")} s on s.id = a.pid join ${q("role")} r on r.id = s.role_id
      where a.role_id = $1 and r.id <> $1
     union
     select distinct 'below', r.name, r.level, coalesce(r.permissions, '[]'::jsonb), r.id
       from ${q("agent")} s join ${q("agent")} a on a.pid = s.id join ${q("role")} r on r.id = a.role_id
      where s.role_id = $1 and r.id <> $1
     order by 1, 5`,
    [roleId],
  );
  return rows;
}

// Sign-in and sessions: scrypt passwords, random tokens stored only as SHA-256 hashes, valid 3 days,
// revoked on logout and on password change; failed sign-ins throttled per account and per address in
// the database, so every instance sharing it sees the same counts.
import { createHash, randomBytes } from "node:crypto";
import type { Db, Queryable } from "../db/db.ts";
import { q } from "../db/migrate.ts";
import { permissionKeys } from "../../src/generated/schemas.ts";
import type { Principal } from "../entities/context.ts";
import { hashPassword, verifyPassword } from "../entities/engine.ts";
import { HttpError, unauthorized } from "./errors.ts";

export const TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;
export const THROTTLE = { windowMinutes: 15, perAccount: 5, perAddress: 30 };

/** Every permission key: the entities' calls and transitions, and the operations' (generated). */
export const allPermissions = (): string[] => [...permissionKeys];

/** What an operator may do: the devices bound to them, their lanes, restocking if allowed. */
export const OPERATOR_PERMISSIONS = [
  "machine.list",
  "machine.detail",
  "machine.all",
  "machine_channel.list",
  "clean_record.list",
];
export const OPERATOR_RESTOCK_PERMISSIONS = ["machine_channel.update"];

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

interface TokenRow {
  principal_kind: "agent" | "operator";
  principal_id: number;
  expired: boolean;
  revoked: boolean;
}

interface AgentRow {
  id: number;
  nickname: string;
  account: string;
  agent_path: string;
  pid: number | null;
  permissions: string[] | null;
}

interface OperatorRow {
  id: number;
  nickname: string;
  account: string;
  refill: number | null;
  agent_id: number;
  agent_path: string;
}

// Two primary-key lookups: cheaper to plan on every request than one five-table join.
const TOKEN_SQL = `select principal_kind, principal_id, expires_at <= now() as expired, revoked_at is not null as revoked
                     from sys_token where token_hash = $1`;
const AGENT_SQL = `select a.id, a.nickname, a.account, a.agent_path, a.pid, r.permissions
                     from ${q("agent")} a left join ${q("role")} r on r.id = a.role_id
                    where a.id = $1 and a.deleted_at is null`;
const OPERATOR_SQL = `select o.id, o.nickname, o.account, o.refill, o.agent_id, oa.agent_path
                        from ${q("operator")} o join ${q("agent")} oa on oa.id = o.agent_id and oa.deleted_at is null
                       where o.id = $1 and o.deleted_at is null`;

let known: Set<string> | undefined;

async function loadPrincipal(db: Queryable, kind: Principal["kind"], id: number): Promise<Principal | undefined> {
  if (kind === "agent") {
    const row = (await db.query<AgentRow>(AGENT_SQL, [id])).rows[0];
    if (!row) return undefined;
    const isAdmin = row.pid === null;
    known ??= new Set(allPermissions());
    return {
      kind,
      id: row.id,
      agentId: row.id,
      agentPath: row.agent_path,
      isAdmin,
      permissions: isAdmin ? known : new Set((row.permissions ?? []).filter((p) => known!.has(p))),
      name: row.nickname,
      account: row.account,
    };
  }
  const row = (await db.query<OperatorRow>(OPERATOR_SQL, [id])).rows[0];
  if (!row) return undefined;
  return {
    kind,
    id: row.id,
    agentId: row.agent_id,
    agentPath: row.agent_path,
    isAdmin: false,
    permissions: new Set([...OPERATOR_PERMISSIONS, ...(row.refill ? OPERATOR_RESTOCK_PERMISSIONS : [])]),
    name: row.nickname,
    account: row.account,
  };
}

/** The principal behind a bearer token, or a 401. */
export async function authenticate(
  db: Queryable,
  header: string | undefined,
): Promise<{ principal: Principal; tokenHash: string }> {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!token) throw unauthorized();
  const tokenHash = hashToken(token);
  const row = (await db.query<TokenRow>(TOKEN_SQL, [tokenHash])).rows[0];
  if (!row || row.revoked) throw unauthorized();
  if (row.expired) throw unauthorized("tokenExpired");
  const principal = await loadPrincipal(db, row.principal_kind, row.principal_id);
  if (!principal) throw unauthorized();
  return { principal, tokenHash };
}

export async function issueToken(
  db: Queryable,
  kind: Principal["kind"],
  id: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS).toISOString();
  await db.query(
    `insert into sys_token (token_hash, principal_kind, principal_id, expires_at) values ($1, $2, $3, $4)`,
    [hashToken(token), kind, id, expiresAt],
  );
  return { token, expiresAt };
}

export async function revokeToken(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(`update sys_token set revoked_at = now() where token_hash = $1 and revoked_at is null`, [tokenHash]);
}

export async function revokeAll(db: Queryable, kind: Principal["kind"], id: number): Promise<void> {
  await db.query(
    `update sys_token set revoked_at = now() where principal_kind = $1 and principal_id = $2 and revoked_at is null`,
    [kind, id],
  );
}

// A hash to verify against when the account does not exist, so both cases take the same time.
let dummyHash: Promise<string> | undefined;

export async function login(db: Db, account: string, password: string, address: string) {
  const { rows: counts } = await db.query<{ by_account: number; by_address: number }>(
    `select count(*) filter (where account = $1)::int as by_account, count(*) filter (where ip = $2)::int as by_address
       from sys_login_attempt where not ok and at > now() - make_interval(mins => $3) and (account = $1 or ip = $2)`,
    [account, address, THROTTLE.windowMinutes],
  );
  if (counts[0].by_account >= THROTTLE.perAccount || counts[0].by_address >= THROTTLE.perAddress) {
    throw new HttpError(429, "loginThrottled", { minutes: THROTTLE.windowMinutes });
  }
  const agent = (
    await db.query<{ id: number; password: string }>(
      `select id, password from ${q("agent")} where account = $1 and deleted_at is null`,
      [account],
    )
  ).rows[0];
  const operator = agent
    ? undefined
    : (
        await db.query<{ id: number; password: string }>(
          `select id, password from ${q("operator")} where account = $1 and deleted_at is null`,
          [account],
        )
      ).rows[0];
  const found = agent ?? operator;
  dummyHash ??= hashPassword(randomBytes(12).toString("hex"));
  const valid = await verifyPassword(password, found?.password ?? (await dummyHash));
  await db.query(`insert into sys_login_attempt (account, ip, ok) values ($1, $2, $3)`, [
    account,
    address,
    Boolean(found && valid),
  ]);
  if (!found || !valid) throw new HttpError(401, "loginFailed");
  const kind = agent ? "agent" : "operator";
  const { token, expiresAt } = await issueToken(db, kind, found.id);
  const { principal } = await authenticate(db, `Bearer ${token}`);
  return { token, expires_at: expiresAt, principal };
}

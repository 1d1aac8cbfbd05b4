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

/** Extra permission keys of domain calls, beside the generated entity ones. */
export const DOMAIN_PERMISSIONS: string[] = [];

export const allPermissions = (): string[] => [...permissionKeys, ...DOMAIN_PERMISSIONS];

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

interface PrincipalRow {
  principal_kind: "agent" | "operator";
  a_id: number | null;
  a_nickname: string;
  a_account: string;
  a_path: string;
  a_pid: number | null;
  permissions: string[] | null;
  o_id: number | null;
  o_nickname: string;
  o_account: string;
  o_refill: number | null;
  o_agent_id: number | null;
  o_agent_path: string | null;
}

const PRINCIPAL_SELECT = `
  select t.principal_kind,
         a.id as a_id, a.nickname as a_nickname, a.account as a_account, a.agent_path as a_path, a.pid as a_pid, r.permissions,
         o.id as o_id, o.nickname as o_nickname, o.account as o_account, o.refill as o_refill, o.agent_id as o_agent_id, oa.agent_path as o_agent_path
    from sys_token t
    left join ${q("agent")} a on t.principal_kind = 'agent' and a.id = t.principal_id and a.deleted_at is null
    left join ${q("role")} r on r.id = a.role_id
    left join ${q("operator")} o on t.principal_kind = 'operator' and o.id = t.principal_id and o.deleted_at is null
    left join ${q("agent")} oa on oa.id = o.agent_id and oa.deleted_at is null`;

function toPrincipal(row: PrincipalRow): Principal | undefined {
  if (row.principal_kind === "agent" && row.a_id !== null) {
    const isAdmin = row.a_pid === null;
    const known = new Set(allPermissions());
    return {
      kind: "agent",
      id: row.a_id,
      agentId: row.a_id,
      agentPath: row.a_path,
      isAdmin,
      permissions: new Set(isAdmin ? known : (row.permissions ?? []).filter((p) => known.has(p))),
      name: row.a_nickname,
      account: row.a_account,
    };
  }
  if (row.principal_kind === "operator" && row.o_id !== null && row.o_agent_path) {
    return {
      kind: "operator",
      id: row.o_id,
      agentId: row.o_agent_id!,
      agentPath: row.o_agent_path,
      isAdmin: false,
      permissions: new Set([...OPERATOR_PERMISSIONS, ...(row.o_refill ? OPERATOR_RESTOCK_PERMISSIONS : [])]),
      name: row.o_nickname,
      account: row.o_account,
    };
  }
  return undefined;
}

/** The principal behind a bearer token, or a 401. */
export async function authenticate(
  db: Queryable,
  header: string | undefined,
): Promise<{ principal: Principal; tokenHash: string }> {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!token) throw unauthorized();
  const tokenHash = hashToken(token);
  const { rows } = await db.query<PrincipalRow & { expired: boolean; revoked: boolean }>(
    `${PRINCIPAL_SELECT.replace("select t.principal_kind,", "select t.principal_kind, t.expires_at <= now() as expired, t.revoked_at is not null as revoked,")} where t.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  if (!row || row.revoked) throw unauthorized();
  if (row.expired) throw unauthorized("tokenExpired");
  const principal = toPrincipal(row);
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

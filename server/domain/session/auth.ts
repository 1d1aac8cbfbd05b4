// Sign-in and sessions: scrypt passwords, random tokens stored only as SHA-256 hashes, valid 3 days,
// revoked on logout and on password change; failed sign-ins throttled per account and address and per
// address in the database, so every instance sharing it sees the same counts.
import { createHash, randomBytes } from "node:crypto";
import type { Db, Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { entitySchemas, permissionKeys } from "../../../src/generated/schemas.ts";
import type { Principal } from "../../entities/context.ts";
import { hashPassword, verifyPassword } from "../../core/passwords.ts";
import { HttpError, unauthorized } from "../../core/errors.ts";
import { signInThrottled } from "../../core/metrics.ts";

export const TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;

/** Every permission key: the entities' calls and transitions, and the operations' (generated). */
export const allPermissions = (): string[] => [...permissionKeys];

/**
 * What an operator may do, as the operator schema declares it (x-entity.signIn): the devices bound to them
 * and their lanes, and restocking (the restock call only) while their switch for it is on.
 */
const OPERATOR_SIGN_IN = entitySchemas.operator["x-entity"].signIn ?? { permissions: [] };
const OPERATOR_SWITCHES = Object.entries(OPERATOR_SIGN_IN.whileOn ?? {});
/**
 * What an outlet manager may do, as its schema declares it: read its outlets, their devices and lanes, their
 * orders, restock records and stock consumption; nothing else (no money, settings or writes).
 */
const MANAGER_SIGN_IN = entitySchemas.shop_manager["x-entity"].signIn ?? { permissions: [] };

/** The accounts that sign in, by principal kind, in the order sign-in looks an account up. */
export const ACCOUNT_TABLES = { agent: "agent", operator: "operator", manager: "shop_manager" } as const;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

interface TokenRow {
  principal_kind: Principal["kind"];
  principal_id: number;
  expires_at: string;
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
  agent_id: number;
  agent_path: string;
  /** The switches of OPERATOR_SWITCHES, by field name. */
  [field: string]: unknown;
}

// Two primary-key lookups: cheaper to plan on every request than one five-table join.
const TOKEN_SQL = `select principal_kind, principal_id, expires_at, expires_at <= now() as expired, revoked_at is not null as revoked
                     from sys_token where token_hash = $1`;
const AGENT_SQL = `select a.id, a.nickname, a.account, a.agent_path, a.pid, r.permissions
                     from ${q("agent")} a left join ${q("role")} r on r.id = a.role_id
                    where a.id = $1 and a.deleted_at is null`;
const OPERATOR_COLUMNS = ["id", "nickname", "account", "agent_id", ...OPERATOR_SWITCHES.map(([field]) => field)]
  .map((column) => `o.${q(column)}`)
  .join(", ");
const OPERATOR_SQL = `select ${OPERATOR_COLUMNS}, oa.agent_path
                        from ${q("operator")} o join ${q("agent")} oa on oa.id = o.agent_id and oa.deleted_at is null
                       where o.id = $1 and o.deleted_at is null`;

const MANAGER_SQL = `select m.id, m.nickname, m.account, m.agent_id, ma.agent_path
                       from ${q("shop_manager")} m join ${q("agent")} ma on ma.id = m.agent_id and ma.deleted_at is null
                      where m.id = $1 and m.deleted_at is null`;

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
  // An operator or an outlet manager: an agent's account with a fixed read set (an operator's grows with
  // its switches).
  const manager = kind === "manager";
  const row = (await db.query<OperatorRow>(manager ? MANAGER_SQL : OPERATOR_SQL, [id])).rows[0];
  if (!row) return undefined;
  return {
    kind,
    id: row.id,
    agentId: row.agent_id,
    agentPath: row.agent_path,
    isAdmin: false,
    permissions: manager
      ? new Set(MANAGER_SIGN_IN.permissions)
      : new Set([
          ...OPERATOR_SIGN_IN.permissions,
          ...OPERATOR_SWITCHES.flatMap(([field, granted]) => (row[field] ? granted : [])),
        ]),
    name: row.nickname,
    account: row.account,
  };
}

const tokenOf = (header: string | undefined) => {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!token) throw unauthorized();
  return token;
};

/** The session of a token hash as the database has it now, or a 401. */
async function readSession(db: Queryable, tokenHash: string): Promise<{ principal: Principal; expiresAt: number }> {
  const row = (await db.query<TokenRow>(TOKEN_SQL, [tokenHash])).rows[0];
  if (!row || row.revoked) throw unauthorized();
  if (row.expired) throw unauthorized("tokenExpired");
  const principal = await loadPrincipal(db, row.principal_kind, row.principal_id);
  if (!principal) throw unauthorized();
  return { principal, expiresAt: Date.parse(row.expires_at) };
}

/** The principal behind a bearer token, read from the database, or a 401. */
export async function authenticate(
  db: Queryable,
  header: string | undefined,
): Promise<{ principal: Principal; tokenHash: string }> {
  const tokenHash = hashToken(tokenOf(header));
  return { principal: (await readSession(db, tokenHash)).principal, tokenHash };
}

/**
 * How long a server instance trusts a session it has read (the token, its account and its role's
 * permissions) before reading it again: a token revoked, an account removed or a role changed through
 * another instance, or by hand in the database, is refused here within this time.
 */
export const SESSION_TRUST_MS = 1000;
/** Sessions held at most; past it the instance starts again from none (each is read again at its next call). */
const MAX_SESSIONS = 10_000;

/**
 * The sessions one server instance has read in the last second: a signed-in call costs no query while
 * its session is trusted. The instance forgets all of them whenever it answers a write (signing out,
 * a password, an account or a role changed), before that answer leaves, and a read that began before
 * such a write is not kept: on the instance that made a change, the next call sees it.
 */
export class Sessions {
  private readonly held = new Map<string, { principal: Principal; until: number }>();
  private readonly reading = new Map<
    string,
    { read: Promise<{ principal: Principal; expiresAt: number }>; generation: number }
  >();
  private generation = 0;

  constructor(
    private readonly db: Queryable,
    private readonly options: { trustMs?: number; now?: () => number } = {},
  ) {}

  async authenticate(header: string | undefined): Promise<{ principal: Principal; tokenHash: string }> {
    const tokenHash = hashToken(tokenOf(header));
    const now = this.options.now ?? Date.now;
    const held = this.held.get(tokenHash);
    if (held && now() < held.until) return { principal: held.principal, tokenHash };
    if (held) this.held.delete(tokenHash);
    const generation = this.generation;
    // Calls that come while the session is being read (fifty at once when its second is up) wait for that
    // one read, unless a write came in between.
    let reading = this.reading.get(tokenHash);
    if (!reading || reading.generation !== generation) {
      const read = readSession(this.db, tokenHash).finally(() => {
        if (this.reading.get(tokenHash)?.read === read) this.reading.delete(tokenHash);
      });
      reading = { read, generation };
      this.reading.set(tokenHash, reading);
    }
    const session = await reading.read;
    if (generation === this.generation) {
      if (this.held.size >= MAX_SESSIONS) this.held.clear();
      // Never past the token's own expiry: the database says "expired" then.
      const until = Math.min(now() + (this.options.trustMs ?? SESSION_TRUST_MS), session.expiresAt);
      this.held.set(tokenHash, { principal: session.principal, until });
    }
    return { principal: session.principal, tokenHash };
  }

  /** Every session is read again at its next call (after a write, or a change made by hand in the database). */
  forget(): void {
    this.generation++;
    this.held.clear();
  }
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

// ---------------------------------------------------------------- throttling

/**
 * Failed sign-ins are counted per account and address, and per address, never per account alone: an
 * attacker elsewhere cannot lock the owner out. A counter at its limit locks its key for `baseMinutes`,
 * doubling with every further failure (15, 30, 60 minutes, ... at most a day); a counter idle for a day
 * starts again, and a successful sign-in clears its account-and-address counter.
 */
export const THROTTLE = { perAccountAddress: 5, perAddress: 30, baseMinutes: 15, maxMinutes: 24 * 60 };

const pairKey = (account: string, address: string) => `a:${account}\n${address}`;
const addressKey = (address: string) => `i:${address}`;
/** Minutes a key with `failures` (at least `limit`) stays locked after its last attempt. */
const LOCK_SQL = (limit: string) =>
  `least($3::float8 * power(2, greatest(t.failures - ${limit}, 0)), $4::float8) * interval '1 minute'`;

/**
 * Takes one attempt from a counter, in one statement: the upsert locks the row, so concurrent attempts
 * (on any instance sharing the database) are counted one after another and none passes the limit.
 * Returns false when the key is locked.
 */
async function reserveKey(tx: Queryable, key: string, limit: number): Promise<boolean> {
  const { rows } = await tx.query(
    `insert into sys_login_throttle as t (key, failures, last_at) values ($1, 1, now())
     on conflict (key) do update
        set failures = case when t.last_at < now() - interval '1 day' then 1 else t.failures + 1 end, last_at = now()
      where t.failures < $2 or t.last_at <= now() - ${LOCK_SQL("$2")}
     returning failures`,
    [key, limit, THROTTLE.baseMinutes, THROTTLE.maxMinutes],
  );
  return rows.length === 1;
}

async function lockedMinutes(db: Queryable, key: string, limit: number): Promise<number> {
  const { rows } = await db.query<{ minutes: number }>(
    `select ceil(extract(epoch from (t.last_at + ${LOCK_SQL("$2")} - now())) / 60)::int as minutes
       from sys_login_throttle t where t.key = $1`,
    [key, limit, THROTTLE.baseMinutes, THROTTLE.maxMinutes],
  );
  return Math.max(1, rows[0]?.minutes ?? THROTTLE.baseMinutes);
}

class Locked extends Error {
  constructor(
    readonly key: string,
    readonly limit: number,
  ) {
    super("locked");
  }
}

/** One password attempt: reserved before the slow hash, so it counts as a failure until it succeeds. */
export interface Attempt {
  /** The password was right: the account-and-address counter is cleared, the address's attempt given back. */
  succeeded(): Promise<void>;
  /** The attempt was never tried (the server was too busy to hash): both reservations are given back. */
  abandoned(): Promise<void>;
}

/**
 * Counters idle for a day are forgotten (the next attempt would start them again anyway), so addresses
 * and account names an attacker makes up do not pile up: run at start and every hour.
 */
export async function forgetIdleCounters(db: Queryable): Promise<number> {
  const { rows } = await db.query(
    `delete from sys_login_throttle where last_at < now() - interval '1 day' returning key`,
  );
  return rows.length;
}

/** Reserves an attempt for the account from the address, or answers 429 when either counter is locked. */
export async function reserveAttempt(db: Db, account: string, address: string): Promise<Attempt> {
  const pair = pairKey(account, address);
  const byAddress = addressKey(address);
  try {
    await db.transaction(async (tx) => {
      if (!(await reserveKey(tx, pair, THROTTLE.perAccountAddress))) throw new Locked(pair, THROTTLE.perAccountAddress);
      if (!(await reserveKey(tx, byAddress, THROTTLE.perAddress))) throw new Locked(byAddress, THROTTLE.perAddress);
    });
  } catch (error) {
    if (!(error instanceof Locked)) throw error;
    signInThrottled.inc();
    throw new HttpError(429, "loginThrottled", { minutes: await lockedMinutes(db, error.key, error.limit) });
  }
  const giveBack = (key: string) =>
    db.query(`update sys_login_throttle set failures = greatest(failures - 1, 0) where key = $1`, [key]);
  return {
    async succeeded() {
      await db.query(`delete from sys_login_throttle where key = $1`, [pair]);
      await giveBack(byAddress);
    },
    async abandoned() {
      await giveBack(pair);
      await giveBack(byAddress);
    },
  };
}

let dummyHash: Promise<string> | undefined;

/** Checks a password under the throttle: counted before hashing, refused with 429 past the limits. */
export async function checkPassword(
  db: Db,
  account: string,
  address: string,
  password: string,
  stored: string | undefined,
): Promise<boolean> {
  const attempt = await reserveAttempt(db, account, address);
  let valid: boolean;
  try {
    dummyHash ??= hashPassword(randomBytes(12).toString("hex")).catch((error: unknown) => {
      dummyHash = undefined;
      throw error;
    });
    // An unknown account is verified against a throwaway hash, so both cases take the same time.
    valid = (await verifyPassword(password, stored ?? (await dummyHash))) && stored !== undefined;
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
  if (valid) await attempt.succeeded();
  await db.query(`insert into sys_login_attempt (account, ip, ok) values ($1, $2, $3)`, [account, address, valid]);
  return valid;
}

export async function login(db: Db, account: string, password: string, address: string) {
  // An account is unique across the three tables (server/domain/accounts): the first that has it is its.
  let found: { kind: Principal["kind"]; id: number; password: string } | undefined;
  for (const [kind, table] of Object.entries(ACCOUNT_TABLES) as [Principal["kind"], string][]) {
    const row = (
      await db.query<{ id: number; password: string }>(
        `select id, password from ${q(table)} where account = $1 and deleted_at is null`,
        [account],
      )
    ).rows[0];
    if (row) {
      found = { kind, ...row };
      break;
    }
  }
  if (!(await checkPassword(db, account, address, password, found?.password)) || !found)
    throw new HttpError(401, "loginFailed");
  const { token, expiresAt } = await issueToken(db, found.kind, found.id);
  const { principal } = await authenticate(db, `Bearer ${token}`);
  return { token, expires_at: expiresAt, principal };
}

// One database interface over PGlite (embedded, the default) and PostgreSQL (DATABASE_URL): the same
// SQL runs on both. Repositories take a Db, which is either the database or a transaction.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { databaseWait, type PoolState } from "../core/metrics.ts";

export interface QueryOptions {
  /**
   * The statement's best plan does not depend on its parameters' values (lookups by id) and it names the
   * columns it answers (no `*`, which a new column would change under a kept plan): on PostgreSQL it is
   * prepared once per connection, and PostgreSQL keeps one plan for it once that plan costs no more than
   * the first five it made for the values given (so for the list's titles, where planning was most of
   * their time).
   */
  samePlan?: boolean;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements (no parameters), e.g. DDL. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  readonly kind: "pglite" | "postgres";
  /**
   * Hears the notifications of a channel (LISTEN): each payload, in the order their transactions
   * committed; `gap` when some may have been missed (the listening connection was lost and is back). The
   * returned function stops listening.
   */
  listen(channel: string, heard: (payload: string) => void, gap: () => void): Promise<() => Promise<void>>;
  /** The pool's connections (PostgreSQL): in use, idle, and callers waiting for one. */
  pool?(): PoolState;
  /**
   * The whole database as a tar file (PGlite only), to open again with openPglite's `from`: the tests
   * migrate (and seed) once and start each file's database from the copy.
   */
  snapshot?(): Promise<Blob>;
}

// Values as the API and the schemas have them, on both drivers: int8 (ids, money, counts) as numbers
// (every value we store fits in 2^53), timestamps as ISO 8601 strings, dates as YYYY-MM-DD.
const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 };
/** A UTC timestamp as both drivers give it, to be written as ISO 8601 without a Date (several a row). */
const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:\+00)?$/;
/** A timestamp's text as `Date#toISOString` writes it (milliseconds, cut, not rounded, as Date does). */
export function toIso(value: string): string {
  const utc = UTC_TEXT.exec(value);
  if (utc) return `${utc[1]}T${utc[2]}.${`${utc[3] ?? ""}000`.slice(0, 3)}Z`;
  return new Date(value.includes("T") || /[+-]\d\d(:\d\d)?$/.test(value) ? value : `${value}Z`).toISOString();
}
const PARSERS: Record<number, (value: string) => unknown> = {
  [OID.int8]: (value) => Number(value),
  [OID.numeric]: (value) => Number(value),
  [OID.date]: (value) => value,
  [OID.timestamp]: toIso,
  [OID.timestamptz]: toIso,
};
for (const [oid, parse] of Object.entries(PARSERS)) pg.types.setTypeParser(Number(oid), parse);

export class DataDirLockedError extends Error {}

/** A PID lock in the data folder: PGlite allows one process per folder. */
function lockDataDir(dir: string): () => void {
  const file = join(dir, "server.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(file, "utf8"));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another server (pid ${pid}). Stop it first, or give this one another DATA_DIR, or use DATABASE_URL for several instances.`,
        );
      }
      rmSync(file, { force: true }); // left behind by a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite's buffer pool (PostgreSQL's default is 128MB). PGlite touches all of it as it starts, in the
 * server's own memory: with 64MB a restarted server on the demo data holds about 380 MiB instead of 437
 * (DESIGN §8: under 400 MB after start), and full scans of its orders took as long as before (the
 * operating system caches the data files beneath it).
 */
export const PGLITE_SHARED_BUFFERS = "64MB";

/** PGlite in a folder, or in memory when dataDir is undefined; `from` is a snapshot to start from. */
export async function openPglite(dataDir?: string, options: { from?: Blob } = {}): Promise<Db> {
  let unlock = () => {};
  if (dataDir) {
    const dir = resolve(dataDir);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dir);
  }
  let db: PGlite;
  try {
    db = new PGlite({
      dataDir: dataDir ? join(resolve(dataDir), "pgdata") : undefined,
      parsers: PARSERS,
      loadDataDir: options.from,
      // Trigram indexes serve the search box's matches inside a text (server/db/migrate.ts).
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
    await db.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    kind: "pglite",
    // A statement first lets the event loop turn: PGlite runs each one synchronously, and without the turn
    // the statements of many requests run back to back while no request is read or answered (seconds
    // under load).
    query: async (sql, params) => {
      await new Promise(setImmediate);
      return db.query(sql, params) as never;
    },
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => tx.query(sql, params) as never })),
    close: async () => {
      await db.close();
      unlock();
    },
    snapshot: () => db.dumpDataDir("none"),
    // In process: PGlite tells its listeners after the statement that committed.
    listen: (channel, heard) => db.listen(channel, heard).then((stop) => () => stop()),
  };
}

/** How long a lost listening connection waits before it connects again, at first and at most. */
const LISTEN_RETRY_MS = [500, 10_000];

/**
 * A connection of its own that listens on PostgreSQL, connected again (after LISTEN_RETRY_MS, doubling)
 * whenever it is lost; each time it is back, `gap` says notifications may have been missed meanwhile.
 */
async function listenOnPostgres(
  config: pg.ClientConfig,
  channel: string,
  heard: (payload: string) => void,
  gap: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let wait = LISTEN_RETRY_MS[0];
  let timer: NodeJS.Timeout | undefined;
  const connect = async (first: boolean): Promise<void> => {
    const next = new pg.Client(config);
    next.on("notification", (message) => {
      if (message.channel === channel) heard(message.payload ?? "");
    });
    const lost = () => {
      if (stopped || client !== next) return;
      client = undefined;
      timer = setTimeout(() => void connect(false).catch(() => undefined), wait);
      wait = Math.min(wait * 2, LISTEN_RETRY_MS[1]);
    };
    next.on("error", lost);
    next.on("end", lost);
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      if (first) throw error;
      lost();
      return;
    }
    wait = LISTEN_RETRY_MS[0];
    if (!first) gap();
  };
  await connect(true);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}

/** Statement texts prepared at most per pool (each connection keeps those it ran); past it others run unprepared. */
const PREPARED_HELD = 500;

/**
 * A name per statement text, for statements prepared on each connection (node-postgres prepares a name on a
 * connection the first time it runs there, and refuses one name for two texts).
 */
function preparedNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  let next = 0;
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= PREPARED_HELD) return undefined;
      names.set(sql, (name = `same_plan_${next++}`));
    }
    return name;
  };
}

/** PostgreSQL; `schema` (created if missing) isolates a test run's tables in a shared database. */
export async function openPostgres(url: string, schema?: string): Promise<Db> {
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema if not exists ${schema}`);
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  await pool.query("select 1");
  const named = preparedNames();
  return {
    kind: "postgres",
    query: (sql, params, options) =>
      (options?.samePlan
        ? pool.query({ name: named(sql), text: sql, values: params })
        : pool.query(sql, params)) as never,
    exec: async (sql) => {
      await pool.query(sql);
    },
    pool: () => ({
      kind: "postgres",
      busy: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    transaction: async (fn) => {
      const waited = databaseWait.startTimer();
      const client = await pool.connect();
      waited();
      try {
        await client.query("begin");
        const result = await fn({
          query: (sql, params, options) =>
            (options?.samePlan
              ? client.query({ name: named(sql), text: sql, values: params })
              : client.query(sql, params)) as never,
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    listen: (channel, heard, gap) =>
      listenOnPostgres(
        { connectionString: url, ...(schema ? { options: `-c search_path=${schema}` } : {}) },
        channel,
        heard,
        gap,
      ),
  };
}

export function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

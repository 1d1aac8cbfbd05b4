// npx tsx tools/durability.ts [--rounds 50] [--only pglite|postgres]: kills the server with SIGKILL in the
// middle of a stream of writes, again and again, on PGlite (a data folder) and on PostgreSQL
// (DATABASE_URL, default the local test database; a throwaway database is made in it). Each round starts
// the server, signs in, sends writes four at a time and kills it after a random moment. It checks that the
// server starts again every time, that every table can still be read in full (nothing corrupt), and
// counts the writes answered 200 that are missing afterwards (on PostgreSQL there must be none).
// Prints the figures; exits 1 when a start fails, a table cannot be read, or PostgreSQL lost a write.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openPglite, openPostgres, type Db } from "../server/db/db.ts";
import { migrate } from "../server/db/migrate.ts";
import { hashPassword } from "../server/core/passwords.ts";

const ROOT = resolve(import.meta.dirname, "..");
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg("rounds", "50"));
const ONLY = arg("only", "");
const PG_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PORT = 18_000 + (process.pid % 1000);

interface Backend {
  name: "pglite" | "postgres";
  env: Record<string, string>;
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

/** A principal to write as: the platform admin, made directly in the database (no demo seed). */
async function prepare(db: Db): Promise<void> {
  await migrate(db);
  const { rows } = await db.query<{ id: number }>(
    `insert into "agent" (nickname, account, password) values ('Admin', 'admin', $1) returning id`,
    [await hashPassword("admin123")],
  );
  await db.query(`update "agent" set agent_path = $1, agent_id = $2 where id = $2`, [`/${rows[0].id}/`, rows[0].id]);
}

async function pgliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "durability-"));
  const db = await openPglite(dir);
  await prepare(db);
  await db.close();
  return {
    name: "pglite",
    env: { DATA_DIR: dir },
    open: () => openPglite(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  const name = `durability_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  await prepare(db);
  await db.close();
  return {
    name: "postgres",
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres(url.toString()),
    cleanup: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Starts the server and resolves when it listens (its "ready" line); rejects when it exits first. */
function start(backend: Backend): Promise<{ child: ChildProcess; ms: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...backend.env,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      SEED: "none",
      SKIP_CONSOLE_BUILD: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready in")) {
        clearTimeout(timer);
        resolvePromise({ child, ms: performance.now() - began });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

const api = (path: string, token: string | undefined, body: unknown) =>
  fetch(`http://127.0.0.1:${PORT}/merchant/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

interface Figures {
  rounds: number;
  acknowledged: number;
  lost: number;
  startMs: number[];
  tablesChecked: number;
}

async function run(backend: Backend): Promise<Figures> {
  const figures: Figures = { rounds: 0, acknowledged: 0, lost: 0, startMs: [], tablesChecked: 0 };
  const acknowledged: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { child, ms } = await start(backend);
    figures.startMs.push(ms);
    const exited = new Promise((r) => child.once("exit", r));
    const login = await api("login", undefined, { account: "admin", password: "admin123" });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    let killed = false;
    let next = 0;
    const writer = async () => {
      while (!killed) {
        const name = `r${round}-w${next++}`;
        try {
          const reply = await api("goods-cate-add", token, { name, sort: 1 });
          if (reply.status === 200) acknowledged.push(name);
        } catch {
          return; // the connection died with the server: this write was never answered
        }
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 600)));
    killed = true;
    child.kill("SIGKILL");
    await exited;
    await Promise.allSettled(writers);
    figures.rounds++;
    process.stderr.write(
      `  ${backend.name}: round ${round + 1}/${ROUNDS}, ${acknowledged.length} writes answered 200\n`,
    );
  }
  // One last start (the server must still come up), then the database itself, read in full.
  const { child } = await start(backend);
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
  const db = await backend.open();
  try {
    const tables = (
      await db.query<{ t: string }>(
        `select table_name as t from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
      )
    ).rows.map((r) => r.t);
    for (const table of tables) {
      await db.query(`select * from "${table}"`); // every page of every table readable
      figures.tablesChecked++;
    }
    const { rows } = await db.query<{ name: string }>(`select name from goods_category where name = any($1)`, [
      acknowledged,
    ]);
    figures.acknowledged = acknowledged.length;
    figures.lost = acknowledged.length - new Set(rows.map((r) => r.name)).size;
  } finally {
    await db.close();
  }
  return figures;
}

const results: [string, Figures][] = [];
let failed = false;
for (const make of [pgliteBackend, postgresBackend]) {
  if (ONLY && !make.name.startsWith(ONLY)) continue;
  const backend = await make();
  try {
    const figures = await run(backend);
    results.push([backend.name, figures]);
    if (backend.name === "postgres" && figures.lost > 0) failed = true;
  } catch (error) {
    console.error(`${backend.name}: ${(error as Error).message}`);
    failed = true;
  } finally {
    await backend.cleanup();
  }
}
for (const [name, f] of results) {
  const sorted = [...f.startMs].sort((a, b) => a - b);
  console.log(
    `${name}: ${f.rounds} kills (SIGKILL mid-write), ${f.rounds + 1} starts, all up again; ` +
      `${f.tablesChecked} tables read in full; ${f.acknowledged} writes answered 200, ${f.lost} missing; ` +
      `start median ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(1)} s`,
  );
}
process.exit(failed ? 1 : 0);

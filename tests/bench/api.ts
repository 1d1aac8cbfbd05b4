// The API figures of DESIGN.md section 8, measured in one run on one database: the order list (page
// of 10, status and date filters, newest first, scoped to an agent's subtree) over HTTP against the
// same statements as raw SQL; cold start.
import Fastify from "fastify";
import { performance } from "node:perf_hooks";
import { Client } from "undici";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchBackup } from "./backup.ts";
import { benchBrowser } from "./browser.ts";
import { benchSearch } from "./search.ts";
import { LOAD, loadTestApart } from "./load.ts";
import { openPglite, openPostgres, type Db, type QueryOptions } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { buildApp } from "../../server/app.ts";

export type Row = [string, string];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeRuns(runs: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn(); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/**
 * Medians of each function, called in turns `runs` times after `warmUp` turns (JIT, caches, plans). The
 * warm-up is long enough for V8 to optimise the HTTP paths: the database driver's are hot from the seed
 * already, and after 50 turns the same call measured 0.3-0.4 ms slower than after 1,000 (2026-11-27).
 */
async function timeInTurns(runs: number, fns: (() => Promise<unknown>)[], warmUp = 1000): Promise<number[]> {
  const samples = fns.map(() => [] as number[]);
  for (let i = 0; i < warmUp + runs; i++)
    for (const [k, fn] of fns.entries()) {
      const start = performance.now();
      await fn();
      if (i >= warmUp) samples[k].push(performance.now() - start);
    }
  return samples.map(median);
}

const ROOT = resolve(import.meta.dirname, "../..");

interface Statement {
  sql: string;
  params?: unknown[];
  options?: QueryOptions;
  /** The statement whose answer it waited for: the last to finish before it was sent (none: the first). */
  after?: number;
}

/** A database whose statements can be recorded during one call, each with the statement it waited for. */
function recording(db: Db): { db: Db; record: (call: () => Promise<unknown>) => Promise<Statement[]> } {
  let statements: Statement[] | undefined;
  let lastFinished: number | undefined;
  const recorded: Db = Object.assign(Object.create(db) as Db, {
    query: async (sql: string, params?: unknown[], options?: QueryOptions) => {
      const list = statements;
      const index = list ? list.push({ sql, params, options, after: lastFinished }) - 1 : -1;
      try {
        return await db.query(sql, params, options);
      } finally {
        if (list && list === statements) lastFinished = index;
      }
    },
  });
  return {
    db: recorded,
    record: async (call) => {
      statements = [];
      lastFinished = undefined;
      try {
        await call();
        return statements;
      } finally {
        statements = undefined;
      }
    },
  };
}

/** `callers` callers replaying the statements one set after another for `seconds`: sets per second and latencies. */
async function rawLoad(db: Db, statements: Statement[], callers: number, seconds: number) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await replay(db, statements);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: latencies[Math.floor(latencies.length / 2)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
  };
}

/** Runs recorded statements as they ran: each once the one it waited for has answered, the others beside it. */
async function replay(db: Db, statements: Statement[]): Promise<void> {
  const done: Promise<unknown>[] = [];
  for (const s of statements)
    done.push(
      (s.after === undefined ? Promise.resolve() : done[s.after]).then(() => db.query(s.sql, s.params, s.options)),
    );
  await Promise.all(done);
}

/** Chains of the statements, as "a → b ‖ c → d", by their first word. */
function shape(statements: Statement[]): string {
  const word = (s: Statement) => s.sql.trim().split(/\s+/)[0];
  const next = (i: number | undefined) => statements.map((s, j) => [s, j] as const).filter(([s]) => s.after === i);
  const chain = (i: number): string => {
    const after = next(i);
    return `${word(statements[i])}${after.length ? ` → ${after.map(([, j]) => chain(j)).join(" ‖ ")}` : ""}`;
  };
  return next(undefined)
    .map(([, j]) => chain(j))
    .join(" ‖ ");
}

/** The figures over `orders` orders; with `browser`, the console's too (it must be built: dist/console). */
/** `searchOnly`: the search box's figures alone (`-- --search-only`), after the same seed. */
export async function benchApi(
  orders: number,
  log: (line: string) => void,
  browser = false,
  searchOnly = false,
): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), "bench-"));
  const url = process.env.DATABASE_URL;
  const open = (): Promise<Db> => (url ? openPostgres(url, "bench") : openPglite(join(dir, "data")));
  let db = await open();
  try {
    await migrate(db);
    const { rows: existing } = await db.query<{ n: number }>(`select count(*)::int as n from "order"`);
    if (existing[0].n < orders) {
      if (existing[0].n > 0) throw new Error("the bench schema has another dataset; drop it first");
      const { seedDemo } = await import("../../server/seed/demo.ts");
      const start = performance.now();
      await seedDemo(db, { orders, log: (line) => log(`  seed: ${line}`) });
      rows.push([`seed ${orders.toLocaleString("en")} orders`, `${((performance.now() - start) / 1000).toFixed(1)} s`]);
    }
    await db.query("analyze");

    // Cold start: a new process would open the existing database, check the schema and build the app.
    if (!url && !searchOnly) {
      await db.close();
      const start = performance.now();
      db = await open();
      await migrate(db);
      const coldApp = await buildApp({ db });
      await coldApp.inject({ method: "GET", url: "/merchant/version-check" });
      rows.push([
        "cold start (open database, check schema, build app, first call)",
        `${(performance.now() - start).toFixed(0)} ms`,
      ]);
      await coldApp.close();
    }

    // The server's statements are recorded while one call runs, to be timed again as raw SQL, each after
    // the statement it waited for, as the server ran them.
    const recorder = recording(db);
    const app = await buildApp({ db: recorder.db, consoleDir: join(ROOT, "dist/console") });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const login = await fetch(`${address}/merchant/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "agent_a", password: "demo123" }),
    }).then((r) => r.json());
    const token = login.data.token as string;
    const { rows: agents } = await db.query<{ agent_path: string }>(
      `select agent_path from "agent" where account = 'agent_a'`,
    );
    const path = agents[0].agent_path;
    const adminToken = async () =>
      (
        await fetch(`${address}/merchant/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ account: "admin", password: "admin123" }),
        }).then((r) => r.json())
      ).data.token as string;
    if (searchOnly) {
      rows.push(
        ...(await benchSearch(
          db,
          address,
          [
            ["admin", await adminToken()],
            ["agent_a", token],
          ],
          log,
        )),
      );
      await app.close();
      return rows;
    }
    const until = new Date().toISOString();
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();

    const query = `page=1&limit=10&pay_status=paid&order_time_gte=${encodeURIComponent(since)}&order_time_lte=${encodeURIComponent(until)}&sort=order_time&order=desc`;
    // undici's Client on one kept-alive connection: fetch costs this process about 0.5 ms a call more,
    // node:http's client about 0.1 ms (2026-11-27), which is the client's work, not the server's.
    const clients = new Map<string, Client>();
    const headers = { authorization: `Bearer ${token}`, locale: "en", source: "pc" };
    const getJson = async <T>(url: string): Promise<T> => {
      const { origin, pathname, search } = new URL(url);
      let client = clients.get(origin);
      if (!client) clients.set(origin, (client = new Client(origin)));
      const { body } = await client.request({ method: "GET", path: pathname + search, headers });
      return (await body.json()) as T;
    };
    const listUrl = `${address}/merchant/order-list?${query}`;
    type ListAnswer = { code: number; data: { total: number; total_exact: boolean } };
    const api = () => getJson<ListAnswer>(listUrl);
    // A filter's first call counts every row it matches past the cap (held 10 s after); the roll-ups give
    // the unfiltered, per-agent and per-state totals for nothing. Each filter once, cold, then held.
    for (const [label, filter] of [
      ["agent_a's paid orders of the last 30 days", query],
      ["agent_a's orders, no filter (roll-up)", "page=1&limit=10"],
      ["agent_a's orders whose number contains 12", "page=1&limit=10&order_no_like=12"],
    ]) {
      const url = `${address}/merchant/order-list?${filter}`;
      let start = performance.now();
      const counted = await getJson<ListAnswer>(url);
      const cold = performance.now() - start;
      start = performance.now();
      await getJson<ListAnswer>(url);
      const held = performance.now() - start;
      rows.push([
        `order list, a filter's first call / the next (${label}: ${counted.data.total.toLocaleString("en")}${counted.data.total_exact ? "" : " held"})`,
        `${cold.toFixed(1)} / ${held.toFixed(1)} ms`,
      ]);
    }
    const first = await api();
    if (first.code !== 200) throw new Error(`order-list: ${JSON.stringify(first)}`);

    // A warm call (the session already read) as the server runs it: the statements behind its answer.
    const statements = await recorder.record(api);
    const sameSql = () => replay(db, statements);
    const page = statements.find((s) => /^select \* from "order"/.test(s.sql));
    if (!page || statements.some((s) => s.sql.includes("sys_token")))
      throw new Error(`order-list ran unexpected statements: ${JSON.stringify(statements)}`);
    const pageSql = () => db.query(page.sql, page.params);

    // What HTTP and the framework cost by themselves: a bare Fastify route in this process that runs the
    // same statements and sends the same answer, with none of the server's hooks, parsing or engine.
    const bare = Fastify();
    const answer: unknown = first;
    bare.get("/order-list", async () => {
      await sameSql();
      return answer;
    });
    const bareUrl = `${await bare.listen({ port: 0, host: "127.0.0.1" })}/order-list`;
    const bareCall = () => getJson(bareUrl);

    const runs = 1001;
    // Taken in turns, so that a busy moment of the machine falls on all four alike.
    const [apiMs, pageMs, bothMs, bareMs] = await timeInTurns(runs, [api, pageSql, sameSql, bareCall]);
    await bare.close();
    rows.push([
      `order list via HTTP (median of ${runs}; total ${first.data.total}${first.data.total_exact ? "" : " est."})`,
      `${apiMs.toFixed(2)} ms`,
    ]);
    rows.push([
      `  the same ${statements.length} statements as raw SQL (${shape(statements)})`,
      `${bothMs.toFixed(2)} ms`,
    ]);
    rows.push(["  page query alone as raw SQL", `${pageMs.toFixed(2)} ms`]);
    rows.push([
      "  ratio HTTP / raw SQL (target <= 1.5)",
      `${(apiMs / bothMs).toFixed(2)}x (${(apiMs / pageMs).toFixed(2)}x vs page alone)`,
    ]);
    rows.push([
      "  a bare Fastify route: the same statements, the same answer, no server",
      `${bareMs.toFixed(2)} ms, ${(bareMs / bothMs).toFixed(2)}x; the server adds ${(apiMs - bareMs).toFixed(2)} ms`,
    ]);
    // Home statistics (DESIGN §8: every call under 100 ms over a million orders, admin and agent).
    const adminLogin = await fetch(`${address}/merchant/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "admin", password: "admin123" }),
    }).then((r) => r.json());
    for (const [who, bearer] of [
      ["admin", adminLogin.data.token as string],
      ["agent_a", token],
    ] as const) {
      for (const call of [
        "statistics-total",
        "statistics-trade?days=90",
        "statistics-order?days=90",
        "statistics-line-machine",
        "statistics-dealt",
        "statistics-manage",
        "statistics-devices?period=last_30_days",
        "statistics-stock?period=last_30_days",
      ]) {
        const get = () =>
          fetch(`${address}/merchant/${call}`, { headers: { authorization: `Bearer ${bearer}`, locale: "en" } }).then(
            async (r) => {
              if (r.status !== 200) throw new Error(`${call} as ${who}: ${r.status} ${await r.text()}`);
              return r.arrayBuffer();
            },
          );
        rows.push([`${call} as ${who} (median of 21; target < 100 ms)`, `${(await timeRuns(21, get)).toFixed(1)} ms`]);
      }
    }
    // The header's search box over the orders and 100,000 devices (issue 33).
    rows.push(
      ...(await benchSearch(
        db,
        address,
        [
          ["admin", adminLogin.data.token as string],
          ["agent_a", token],
        ],
        log,
      )),
    );
    // Throughput: 50 connections for 20 s on agent_a's order list and on one of its orders' detail.
    const { rows: latest } = await db.query<{ id: number }>(
      `select id from "order" where agent_path like $1 order by id desc limit 1`,
      [`${path}%`],
    );
    // Beside each, the same statements from a pool of the server's size, by 50 callers for 20 s: what the
    // database gives without the server.
    for (const [label, target] of [
      ["order list", listUrl],
      ["order detail", `${address}/merchant/order-detail?id=${latest[0].id}`],
    ]) {
      await getJson(target);
      const behind = await recorder.record(() => getJson(target));
      const r = await loadTestApart(target, { authorization: `Bearer ${token}`, locale: "en" });
      rows.push([
        `${label}, ${LOAD.connections} connections × ${LOAD.seconds} s (targets: >= 1,200/s and p99 < 50 ms on PostgreSQL, max < 1 s on PGlite)`,
        `${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, errors ${r.errors}`,
      ]);
      const raw = await rawLoad(db, behind, LOAD.connections, LOAD.seconds);
      rows.push([
        `  its ${behind.length} statement${behind.length === 1 ? "" : "s"} as raw SQL, ${LOAD.connections} callers × ${LOAD.seconds} s`,
        `${raw.perSecond.toFixed(0)}/s, p50 ${raw.p50.toFixed(1)} ms, p99 ${raw.p99.toFixed(1)} ms`,
      ]);
    }
    // The serving process's memory is measured apart (memory.ts): this process also seeds and exports.
    if (browser) rows.push(...(await benchBrowser(address, 5)));
    await Promise.all([...clients.values()].map((client) => client.close()));
    await app.close();
    // Backup and restore, by the commands (processes of their own): PGlite's folder is handed to them.
    if (!url) await db.close();
    try {
      rows.push(...(await benchBackup(dir, join(dir, "data"), orders)));
    } finally {
      if (!url) db = await open();
    }
  } finally {
    await db.close();
    if (url) {
      const cleanup = await openPostgres(url);
      await cleanup.query("drop schema if exists bench cascade");
      await cleanup.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

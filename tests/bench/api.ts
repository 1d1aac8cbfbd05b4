// The API figures of DESIGN.md section 8, measured in one run on one database: the order list (page
// of 10, status and date filters, newest first, scoped to an agent's subtree) over HTTP against the
// same statements as raw SQL; cold start; memory.
import { performance } from "node:perf_hooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchBrowser } from "./browser.ts";
import { loadTestApart } from "./load.ts";
import { openPglite, openPostgres, type Db } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { buildApp } from "../../server/http/app.ts";
import { COUNT_CAP } from "../../server/entities/repository.ts";

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

const ROOT = resolve(import.meta.dirname, "../..");

/** The figures over `orders` orders; with `browser`, the console's too (it must be built: dist/console). */
export async function benchApi(orders: number, log: (line: string) => void, browser = false): Promise<Row[]> {
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
    if (!url) {
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

    const app = await buildApp({ db, consoleDir: join(ROOT, "dist/console") });
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
    const until = new Date().toISOString();
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();

    const query = `page=1&limit=10&pay_status=paid&order_time_gte=${encodeURIComponent(since)}&order_time_lte=${encodeURIComponent(until)}&sort=order_time&order=desc`;
    const api = () =>
      fetch(`${address}/merchant/order-list?${query}`, {
        headers: { authorization: `Bearer ${token}`, locale: "en", source: "pc" },
      }).then((r) => r.json());
    const first = await api();
    if (first.code !== 200) throw new Error(`order-list: ${JSON.stringify(first)}`);

    const where = `where agent_path like $1 and pay_status = $2 and order_time >= $3 and order_time <= $4`;
    const params = [`${path}%`, "paid", since, until];
    const pageSql = () =>
      db.query(`select * from "order" ${where} order by order_time desc, id desc limit 10 offset 0`, params);
    // The statements the API runs for a page and its total: the page, a count up to the cap, and the
    // planner's estimate when the count reaches the cap.
    const sameSql = async () => {
      const [, count] = await Promise.all([
        pageSql(),
        db.query<{ n: number }>(
          `select count(*)::int as n from (select 1 from "order" ${where} limit ${COUNT_CAP + 1}) s`,
          params,
        ),
      ]);
      if (count.rows[0].n > COUNT_CAP) await db.query(`explain (format json) select 1 from "order" ${where}`, params);
    };

    const runs = 101;
    const apiMs = await timeRuns(runs, api);
    const pageMs = await timeRuns(runs, pageSql);
    const bothMs = await timeRuns(runs, sameSql);
    rows.push([
      `order list via HTTP (median of ${runs}; total ${first.data.total}${first.data.total_exact ? "" : " est."})`,
      `${apiMs.toFixed(2)} ms`,
    ]);
    rows.push(["  the same statements as raw SQL (page, capped count, estimate)", `${bothMs.toFixed(2)} ms`]);
    rows.push(["  page query alone as raw SQL", `${pageMs.toFixed(2)} ms`]);
    rows.push([
      "  ratio HTTP / raw SQL (target <= 1.5)",
      `${(apiMs / bothMs).toFixed(2)}x (${(apiMs / pageMs).toFixed(2)}x vs page alone)`,
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
    // Throughput: 50 connections for 15 s on agent_a's order list and on one of its orders' detail.
    const { rows: latest } = await db.query<{ id: number }>(
      `select id from "order" where agent_path like $1 order by id desc limit 1`,
      [`${path}%`],
    );
    for (const [label, target] of [
      ["order list", `${address}/merchant/order-list?${query}`],
      ["order detail", `${address}/merchant/order-detail?id=${latest[0].id}`],
    ]) {
      const r = await loadTestApart(target, { authorization: `Bearer ${token}`, locale: "en" });
      rows.push([
        `${label}, 50 connections × 15 s (targets: >= 1,200/s and p99 < 50 ms on PostgreSQL, max < 1 s on PGlite)`,
        `${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, errors ${r.errors}`,
      ]);
    }
    rows.push([
      "server memory (RSS) after the load tests",
      `${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`,
    ]);
    if (browser) rows.push(...(await benchBrowser(address, 5)));
    rows.push(["server memory (RSS)", `${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MiB`]);
    await app.close();
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

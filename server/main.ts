// npm start: builds the console if it is missing or older than its sources, brings the database up to
// the schemas, seeds the demo data on first start (SEED=none skips it), serves console and API on PORT.
// The build and the seed run in processes of their own: the memory they take is given back before the
// server starts serving (DESIGN §8). npm start runs this file bundled (server/start.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DataDirLockedError, openDatabase, type Db } from "./db/db.ts";
import { migrate } from "./db/migrate.ts";
import { buildApp } from "./app.ts";
import { startDemoDevices } from "./seed/devices.ts";
import { startReleasing } from "./domain/money/orders.ts";
import { ROOT } from "./core/root.ts";
import { serveMetrics } from "./core/metrics.ts";
import { serveBackups } from "./db/backup.ts";

const CONSOLE_DIR = join(ROOT, "dist/console");
/** A start that a restart cannot fix (EX_CONFIG): npm start's supervisor (server/start.mjs) stops on it. */
const EXIT_CANNOT_START = 78;

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

async function ensureConsoleBuilt(): Promise<void> {
  const index = join(CONSOLE_DIR, "index.html");
  const sources = ["src", "locales", "index.html", "vite.config.ts"].map((p) => join(ROOT, p)).filter(existsSync);
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  console.log("Building the console (first start or sources changed)...");
  run(join(ROOT, "node_modules/vite/bin/vite.js"), ["build", "--logLevel", "warn"], process.env);
}

/** Runs a Node script of the project in its own process, stopping the start if it fails. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv): void {
  const { status, error } = spawnSync(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: "inherit" });
  if (status !== 0) throw error ?? new Error(`${script} ${args.join(" ")} failed (exit ${status})`);
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? "0.0.0.0";
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = process.env.DATA_DIR ?? join(ROOT, "data");
  const started = performance.now();

  if (process.env.SKIP_CONSOLE_BUILD !== "1") await ensureConsoleBuilt();

  const open = async (): Promise<Db> => {
    try {
      return await openDatabase({ databaseUrl, dataDir });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      console.error(error.message);
      process.exit(EXIT_CANNOT_START);
    }
  };
  // The database is created, and the demo data seeded, by processes of their own.
  const script = (path: string) =>
    run(join(ROOT, "node_modules/tsx/dist/cli.mjs"), [join(ROOT, path)], { ...process.env, DATA_DIR: dataDir });
  const seeding = process.env.SEED !== "none";
  const seed = () => {
    console.log("Empty database: seeding the demo data (SEED=none skips this)...");
    script("server/seed/cli.ts");
  };
  // A PGlite folder without a database yet is created (and seeded) before this process opens it: the
  // memory PGlite takes stays with the process after it is closed (a first start held 389 MiB instead of
  // 262 with the seed, 740 MiB without it).
  if (!databaseUrl && !existsSync(join(dataDir, "pgdata", "PG_VERSION"))) {
    if (seeding) seed();
    else script("server/db/create-cli.ts");
  }
  let db = await open();
  // Any other database without agents (PostgreSQL, a folder first started with SEED=none) the same way;
  // PGlite allows one process at a time, so the database is handed over and opened again after.
  const { rows: tables } = await db.query<{ agent: string | null }>(`select to_regclass('agent')::text as agent`);
  const agents = tables[0].agent
    ? (await db.query<{ n: number }>(`select count(*)::int as n from "agent"`)).rows[0].n
    : 0;
  if (agents === 0 && seeding) {
    await db.close();
    seed();
    db = await open();
  }
  const { statements } = await migrate(db);
  if (statements.length)
    console.log(`Database brought up to the schemas: ${statements.length} change(s), recorded in sys_migration.`);

  const app = await buildApp({
    db,
    consoleDir: CONSOLE_DIR,
    uploadDir: join(dataDir, "uploads"),
    // JSON lines on standard output: warnings and errors by default, each request too at LOG_LEVEL=info.
    logger: { level: process.env.LOG_LEVEL ?? (process.env.LOG === "1" ? "info" : "warn") },
    trustProxy: process.env.TRUST_PROXY,
  });
  await app.listen({ port, host });
  // Prometheus' figures on a port of their own, for whoever runs the servers (server/core/metrics.ts).
  const metricsPort = process.env.METRICS_PORT;
  const metrics = metricsPort
    ? await serveMetrics(Number(metricsPort), process.env.METRICS_HOST ?? "127.0.0.1")
    : undefined;
  // npm run backup asks a server on PGlite for the backup through a socket in its data folder.
  const stopBackups = databaseUrl ? undefined : await serveBackups(db, dataDir);
  const stopDevices = await startDemoDevices(db);
  // Profit shares past their profit days move from pending to withdrawable (domain/money/orders.ts).
  const stopReleasing = startReleasing(db);
  const memory = (process.memoryUsage().rss / 1024 / 1024).toFixed(0);
  console.log(
    `Merchant console ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${memory} MiB) on http://localhost:${port}/`,
  );
  console.log(`  database: ${databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`}`);
  if (metrics) console.log(`  metrics: http://${process.env.METRICS_HOST ?? "127.0.0.1"}:${metricsPort}/metrics`);
  console.log(
    `  API: http://localhost:${port}/merchant/openapi.json — sign in with POST /merchant/login { "account": "admin", "password": "admin123" }`,
  );
  // Under npm start's supervisor: it is told the server is serving (a crash before that is a failed start).
  process.send?.("ready", undefined, undefined, () => {});

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing the server and the database...`);
    stopDevices();
    stopReleasing();
    metrics?.close();
    await stopBackups?.();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // The supervisor gone (killed outright): the server closes rather than serve on, unsupervised.
  process.on("disconnect", () => void shutdown("Supervisor gone"));
}

await main();

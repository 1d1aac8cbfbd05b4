// The serving process's memory (DESIGN §8: under 400 MB RSS on PGlite with the demo data, after start
// and after load), measured on `npm start`'s own process from outside (/proc): started on an empty data
// folder (it creates and seeds the database), then started again on that folder; each time once it has
// been ready for 10 s, and after 50 connections for 20 s on agent_a's order list and on an order's detail.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Row } from "./api.ts";
import { loadTestApart } from "./load.ts";
import { freePort } from "../support/net.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The process's resident memory now and at its peak (VmRSS, VmHWM), in MiB. */
export function residentMiB(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { now: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * `npm start`'s command (package.json), run directly: a supervisor (server/start.mjs) whose child serves,
 * and whose pid the supervisor logs ("server started (pid N)"); the figures are the serving child's.
 */
export async function start(
  dataDir: string,
  port: number,
  log: (line: string) => void,
): Promise<{ child: ChildProcess; server: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(ROOT, "server/start.mjs")], { cwd: ROOT, env, stdio: "pipe" });
  let output = "";
  await new Promise<void>((ready, fail) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Merchant console ready")) ready();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => fail(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
  log(output.split("\n").find((line) => line.includes("Merchant console ready"))!);
  const pids = [...output.matchAll(/server started \(pid (\d+)\)/g)];
  if (!pids.length) throw new Error(`npm start did not say which process serves:\n${output}`);
  return { child, server: Number(pids[pids.length - 1][1]) };
}

export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  await exited;
}

async function load(address: string, log: (line: string) => void): Promise<void> {
  const login = (await fetch(`${address}/merchant/login`, {
    method: "POST",
    headers: { "content-type": "application/json", locale: "en" },
    body: JSON.stringify({ account: "agent_a", password: "demo123" }),
  }).then((r) => r.json())) as { data: { token: string } };
  const headers = { authorization: `Bearer ${login.data.token}`, locale: "en" };
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const list = `${address}/merchant/order-list?page=1&limit=10&pay_status=paid&order_time_gte=${encodeURIComponent(since)}&sort=order_time&order=desc`;
  const { data } = (await fetch(list, { headers }).then((r) => r.json())) as { data: { list: { id: number }[] } };
  if (!data.list.length) throw new Error("agent_a has no paid orders in the last 30 days to load");
  const results = [];
  for (const url of [list, `${address}/merchant/order-detail?id=${data.list[0].id}`]) {
    const r = await loadTestApart(url, headers);
    if (r.errors) throw new Error(`${r.errors} errors under load on ${url}`);
    results.push(`${r.perSecond.toFixed(0)}/s`);
  }
  log(`  load: order list ${results[0]}, order detail ${results[1]}`);
}

export async function benchServerMemory(log: (line: string) => void): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-memory-"));
  const rows: Row[] = [];
  const mib = (value: number) => `${value.toFixed(0)} MiB`;
  try {
    for (const which of ["first start (creates and seeds the demo data)", "restart on the seeded data"]) {
      const port = await freePort();
      const { child, server } = await start(dir, port, log);
      try {
        await sleep(10_000); // the demo devices' first reports, the caches filled
        rows.push([
          `server RSS (PGlite, demo data), ${which}, 10 s after ready (target < 400 MB)`,
          mib(residentMiB(server).now),
        ]);
        await load(`http://127.0.0.1:${port}`, log);
        const after = residentMiB(server);
        rows.push([
          `  after 50 connections × 20 s on the order list, then on a detail (target < 400 MB)`,
          `${mib(after.now)} (peak ${mib(after.peak)})`,
        ]);
      } finally {
        await stop(child);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

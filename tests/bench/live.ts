// Live screens (issue 32), measured on `npm start`'s serving process (PGlite, the demo data): the delay from
// a write's answer to the change on another tab's screen (a browser on agent_a's outlet list, an outlet
// renamed through the API by another session), p50 and p99 of 40; the memory and the processor time of
// 500 idle streams; and what 50 open streams cost writes: outlet groups added through the API by 20
// connections for 10 s (asking for up to 1,000 a second), without streams and then with 50, the writes done a
// second and the server's processor time per 1,000 writes.
import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import type { Row } from "./api.ts";
import { residentMiB, start, stop } from "./memory.ts";
import { ensureChromium } from "../support/chromium.ts";
import { freePort } from "../support/net.ts";

/** The process's processor time so far (user + system), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 a second)
}

async function signIn(address: string, account: string, password: string): Promise<string> {
  const answer = (await fetch(`${address}/merchant/login`, {
    method: "POST",
    headers: { "content-type": "application/json", locale: "en" },
    body: JSON.stringify({ account, password }),
  }).then((r) => r.json())) as { data: { token: string } };
  return answer.data.token;
}

/** Opens a stream and waits for its first message; returns how to close it. */
async function openStream(address: string, token: string): Promise<() => void> {
  const abort = new AbortController();
  const response = await fetch(`${address}/merchant/live-events`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  let text = "";
  while (!text.includes("event: ")) text += new TextDecoder().decode((await reader.read()).value);
  // Read on (and drop) whatever comes, as a browser would.
  void (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // closed
    }
  })();
  return () => abort.abort();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function writes(address: string, token: string, seconds: number): Promise<{ done: number; failed: number }> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  let n = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const began = Date.now();
      const response = await fetch(`${address}/merchant/shop-cate-add`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", locale: "en" },
        body: JSON.stringify({ name: `Bench group ${process.pid}-${++n}`, sort: 1 }),
      });
      await response.arrayBuffer();
      if (response.ok) done++;
      else failed++;
      // 20 workers at most 50 a second each: up to 1,000 writes a second.
      await sleep(Math.max(0, 20 - (Date.now() - began)));
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return { done, failed };
}

export async function benchLive(log: (line: string) => void): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-live-"));
  const rows: Row[] = [];
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const { child, server } = await start(dir, port, log);
  try {
    const [reader, writer, admin] = await Promise.all([
      signIn(address, "agent_a", "demo123"),
      signIn(address, "agent_a", "demo123"),
      signIn(address, "admin", "admin123"),
    ]);

    // The delay: from a rename's answer to the row's new name on the other tab's list.
    const browser = await chromium.launch({
      executablePath: ensureChromium(),
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: "block" });
      await context.addInitScript((token) => localStorage.setItem("merchant_token", token), reader);
      const page = await context.newPage();
      await page.goto(`${address}/login`);
      await page.locator("#account").fill("agent_a");
      await page.locator("#password").fill("demo123");
      await page.locator("button[type=submit]").click();
      await page.waitForURL(`${address}/`);
      await page.goto(`${address}/shop/list`);
      const first = page.locator(".ant-table-tbody tr.ant-table-row").first();
      await first.waitFor({ timeout: 60_000 });
      const id = Number(await first.getAttribute("data-row-key"));
      const headers = { authorization: `Bearer ${writer}`, "content-type": "application/json", locale: "en" };
      const delays: number[] = [];
      for (let i = 0; i < 40; i++) {
        const name = `Live bench ${i}`;
        const seen = page.waitForFunction(
          ([key, text]) => {
            const row = document.querySelector(`.ant-table-tbody tr[data-row-key="${key}"]`);
            return row?.textContent?.includes(text) ? Date.now() : false;
          },
          [String(id), name] as const,
          { polling: "raf", timeout: 20_000 },
        );
        const record = (
          (await fetch(`${address}/merchant/shop-detail?id=${id}`, { headers }).then((r) => r.json())) as {
            data: Record<string, unknown>;
          }
        ).data;
        const response = await fetch(`${address}/merchant/shop-update`, {
          method: "POST",
          headers,
          body: JSON.stringify({ ...record, name }),
        });
        if (!response.ok) throw new Error(`shop-update ${response.status} ${await response.text()}`);
        const answered = Date.now();
        const shownAt = Number(await (await seen).jsonValue());
        delays.push(shownAt - answered);
        await sleep(250);
      }
      delays.sort((a, b) => a - b);
      rows.push([
        "live: a write's answer → the other tab's list shows it, p50 / p99 of 40 (target < 2,000 ms)",
        `${percentile(delays, 0.5)} ms / ${percentile(delays, 0.99)} ms`,
      ]);
      await context.close();
    } finally {
      await browser.close();
    }

    // 500 idle streams: memory, and processor time over 30 s.
    const before = residentMiB(server).now;
    const streams: (() => void)[] = [];
    for (let i = 0; i < 500; i++) streams.push(await openStream(address, i % 2 ? reader : admin));
    await sleep(5_000);
    const held = residentMiB(server).now;
    const cpu0 = cpuSeconds(server);
    await sleep(30_000);
    const idleCpu = cpuSeconds(server) - cpu0;
    rows.push([
      "live: 500 idle streams, the server's memory before → with them (per stream)",
      `${before.toFixed(0)} → ${held.toFixed(0)} MiB (${(((held - before) * 1024) / 500).toFixed(1)} KiB)`,
    ]);
    rows.push(["live: 500 idle streams, the server's processor time over 30 s", `${(idleCpu * 1000).toFixed(0)} ms`]);
    for (const close of streams.splice(0)) close();
    await sleep(2_000);

    // Writes without streams, then with 50 open.
    for (const open of [0, 50]) {
      for (let i = 0; i < open; i++) streams.push(await openStream(address, i % 2 ? reader : admin));
      const cpu = cpuSeconds(server);
      const { done, failed } = await writes(address, writer, 10);
      const used = cpuSeconds(server) - cpu;
      rows.push([
        `live: writes asked at up to 1,000/s for 10 s with ${open} streams open: done a second, server processor time per 1,000`,
        `${(done / 10).toFixed(0)}/s${failed ? ` (${failed} failed)` : ""}, ${((used * 1000) / (done / 1000)).toFixed(0)} ms`,
      ]);
      for (const close of streams.splice(0)) close();
      await sleep(2_000);
    }
    log(`  live: server memory after ${residentMiB(server).now.toFixed(0)} MiB`);
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

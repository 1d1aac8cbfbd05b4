// npm run bench's file figures (issue 27): a server in a process of its own gets the hostile files of the
// fuzz suite (tests/support/hostile-files.ts) on every call that takes a file, ten 95 MB video uploads at
// once against a 200 MB daily quota, and eight uploads that trickle in and are abandoned, while a prober
// lists goods every 100 ms. Printed: the answers (5xx: none), how long the prober waited at worst (target:
// under 1 s), and the server's memory before and at its peak.
import { spawn } from "node:child_process";
import { mkdtempSync, openAsBlob, readFileSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Row } from "./api.ts";
import { writeHostileFiles } from "../support/hostile-files.ts";
import { holdUpload } from "../support/trickle.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const MB = 1024 * 1024;

function memoryMiB(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { now: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** An MP4 of `bytes`: an ftyp box (what file-type reads) and zeros. */
async function writeVideo(path: string, bytes: number): Promise<void> {
  const handle = await open(path, "w");
  try {
    const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2")]);
    await handle.write(Buffer.concat([ftyp, Buffer.from([0, 0, 0, 8]), Buffer.from("free")]));
    const zeros = Buffer.alloc(MB);
    for (let written = 0; written < bytes; written += MB) await handle.write(zeros);
  } finally {
    await handle.close();
  }
}

export async function benchFiles(log: (line: string) => void): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-files-"));
  // Node itself runs the server (tsx as a loader, not its CLI's own child), so its pid is the server's.
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "tests/bench/files-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const line = await new Promise<string>((ready, fail) => {
      createInterface({ input: child.stdout! }).once("line", ready);
      child.once("exit", (code) => fail(new Error(`the bench's file server exited (${code})`)));
    });
    const { base, tokens } = JSON.parse(line) as { base: string; tokens: Record<string, string> };
    const headers = (account: string) => ({ authorization: `Bearer ${tokens[account]}`, locale: "en" });
    const files = await writeHostileFiles(join(dir, "files"));
    const video = join(dir, "video.mp4");
    await writeVideo(video, 95 * MB);
    const before = memoryMiB(child.pid!);

    // The prober: one list call every 100 ms, timed from the outside.
    let probing = true;
    const waits: number[] = [];
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        const reply = await fetch(`${base}/merchant/goods-list?page=1&limit=10`, { headers: headers("agent_b") });
        await reply.arrayBuffer();
        waits.push(reply.status === 200 ? performance.now() - started : Infinity);
        await new Promise((done) => setTimeout(done, 100));
      }
    })();

    // Eight uploads that send 4 KB of their 5 MB and stop, held until the end (the admin's branch).
    const held = Array.from({ length: 8 }, () => holdUpload(base, tokens.admin, { announce: 5 * MB, send: 4096 }));
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const post = async (path: string, file: string, name: string, account = "admin") => {
      const form = new FormData();
      form.append("file", await openAsBlob(file), name);
      const reply = await fetch(`${base}${path}`, { method: "POST", headers: headers(account), body: form });
      await reply.arrayBuffer();
      return reply.status;
    };
    const started = performance.now();
    const jobs = files.flatMap((file) =>
      [
        "/merchant/machine-import-check",
        "/merchant/machine-import-confirm",
        "/merchant/upload?entity=goods&field=pic_url",
      ].map((path) => () => post(path, file.path, file.name)),
    );
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let job = jobs.shift(); job; job = jobs.shift()) count(await job());
      }),
    );
    const hostileSeconds = (performance.now() - started) / 1000;
    // Ten 95 MB videos at once, from one branch whose quota holds two.
    const videoStarted = performance.now();
    const videos = await Promise.all(
      Array.from({ length: 10 }, () =>
        post("/merchant/upload?entity=machine_ad&field=video", video, "ad.mp4", "agent_a"),
      ),
    );
    const videoSeconds = (performance.now() - videoStarted) / 1000;
    for (const request of held) request.close();
    probing = false;
    await prober;
    const after = memoryMiB(child.pid!);

    waits.sort((a, b) => a - b);
    const worst = waits[waits.length - 1];
    const p99 = waits[Math.floor(waits.length * 0.99)];
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    log(`  files: done (${waits.length} prober calls)`);
    const tally = (list: number[]) =>
      [...new Set(list)]
        .sort()
        .map((s) => `${list.filter((x) => x === s).length} × ${s}`)
        .join(", ");
    return [
      [
        `files: hostile files × 3 calls (${files.length} files), answers`,
        `${[...statuses].map(([s, n]) => `${n} × ${s}`).join(", ")} in ${hostileSeconds.toFixed(1)} s`,
      ],
      ["files: 5xx answers", String(fivexx + videos.filter((s) => s >= 500).length)],
      ["files: ten 95 MB videos at once (quota 200 MB a day)", `${tally(videos)} in ${videoSeconds.toFixed(1)} s`],
      [
        `files: prober's list calls meanwhile (${waits.length}), worst / p99 (target worst < 1 s)`,
        `${Number.isFinite(worst) ? `${worst.toFixed(0)} ms` : "a call failed"} / ${p99.toFixed(0)} ms`,
      ],
      [
        "files: the server's RSS before / at its peak (in-memory PGlite, test data)",
        `${before.now.toFixed(0)} / ${after.peak.toFixed(0)} MiB (+${(after.peak - before.now).toFixed(0)} MiB)`,
      ],
    ];
  } finally {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run alone: npx tsx tests/bench/files.ts
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = await benchFiles((line) => console.error(line));
  for (const [label, value] of rows) console.log(`${label.padEnd(80)}  ${value}`);
}

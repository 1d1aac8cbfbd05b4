// npm start: bundles the server's TypeScript into dist/server/main.mjs (esbuild, in a process of its own,
// about half a second) and runs that bundle with Node alone. Run through tsx instead, the serving process
// also held tsx's compiler thread and the transformed sources: about 70 MiB more RSS on the demo data
// (DESIGN §8 asks for under 400 MB). Packages stay in node_modules, imported as they are.
//
// This process then supervises the server, run as a child process: a server that crashes (an exception,
// a heap out of memory, SIGKILL from the kernel's OOM killer) is started again after a back-off that grows
// (0.5 s, 1 s, 2 s, ... up to 10 s; back to 0.5 s once a server has served for 60 s), and each restart is
// said in one line. A server that dies before it is ready 5 times in a row is a start that cannot succeed:
// the supervisor stops, saying so, with exit code 1. A crash after the server was ready is always restarted,
// with the back-off: a request that crashes the server (the hostile upload that was the reason for this)
// must not be able to stop it for good. Exit codes: the server's own when it stops cleanly or is stopped
// (0), 78 when it cannot start and a restart cannot help (its data folder is in use by another server;
// server/main.ts), 1 for a crash loop or a failed bundle, 128 + n when the server had to be killed by
// signal n. SIGTERM and SIGINT are passed on to the server, which closes cleanly; a second one, or a
// server still running 15 s later, gets SIGKILL.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, renameSync, rmSync } from "node:fs";
import { constants } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = dirname(import.meta.dirname);
const BUNDLE = join(ROOT, "dist/server/main.mjs");

const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 10_000;
/** A server that has served this long starts the back-off over at its next crash. */
const SERVED_MS = 60_000;
/** Servers dying before they are ready, in a row, that make a crash loop. */
const FAILED_STARTS = 5;
const KILL_AFTER_MS = 15_000;
/** The server's exit code for a start a restart cannot fix (EX_CONFIG; server/main.ts). */
const EXIT_CANNOT_START = 78;
/** The server's heap limit unless NODE_OPTIONS or node's own options set one: a runaway allocation ends in
 * a crash, restarted, rather than in a machine swapping. */
const HEAP_MB = 1536;

// Written in a folder of this process's own, then renamed into place (each file at once): a server started
// meanwhile by another `npm start` (another data folder, a test beside it) never reads a half-written bundle.
const WRITING = join(dirname(BUNDLE), `.bundling-${process.pid}`);
const { status, error } = spawnSync(
  join(ROOT, "node_modules/.bin/esbuild"),
  [
    "server/main.ts",
    "--bundle",
    "--platform=node",
    "--format=esm",
    "--target=node20",
    "--packages=external",
    "--sourcemap",
    "--log-level=warning",
    `--outfile=${join(WRITING, "main.mjs")}`,
  ],
  { cwd: ROOT, stdio: "inherit" },
);
if (status !== 0) {
  rmSync(WRITING, { recursive: true, force: true });
  console.error(`Bundling the server failed${error ? `: ${error.message}` : ""}.`);
  process.exit(1);
}
// The map first: the bundle names it, and is the file a server reads.
renameSync(join(WRITING, "main.mjs.map"), `${BUNDLE}.map`);
renameSync(join(WRITING, "main.mjs"), BUNDLE);
rmSync(WRITING, { recursive: true, force: true });

const log = (line) => console.error(`[supervisor ${new Date().toISOString()}] ${line}`);

// Node's options for the server: this process's own (a debugger's excepted: its port is taken here), and
// the heap limit.
const nodeOptions = process.execArgv.filter((option) => !/^--(inspect|debug)/.test(option));
const heapLimitSet = /--max[-_]old[-_]space[-_]size/.test(`${process.env.NODE_OPTIONS ?? ""} ${nodeOptions.join(" ")}`);
if (!heapLimitSet) nodeOptions.push(`--max-old-space-size=${HEAP_MB}`);

/** The data folder's lock (server/db/db.ts), which a server killed outright leaves behind. */
const lockFile = process.env.DATABASE_URL
  ? undefined
  : join(resolve(process.env.DATA_DIR ?? join(ROOT, "data")), "server.lock");

let server; // the running server's process, if any
let crashes = 0; // in a row, for the back-off
let failedStarts = 0; // servers dead before they were ready, in a row
let stopping; // the signal this process was asked to stop by
let restartTimer;

function start() {
  const child = spawn(process.execPath, [...nodeOptions, BUNDLE], { stdio: ["inherit", "inherit", "inherit", "ipc"] });
  server = child;
  const started = Date.now();
  let ready = false;
  let servedTimer;
  log(`server started (pid ${child.pid})`);
  child.on("message", (message) => {
    if (message !== "ready" || ready) return;
    ready = true;
    failedStarts = 0;
    servedTimer = setTimeout(() => (crashes = 0), SERVED_MS);
    servedTimer.unref();
  });
  child.on("error", (error) => {
    // Not started at all (no process to wait for): nothing a restart would change.
    if (child.pid !== undefined) return;
    log(`the server could not be started: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    clearTimeout(servedTimer);
    server = undefined;
    releaseLock(child.pid);
    const reason = code !== null ? `exit code ${code}` : `signal ${signal}`;
    if (stopping) {
      log(`server (pid ${child.pid}) stopped (${reason})`);
      process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
    }
    if (code === 0) {
      log(`server (pid ${child.pid}) stopped (exit code 0)`);
      process.exit(0);
    }
    if (code === EXIT_CANNOT_START) {
      log(`the server cannot start (exit code ${code}: see its message above); not restarting it.`);
      process.exit(EXIT_CANNOT_START);
    }
    crashes++;
    if (!ready) failedStarts++;
    const ran = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    if (failedStarts >= FAILED_STARTS) {
      log(
        `crash loop: the server died ${failedStarts} times in a row before it was ready (last: ${reason}); ` +
          `not restarting it again. Its own messages above say why: look at the database (DATABASE_URL, ` +
          `DATA_DIR), PORT and HOST, and, after "heap out of memory", the heap limit ` +
          `(NODE_OPTIONS=--max-old-space-size=<MB>, ${HEAP_MB} by default).`,
      );
      process.exit(1);
    }
    const delay = Math.min(BACKOFF_FIRST_MS * 2 ** (crashes - 1), BACKOFF_MAX_MS);
    log(
      `server (pid ${child.pid}) crashed (${reason}) after ${ran}${ready ? "" : ", before it was ready"}; ` +
        `restarting in ${delay} ms`,
    );
    restartTimer = setTimeout(start, delay);
  });
}

/**
 * The lock a server killed outright leaves is taken over by the next one (db.ts: its PID is not alive);
 * removed here as well, so that another process given the dead server's PID in between cannot pass for it.
 */
function releaseLock(pid) {
  if (!lockFile) return;
  try {
    if (readFileSync(lockFile, "utf8").trim() === String(pid)) rmSync(lockFile, { force: true });
  } catch {
    // no lock left: nothing to do
  }
}

function stop(signal) {
  if (stopping) {
    if (server) {
      log(`${signal} again: killing the server (pid ${server.pid})`);
      server.kill("SIGKILL");
    }
    return;
  }
  stopping = signal;
  if (!server) {
    clearTimeout(restartTimer);
    log(`${signal}: stopped while waiting to restart the server`);
    process.exit(0);
  }
  server.kill(signal);
  setTimeout(() => {
    log(`the server (pid ${server?.pid}) did not stop within ${KILL_AFTER_MS / 1000} s: killing it`);
    server?.kill("SIGKILL");
  }, KILL_AFTER_MS).unref();
}

process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
start();

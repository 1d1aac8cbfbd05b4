// `npm start` supervises the server (server/start.mjs): the server killed outright is started again on the
// same port and data folder, a server that cannot get going stops the supervisor with a crash loop's
// message, SIGTERM stops both cleanly, and a data folder in use by another server is refused at once.
// npm start's command runs as a user runs it, on a new data folder (SEED=none, the console not built).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { ROOT } from "./harness.ts";
import { freePort } from "../support/net.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
const dataDir = mkdtempSync(join(tmpdir(), "supervisor-test-"));
/** Waits on what a user would see, on a busy machine. */
const WAIT = { timeout: 60_000, interval: 100 };

interface Run {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** The servers' PIDs, as the supervisor names them when it starts each. */
  servers: () => number[];
}

const runs: Run[] = [];

function npmStart(env: NodeJS.ProcessEnv): Run {
  const [command, ...args] = pkg.scripts.start.split(" ");
  const full: NodeJS.ProcessEnv = { ...process.env, HOST: "127.0.0.1", SEED: "none", SKIP_CONSOLE_BUILD: "1" };
  delete full.DATABASE_URL;
  delete full.NODE_ENV; // as from a shell, not vitest's "test"
  const child = spawn(command === "node" ? process.execPath : command, args, {
    cwd: ROOT,
    env: { ...full, ...env },
    stdio: "pipe",
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const run: Run = {
    process: child,
    output: () => output,
    exited: new Promise((done) => child.once("exit", done)),
    servers: () => [...output.matchAll(/server started \(pid (\d+)\)/g)].map((match) => Number(match[1])),
  };
  runs.push(run);
  return run;
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** The API's answer to a failed sign-in: the database read and written. 0 while nothing answers. */
const signIn = (url: string) =>
  fetch(`${url}/merchant/login`, {
    method: "POST",
    headers: { "content-type": "application/json", locale: "en" },
    body: JSON.stringify({ account: "nobody", password: "not-the-password" }),
  }).then(
    (answer) => answer.status,
    () => 0,
  );

let serving: Run;
let url = "";

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  serving = npmStart({ PORT: String(port), DATA_DIR: dataDir });
  // The database is created first, in a process of its own.
  await vi.waitFor(
    () => {
      if (serving.process.exitCode !== null)
        throw new Error(`npm start exited before it was ready:\n${serving.output()}`);
      expect(serving.output()).toContain("Merchant console ready");
    },
    { ...WAIT, timeout: 110_000 },
  );
});

afterAll(async () => {
  for (const run of runs) {
    // The supervisor's servers too, should a test have left one (the supervisor killed outright ends its server).
    for (const pid of run.servers()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    if (run.process.exitCode === null && run.process.signalCode === null) run.process.kill("SIGKILL");
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test("a second npm start on a data folder in use stops at once, with the lock's message and exit code 78", async () => {
  const second = npmStart({ PORT: String(await freePort()), DATA_DIR: dataDir });
  expect(await second.exited).toBe(78);
  const [server] = serving.servers();
  expect(second.output()).toContain(`The data folder ${dataDir} is in use by another server (pid ${server})`);
  expect(second.output()).toContain(
    "the server cannot start (exit code 78: see its message above); not restarting it.",
  );
  expect(second.output()).not.toContain("restarting in");
  expect(second.servers()).toHaveLength(1);
  expect(await signIn(url)).toBe(401); // the first one serves on
});

test("the server killed outright (SIGKILL) is restarted, on the same port and data folder", async () => {
  const [server] = serving.servers();
  expect(server).toBeGreaterThan(0);
  expect(await signIn(url)).toBe(401);

  const killed = performance.now();
  process.kill(server, "SIGKILL");
  await expect
    .poll(() => serving.output(), WAIT)
    .toMatch(
      new RegExp(`server \\(pid ${server}\\) crashed \\(signal SIGKILL\\) after [\\d.]+ s; restarting in 500 ms`),
    );
  await expect.poll(() => signIn(url), WAIT).toBe(401);
  console.log(
    `SIGKILL to the server -> the API answering again: ${((performance.now() - killed) / 1000).toFixed(1)} s`,
  );

  const servers = serving.servers();
  expect(servers).toHaveLength(2);
  expect(servers[1]).not.toBe(server);
  expect(count(serving.output(), "Merchant console ready")).toBe(2);
  // The dead server's lock was taken over by the new one.
  expect(readFileSync(join(dataDir, "server.lock"), "utf8")).toBe(String(servers[1]));
  expect(serving.process.exitCode).toBeNull();
});

test("SIGTERM to npm start closes the server cleanly and ends with exit code 0", async () => {
  const server = serving.servers().at(-1)!;
  serving.process.kill("SIGTERM");
  expect(await serving.exited).toBe(0);
  expect(serving.output()).toContain("SIGTERM: closing the server and the database...");
  expect(serving.output()).toContain(`server (pid ${server}) stopped (exit code 0)`);
  expect(existsSync(join(dataDir, "server.lock"))).toBe(false);
  expect(await signIn(url)).toBe(0);
});

test("a server that dies before it is ready, every time, stops npm start with a crash loop's message", async () => {
  // A database that is not there: the server fails as it opens it, at each start.
  const closed = await freePort();
  const started = performance.now();
  const loop = npmStart({
    PORT: String(await freePort()),
    DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/merchant`,
  });
  expect(await loop.exited).toBe(1);
  const seconds = (performance.now() - started) / 1000;
  console.log(`crash loop stopped after ${seconds.toFixed(1)} s`);
  const output = loop.output();
  expect(output).toContain("ECONNREFUSED");
  for (const delay of [500, 1000, 2000, 4000])
    expect(output).toContain(`before it was ready; restarting in ${delay} ms`);
  expect(count(output, "restarting in")).toBe(4);
  expect(loop.servers()).toHaveLength(5);
  expect(output).toContain(
    "crash loop: the server died 5 times in a row before it was ready (last: exit code 1); not restarting it again.",
  );
  expect(output).toContain("look at the database (DATABASE_URL, DATA_DIR), PORT and HOST");
  expect(output).not.toContain("Merchant console ready");
  // 7.5 s of back-off and five starts of the server (44 s in all on two cores under a load of 13).
  expect(seconds).toBeLessThan(150);
}, 180_000);

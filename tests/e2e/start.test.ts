// `npm start` as a user runs it, on a new data folder: the server bundled by esbuild (server/start.mjs)
// creates the database in a process of its own, serves the console and the API with its messages from
// the locale files (found from the bundle's place in dist/server), and stops cleanly on SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROOT } from "./harness.ts";
import { freePort } from "../support/net.ts";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
const dataDir = mkdtempSync(join(tmpdir(), "start-test-"));
let child: ChildProcess;
let output = "";
let url = "";

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const [command, ...args] = pkg.scripts.start.split(" ");
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir };
  env.SEED = "none"; // the demo seed is the seed's own tests'; this is about the start
  delete env.DATABASE_URL;
  delete env.NODE_ENV; // as from a shell, not vitest's "test"
  child = spawn(command === "node" ? process.execPath : command, args, { cwd: ROOT, env, stdio: "pipe" });
  await new Promise<void>((ready, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Merchant console ready")) ready();
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", (code) => fail(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

test("npm start runs the bundled server, which creates the database apart and serves the console and the API", async () => {
  expect(pkg.scripts.start).toBe("node server/start.mjs");
  expect(existsSync(join(ROOT, "dist/server/main.mjs"))).toBe(true);
  // Created by its own process, which brought it up to the schemas: nothing left for the server to do.
  expect(output).toMatch(/Database created: \d+ change\(s\)/);
  expect(output).not.toContain("Database brought up to the schemas");

  const page = await fetch(`${url}/goods/list`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(await page.text()).toBe(readFileSync(join(ROOT, "dist/console/index.html"), "utf8"));

  for (const lng of ["zh", "km"]) {
    const errors = JSON.parse(readFileSync(join(ROOT, "locales", lng, "errors.json"), "utf8")) as Record<
      string,
      string
    >;
    const answer = await fetch(`${url}/merchant/goods-list?page=1&limit=10`, { headers: { locale: lng } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ code: 401, message: errors.unauthorized, data: null });
  }

  const exited = new Promise<number | null>((done) => child.once("exit", done));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(output).toContain("SIGTERM: closing the server and the database...");
  expect(existsSync(join(dataDir, "server.lock"))).toBe(false);
});

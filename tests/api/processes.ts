// Server processes of their own on one PostgreSQL schema (tests/api/server-process.ts), for the tests of
// several instances: started on the schema a test prepared, stopped at its end.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";

export interface ServerProcess {
  child: ChildProcess;
  base: string;
}

/** A server on the schema, answered once it listens. */
export function startServer(schema: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "server-process.ts")], {
    env: { ...process.env, ...env, TEST_SCHEMA: schema },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) =>
      resolve({ child, base: (JSON.parse(line) as { base: string }).base }),
    );
  });
}

/** Stops it (SIGTERM: it closes its app and database), once it has exited. */
export const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

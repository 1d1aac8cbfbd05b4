// A load test: `connections` keep-alive connections each sending one request after another for
// `seconds`, as a load generator does; requests per second, latency percentiles and the errors (any
// answer but 200, or a failed connection). It runs in a process of its own (`loadTestApart`), so that the
// generator does not share the server's event loop.
import { execFile } from "node:child_process";
import http from "node:http";
import { resolve } from "node:path";
import { promisify } from "node:util";

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export async function loadTest(
  url: string,
  headers: Record<string, string>,
  connections = 50,
  seconds = 15,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on("end", () => {
          latencies.push(performance.now() - start);
          if (response.statusCode !== 200) errors++;
          resolve();
        });
      });
      request.on("error", () => {
        errors++;
        resolve();
      });
    });
  const begin = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await once();
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? 0,
    errors,
  };
}

const ROOT = resolve(import.meta.dirname, "../..");

/** The same test from a separate Node process (this file run by tsx), answered as JSON. */
export async function loadTestApart(url: string, headers: Record<string, string>): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [resolve(ROOT, "node_modules/tsx/dist/cli.mjs"), import.meta.filename, url, JSON.stringify(headers)],
    { cwd: ROOT, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as LoadResult;
}

if (process.argv[1] === import.meta.filename) {
  const [url, headers] = process.argv.slice(2);
  console.log(JSON.stringify(await loadTest(url, JSON.parse(headers) as Record<string, string>)));
}

// A load test: `connections` keep-alive connections each sending one request after another for
// `seconds` (autocannon): requests per second, latency percentiles and the errors (any answer but 2xx, a
// failed connection or a timeout). It runs in a process of its own (`loadTestApart`), so that the
// generator does not share the server's event loop. autocannon writes each request once and parses the
// answers with less work than node:http's client: on the bench's two cores, which the generator shares
// with the server and the database, the same server gave 6-15 % more per second under it (three runs
// each, alternated, 2026-11-27: 1,908-1,950/s under node:http's client, 2,069-2,192/s under autocannon).
import autocannon from "autocannon";
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";

/** DESIGN §8: 50 connections for 20 s. */
export const LOAD = { connections: 50, seconds: 20 };

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
  connections = LOAD.connections,
  seconds = LOAD.seconds,
): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return {
    requests: result.requests.total,
    perSecond: result.requests.total / result.duration,
    // Latencies of the 2xx answers (autocannon records no other); every other answer counts as an error.
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.non2xx,
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

// What the server counts for Prometheus (issue 34, "Watch it"), with prom-client, the library the Node
// ecosystem uses for it: requests by call and status and their latency, the database's connections and
// the wait for one (or for a turn at PGlite), the event loop's delay and the process (prom-client's
// default metrics), the password hashing's slots and queue, sign-ins refused by the throttle, ledger
// postings by kind. Served on a port of its own when METRICS_PORT is set (`serveMetrics`, server/main.ts),
// never on the console's port: the figures are for whoever runs the servers, not for its users.
import { createServer, type Server } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds: from a fast list (a few ms) to an export or an import (tens of seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const requests = new Counter({
  name: "console_http_requests_total",
  help: "Requests answered, by call (the route, e.g. /merchant/order-list), method and status",
  labelNames: ["call", "method", "status"] as const,
  registers: [registry],
});

export const latency = new Histogram({
  name: "console_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer sent, by call and method",
  labelNames: ["call", "method"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const databaseWait = new Histogram({
  name: "console_db_wait_seconds",
  help: "Time a call waited for the database: a pooled connection (PostgreSQL) or its turn (PGlite)",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const signInThrottled = new Counter({
  name: "console_sign_in_throttled_total",
  help: "Sign-ins refused by the throttle (429): too many failures for an account or from an address",
  registers: [registry],
});

export const ledgerPostings = new Counter({
  name: "console_ledger_postings_total",
  help: "Ledger entries posted, by kind (a posting in a transaction that was then rolled back included)",
  labelNames: ["kind"] as const,
  registers: [registry],
});

/** What a database reports of its connections: in use, idle and callers waiting for one. */
export interface PoolState {
  kind: "pglite" | "postgres";
  /** Connections (PostgreSQL) or calls at work (PGlite's turns). */
  busy: number;
  idle: number;
  waiting: number;
}

/** The running app's database, read at each scrape (the last app built in this process). */
let poolOf: (() => PoolState) | undefined;
export const watchPool = (read: (() => PoolState) | undefined): void => void (poolOf = read);

new Gauge({
  name: "console_db_pool",
  help: "The database's connections by state (PGlite: calls at work and waiting for their turn)",
  labelNames: ["database", "state"] as const,
  registers: [registry],
  collect() {
    this.reset();
    const pool = poolOf?.();
    if (!pool) return;
    for (const state of ["busy", "idle", "waiting"] as const) this.set({ database: pool.kind, state }, pool[state]);
  },
});

/** The password hashing's slots in use and callers queued (server/core/passwords.ts sets the reader). */
let hashingOf: (() => { busy: number; queued: number }) | undefined;
export const watchHashing = (read: () => { busy: number; queued: number }): void => void (hashingOf = read);

new Gauge({
  name: "console_password_hashing",
  help: "Password hashes at work and waiting for a slot (past the queue's bound a sign-in is refused, 503)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const hashing = hashingOf?.() ?? { busy: 0, queued: 0 };
    this.set({ state: "busy" }, hashing.busy);
    this.set({ state: "queued" }, hashing.queued);
  },
});

/** Serves GET /metrics (Prometheus' text format) on a port of its own; anything else is a 404. */
export async function serveMetrics(port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}

// Watching a running server (issue 34): every request has an id, carried in its answer's `x-request-id`
// and in each of its log lines (Fastify's logger: JSON, one object a line); every answer is counted for
// Prometheus (server/core/metrics.ts); `/healthz` says the process answers and `/readyz` whether it can
// serve (its database reachable and at this version's schemas) and its licence's state. Both are public,
// need no session and answer nothing of the data.
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/db.ts";
import type { Gate } from "../core/gate.ts";
import { latency, requests, watchPool } from "../core/metrics.ts";
import { missingColumns } from "../db/migrate.ts";
import { licenceState, type LicenceKeys } from "../domain/licence/index.ts";

export const REQUEST_ID_HEADER = "x-request-id";
/** A request id a proxy in front may send (kept, so its logs and ours name the request alike). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the proxy's id when it is one, else a new UUID. */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === "string" && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * What the logger may write of a request and its answer: method, path (without the query, where a search
 * or a phone number may be), the route, the client's address, the status. Never a header (the session's
 * token is one) nor a body (passwords are in some).
 */
export const LOG_SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    path: request.url.split("?")[0],
    route: request.routeOptions?.url,
    address: request.ip,
  }),
  res: (reply: { statusCode: number }) => ({ status: reply.statusCode }),
};

/** A readiness answer read at most once a second, whoever asks (a load balancer polls every few seconds). */
const READY_FOR_MS = 1000;
/** How long the database may take to answer `select 1` before the server counts as not ready. */
const DATABASE_TIMEOUT_MS = 2000;

interface Readiness {
  ready: boolean;
  database: "ok" | "unreachable";
  /** Columns this version's schemas want that the database lacks: 0 once migrated. */
  migrations: "done" | "pending";
  licence: "licensed" | "trial" | "expired" | "unknown";
}

async function readiness(db: Db, keys: LicenceKeys): Promise<Readiness> {
  const within = <T>(work: Promise<T>) =>
    Promise.race([
      work,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), DATABASE_TIMEOUT_MS).unref()),
    ]);
  try {
    await within(db.query("select 1"));
  } catch {
    return { ready: false, database: "unreachable", migrations: "pending", licence: "unknown" };
  }
  const missing = await within(missingColumns(db)).catch(() => Infinity);
  const licence = await within(licenceState(db, keys)).catch(() => "unknown" as const);
  return { ready: missing === 0, database: "ok", migrations: missing === 0 ? "done" : "pending", licence };
}

export function observe(app: FastifyInstance, db: Db, gate: Gate | undefined, keys: LicenceKeys): void {
  watchPool(
    gate ? () => ({ kind: "pglite", busy: gate.busy, idle: gate.limit - gate.busy, waiting: gate.queued }) : db.pool,
  );
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    const call = request.routeOptions?.url ?? "unmatched";
    requests.inc({ call, method: request.method, status: reply.statusCode });
    latency.observe({ call, method: request.method }, reply.elapsedTime / 1000);
  });

  app.get("/healthz", async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));

  let last: { at: number; answer: Promise<Readiness> } | undefined;
  app.get("/readyz", async (_request, reply) => {
    const now = Date.now();
    if (!last || now - last.at > READY_FOR_MS) last = { at: now, answer: readiness(db, keys) };
    const answer = await last.answer;
    return reply
      .status(answer.ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send(answer);
  });
}

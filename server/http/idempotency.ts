// A write sent again is never applied twice (issue 30: a phone on a mobile network loses answers). A
// signed-in write may carry an `Idempotency-Key` header; the first request with a key runs, and its answer
// is stored with the key in the same transaction as what the call wrote, so the two commit together or not
// at all. A request with the same key, from the same principal, for the same call and body, within
// REMEMBERED_HOURS, is answered that stored answer (same status and body, `Idempotent-Replayed: true`)
// instead of running again; with another call or body it is refused (422), never answered with another
// request's answer. Keys are the principal's own: another principal's identical key is another key.
//
// Two requests with one key at once: the second one's claim (an insert on the key) waits for the first's
// transaction, on PostgreSQL by the unique key (across server processes) and on PGlite because it runs one
// transaction at a time; once the first has committed, the second finds its answer and replays it. A call
// that fails (its transaction rolled back) leaves no key behind: nothing was applied, and a request sent
// again runs afresh.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db, Queryable } from "../db/db.ts";
import { badRequest, HttpError } from "../core/errors.ts";
import { fieldMessage } from "../entities/validation.ts";
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_FORMAT,
  REMEMBERED_HOURS,
  REPLAYED_HEADER,
} from "../../src/schema/idempotency.ts";

// How long an answer is kept for its key (REMEMBERED_HOURS): long enough for a phone that lost its network
// in a basement to send what it kept once it is back (the console keeps an unanswered write's key while its
// page is open). A key may also come as a quoted string (RFC 8941, as the IETF draft writes it).
export { IDEMPOTENCY_HEADER, REMEMBERED_HOURS, REPLAYED_HEADER };
/** Keys older than that are deleted at most this often, by the server that next sees a key. */
const SWEEP_EVERY_MS = 10 * 60_000;

type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The request's key; undefined without one; a 400 naming the header when it is not a key. */
export function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  const text = typeof raw === "string" ? raw.trim().replace(/^"(.*)"$/, "$1") : undefined;
  if (text === undefined || !IDEMPOTENCY_KEY_FORMAT.test(text))
    throw badRequest([fieldMessage(IDEMPOTENCY_HEADER, "idempotencyKeyBad", request.ctx!.lng)]);
  return text;
}

/** JSON with every object's keys in order: one request written with its fields in another order is the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** What makes two requests the same request: the call (its route, however its address was written), query and body. */
export const fingerprintOf = (request: FastifyRequest): string =>
  createHash("sha256")
    .update(canonical([request.method, request.routeOptions.url, request.query ?? {}, request.body ?? null]))
    .digest("hex");

interface Stored {
  fingerprint: string;
  status: number | null;
  answer: string | null;
}

/**
 * Takes the key for this request, or finds the answer it already has. The insert waits for a transaction
 * that holds the same key; a key past its time is taken over.
 */
async function claim(tx: Queryable, key: string, fingerprint: string): Promise<Stored | undefined> {
  const { rows } = await tx.query(
    `insert into sys_idempotency (key, fingerprint) values ($1, $2)
     on conflict (key) do update set fingerprint = excluded.fingerprint, status = null, answer = null, created_at = now()
       where sys_idempotency.created_at < now() - make_interval(hours => $3)
     returning key`,
    [key, fingerprint, REMEMBERED_HOURS],
  );
  if (rows.length) return undefined;
  const found = await tx.query<Stored>(`select fingerprint, status, answer from sys_idempotency where key = $1`, [key]);
  return found.rows[0];
}

const lastSweep = new WeakMap<Db, number>();

/** Forgets keys past their time (a claim takes such a key over anyway; this keeps the table small). */
function sweep(db: Db): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  db.query(`delete from sys_idempotency where created_at < now() - make_interval(hours => $1)`, [
    REMEMBERED_HOURS,
  ]).catch(() => undefined);
}

/**
 * The route handler of a write that honours the key: the handler runs in a transaction that also claims
 * the key and stores the answer (the engine's and the operations' own transactions join it). Without a
 * key, or for a caller not signed in, the handler runs as it is.
 */
export function idempotent(handler: RouteHandler): RouteHandler {
  return async (request, reply) => {
    const key = keyOf(request);
    const ctx = request.ctx!;
    if (key === undefined || ctx.tokenHash === undefined) return handler(request, reply);
    const stored = `${ctx.principal.kind}:${ctx.principal.id}\n${key}`;
    const fingerprint = fingerprintOf(request);
    sweep(ctx.db);
    const outcome = await ctx.db.transaction(async (tx) => {
      const earlier = await claim(tx, stored, fingerprint);
      if (earlier) return { earlier };
      request.ctx = { ...ctx, tx };
      try {
        const answer = await handler(request, reply);
        await tx.query(`update sys_idempotency set status = $2, answer = $3 where key = $1`, [
          stored,
          reply.statusCode,
          JSON.stringify(answer ?? null),
        ]);
        return { answer };
      } finally {
        request.ctx = ctx;
      }
    });
    if (!outcome.earlier) return outcome.answer;
    const { earlier } = outcome;
    if (earlier.fingerprint !== fingerprint) throw new HttpError(422, "idempotencyKeyReused");
    // A key is seen only with its answer: both are written in one transaction.
    if (earlier.status === null || earlier.answer === null) throw new Error(`idempotency key without an answer`);
    reply.header(REPLAYED_HEADER, "true");
    reply.status(earlier.status);
    return JSON.parse(earlier.answer) as unknown;
  };
}

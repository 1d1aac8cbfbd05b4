// The Idempotency-Key contract the server (server/http/idempotency.ts) and the console (src/app/api.ts)
// share, and the OpenAPI document states (codegen/openapi.ts): a write sent again with the key it was first
// sent with is answered as the first time.
import { runsInTransaction } from "./transaction.ts";
import type { XOperation } from "./types.ts";

/** The request header that carries the key. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The answer header of an answer replayed for a key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** A key: 16 to 128 letters, digits, `-` or `_` (a UUID, a random token). */
export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;
/** How long the server keeps an answer for its key. */
export const REMEMBERED_HOURS = 24;

/**
 * The operations that honour an Idempotency-Key: the signed-in writes that run in the transaction the route
 * opens (their answer is stored in it) and answer the envelope. A call that runs its own transactions (a
 * password change, the serial number), takes a file or answers one, or is public, ignores the header.
 * (Every entity write and state change honours it.)
 */
export const honoursKey = (x: XOperation): boolean =>
  x.method !== "GET" &&
  x.permission !== "public" &&
  runsInTransaction(x) &&
  x.answer !== "file" &&
  x.body !== "multipart";

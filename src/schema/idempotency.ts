// The Idempotency-Key contract the server (server/http/idempotency.ts) and the console (src/app/api.ts)
// share: a write sent again with the key it was first sent with is answered as the first time.

/** The request header that carries the key. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The answer header of an answer replayed for a key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** A key: 16 to 128 letters, digits, `-` or `_` (a UUID, a random token). */
export const IDEMPOTENCY_KEY_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;
/** How long the server keeps an answer for its key. */
export const REMEMBERED_HOURS = 24;

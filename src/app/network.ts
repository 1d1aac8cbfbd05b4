// Whether the console reaches its server, and what it could not send (issue 30: an operator restocking in
// a basement). Offline is what the browser says (the `offline` event) or what a call found (the network
// failed, not an answer of the server's); online again with the `online` event or the next call answered.
// A write the network failed keeps its Idempotency-Key for its request (call, query, body): sent again, it
// carries the same key, so a write that reached the server and lost its answer is answered, not applied
// twice (server/http/idempotency.ts). Forms and dialogs that hold such a write register how to send it
// again; the offline notice offers it once the network is back. Free of the UI library (the sign-in page
// uses it).
import { useSyncExternalStore } from "react";
import { REMEMBERED_HOURS } from "../schema/idempotency.ts";

type Listener = () => void;

let reachable = typeof navigator === "undefined" || navigator.onLine !== false;
let keptCount = 0;
const listeners = new Set<Listener>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: Listener) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Whether the last word on the network was that it works. */
export const isOnline = (): boolean => reachable;

/** A call's outcome: answered by the server (true), or failed for the network (false). */
export function reportReached(answered: boolean): void {
  if (reachable === answered) return;
  reachable = answered;
  notify();
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => reportReached(true));
  window.addEventListener("offline", () => reportReached(false));
}

/** Re-renders on going offline or online again. */
export const useOnline = (): boolean => useSyncExternalStore(subscribe, isOnline, isOnline);

// ---------------------------------------------------------------- writes kept to send again

/** Each kept write's way to send it again (its form's submit, with what is in the form now). */
const kept = new Map<symbol, () => unknown>();

/** Registers a write that was not sent; answers how to forget it (sent, or its form closed). */
export function keepWrite(resend: () => unknown): () => void {
  const id = Symbol("kept write");
  kept.set(id, resend);
  keptCount = kept.size;
  notify();
  return () => {
    if (!kept.delete(id)) return;
    keptCount = kept.size;
    notify();
  };
}

const keptNow = () => keptCount;
/** How many writes wait to be sent again. */
export const useKeptWrites = (): number => useSyncExternalStore(subscribe, keptNow, keptNow);

/** Sends every kept write again, one after another (each form says how it went). */
export async function resendKept(): Promise<void> {
  for (const resend of [...kept.values()]) await resend();
}

// ---------------------------------------------------------------- idempotency keys

/** How long a kept key is used again: within the hours the server remembers an answer, less one. */
const KEY_KEPT_MS = (REMEMBERED_HOURS - 1) * 3600_000;
/** The most unanswered writes remembered (the oldest go first). */
const KEYS_KEPT = 100;
const unanswered = new Map<string, { key: string; at: number }>();

/** A new key: 128 random bits in base 64 URL (crypto.randomUUID needs a secure context; this does not). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The key for a write: the one it was sent with when the network failed it, else a new one. */
export function keyFor(request: string, now = Date.now()): string {
  const earlier = unanswered.get(request);
  return earlier && now - earlier.at < KEY_KEPT_MS ? earlier.key : newIdempotencyKey();
}

/** The write's fate: answered (its key is done with) or not (kept for the same write sent again). */
export function settleKey(request: string, key: string, answered: boolean, now = Date.now()): void {
  if (answered) {
    unanswered.delete(request);
    return;
  }
  if (!unanswered.has(request)) unanswered.set(request, { key, at: now });
  while (unanswered.size > KEYS_KEPT) unanswered.delete(unanswered.keys().next().value!);
}

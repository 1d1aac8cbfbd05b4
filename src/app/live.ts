// Live screens (issue 32): one stream of changes per console tab (the server's live-events call, read as
// text/event-stream through fetch, which can send the session's token). It reconnects by itself, from the
// last position it was told (Last-Event-ID), so a short drop loses nothing; a `reset` (the server no longer
// knows what changed since) tells the listeners to read everything they show again. It stops when the
// session ends (401) and starts again with the next one.
import { createParser } from "eventsource-parser";
import type { LiveEventsAnswer, LivePresenceAnswer } from "../generated/types.ts";
import i18n from "i18next";
import { token } from "./session.ts";

export type LiveChange = LiveEventsAnswer["changes"][number];

/** What a listener hears: changes, or that everything shown must be read again. */
export type LiveNews = { changes: LiveChange[]; reset: false } | { changes: []; reset: true };

type Listener = (news: LiveNews) => void;

/** Who else is editing a record the caller may read, as the stream tells it when that changes. */
export interface PresenceNews {
  entity: string;
  id: number;
  editors: LivePresenceAnswer["editors"];
}

type PresenceListener = (news: PresenceNews) => void;

/** Waits before reconnecting after a drop: at first, and at most (doubling between). */
export const RECONNECT_MS = [1_000, 15_000];

const listeners = new Set<Listener>();
const presenceListeners = new Set<PresenceListener>();
let running: AbortController | undefined;
let lastId: string | undefined;
let wait = RECONNECT_MS[0];
let timer: ReturnType<typeof setTimeout> | undefined;
/** Whether the stream is open now (for the tests and a status dot). */
let connected = false;

function tell(news: LiveNews): void {
  for (const listener of [...listeners]) listener(news);
}

/** Hears the changes told to this tab; returns how to stop. */
export function onLiveChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Hears who else edits the records this tab's caller may read; returns how to stop. */
export function onPresence(listener: PresenceListener): () => void {
  presenceListeners.add(listener);
  return () => presenceListeners.delete(listener);
}

export const liveConnected = () => connected;

async function connect(controller: AbortController): Promise<void> {
  const bearer = token();
  if (!bearer) return;
  const response = await fetch("/merchant/live-events", {
    headers: {
      Accept: "text/event-stream",
      Authorization: `Bearer ${bearer}`,
      Locale: i18n.resolvedLanguage ?? "en",
      ...(lastId ? { "Last-Event-ID": lastId } : {}),
    },
    signal: controller.signal,
    cache: "no-store",
  });
  if (response.status === 401) {
    // Signed out here or elsewhere: no stream until the next session.
    stopLive();
    return;
  }
  if (!response.ok || !response.body) throw new Error(`live-events ${response.status}`);
  connected = true;
  const parser = createParser({
    onEvent: (message) => {
      if (message.id) lastId = message.id;
      wait = RECONNECT_MS[0];
      if (message.event === "reset") tell({ changes: [], reset: true });
      else if (message.event === "change") {
        const { changes } = JSON.parse(message.data) as { changes: LiveChange[] };
        if (changes.length) tell({ changes, reset: false });
      } else if (message.event === "presence") {
        const news = JSON.parse(message.data) as PresenceNews;
        for (const listener of [...presenceListeners]) listener(news);
      }
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } finally {
    connected = false;
  }
}

function run(): void {
  const controller = new AbortController();
  running = controller;
  void connect(controller)
    .catch(() => undefined)
    .finally(() => {
      if (running !== controller || controller.signal.aborted) return;
      // Dropped (the network, a server restart): again after a while, from the last position.
      timer = setTimeout(run, wait);
      wait = Math.min(wait * 2, RECONNECT_MS[1]);
    });
}

/** The network is back: a stream waiting to reconnect does so now. */
function reconnectNow(): void {
  if (!running || connected) return;
  clearTimeout(timer);
  wait = RECONNECT_MS[0];
  running.abort();
  run();
}

/** Opens the tab's stream (once: a second call while it runs does nothing). */
export function startLive(): void {
  if (running) return;
  wait = RECONNECT_MS[0];
  window.addEventListener("online", reconnectNow);
  run();
}

/** Closes the stream (signed out); the next session starts from now. */
export function stopLive(): void {
  window.removeEventListener("online", reconnectNow);
  clearTimeout(timer);
  running?.abort();
  running = undefined;
  lastId = undefined;
  connected = false;
}

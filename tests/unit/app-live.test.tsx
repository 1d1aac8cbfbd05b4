// @vitest-environment jsdom
// Live screens (issue 32), the console's side: the stream client (messages told to the listeners, a drop
// reconnected from the last position, a reset passed on, stopped by a 401), which queries a change makes
// the console read again, and a list's rows kept in place (new ones announced, removed ones marked).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  onLiveChange,
  onPresence,
  startLive,
  stopLive,
  type LiveChange,
  type LiveNews,
  type PresenceNews,
} from "../../src/app/live.ts";
import { shows } from "../../src/app/live-refresh.ts";
import type { Reads } from "../../src/app/query-reads.ts";
import { relatedQuery } from "../../src/crud/related-query.ts";
import { queries } from "../../src/extensions/dashboard/queries.ts";
import { concerns } from "../../src/crud/list/use-live-rows.ts";

const change = (entity: string, kind: LiveChange["kind"], ids: number[], more = false): LiveChange => ({
  entity,
  kind,
  records: ids.map((id) => ({ id, version: 2 })),
  more,
});

describe("which queries a change makes the console read again", () => {
  const key = (...queryKey: unknown[]) => ({ queryKey });
  const reading = (reads: Reads, ...queryKey: unknown[]) => ({ queryKey, meta: { reads } });

  it("a record's own queries by its id, by the route's resource identifier or the entity's name", () => {
    const detail = key("data", "default", "shop_list", "one", "7", {});
    expect(shows(detail, change("shop", "changed", [7]))).toBe(true);
    expect(shows(detail, change("shop", "changed", [8]))).toBe(false);
    expect(shows(detail, change("shop", "changed", [], true))).toBe(true);
    expect(shows(detail, change("goods", "changed", [7]))).toBe(false);
    expect(shows(key("data", "default", "shop", "one", "7"), change("shop", "removed", [7]))).toBe(true);
    expect(shows(key("data", "default", "shop_list", "list", {}), change("shop", "added", [70]))).toBe(true);
  });

  it("any other query by what it declares it reads: records by id, or any of an entity", () => {
    const history = reading({ shop: [7] }, "record-history", "shop", 7);
    expect(shows(history, change("shop", "changed", [7]))).toBe(true);
    expect(shows(history, change("shop", "changed", [9]))).toBe(false);
    expect(shows(history, change("shop", "changed", [], true))).toBe(true);
    expect(shows(history, change("goods", "changed", [7]))).toBe(false);
    const lanes = reading({ machine_channel: true, goods: true, machine: [5] }, "restock-lanes", 5);
    expect(shows(lanes, change("machine_channel", "changed", [40]))).toBe(true);
    expect(shows(lanes, change("machine", "changed", [6]))).toBe(false);
    expect(shows(lanes, change("machine", "changed", [5]))).toBe(true);
    // A query that declares nothing is not read again, whatever its key says.
    expect(shows(key("record-history", "shop", 7), change("shop", "changed", [7]))).toBe(false);
    expect(shows(key("version-check"), change("version", "added", [1]))).toBe(false);
  });

  it("the dashboard's figures and a record's related list, as their queries are made", () => {
    const totals = queries.totals();
    expect(shows(totals, change("order", "added", [1]))).toBe(true);
    expect(shows(queries.map(), change("machine", "changed", [1]))).toBe(true);
    expect(shows(totals, change("goods_category", "changed", [1]))).toBe(false);
    const related = relatedQuery("order", "machine_id", 2, 1);
    expect(shows(related, change("order", "added", [99]))).toBe(true);
    expect(shows(related, change("machine", "changed", [2]))).toBe(false);
  });
});

describe("a list's rows", () => {
  const news = (changes: LiveChange[]): LiveNews => ({ changes, reset: false });

  it("concern the list when they name a row shown, or add to its entity", () => {
    const shown = new Set([1, 2]);
    expect(concerns(news([change("shop", "changed", [2])]), "shop", shown)).toBe(true);
    expect(concerns(news([change("shop", "changed", [3])]), "shop", shown)).toBe(false);
    expect(concerns(news([change("shop", "added", [3])]), "shop", shown)).toBe(true);
    expect(concerns(news([change("goods", "added", [1])]), "shop", shown)).toBe(false);
    expect(concerns({ changes: [], reset: true }, "shop", shown)).toBe(true);
  });
});

describe("the stream", () => {
  let requests: { headers: Record<string, string> }[];
  let bodies: string[][];

  beforeEach(() => {
    localStorage.setItem("merchant_token", "t0k");
    requests = [];
    bodies = [
      [
        "retry: 2000\n\n",
        'id: aaaaaaaa-01\nevent: change\ndata: {"changes":[]}\n\n',
        'id: aaaaaaaa-02\nevent: change\ndata: {"changes":[{"entity":"shop","kind":"changed","records":[{"id":7,"version":3}],"more":false}]}\n\n',
        // Who edits what carries no position: the next connection asks from the last change's.
        'event: presence\ndata: {"entity":"shop","id":7,"editors":[{"key":"agent:2","name":"Ann"}]}\n\n',
      ],
      ['id: aaaaaaaa-03\nevent: reset\ndata: {"reset":true}\n\n'],
    ];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        requests.push({ headers: init.headers as Record<string, string> });
        const chunks = bodies.shift();
        if (!chunks) return new Response(null, { status: 401 });
        const encoder = new TextEncoder();
        return new Response(
          new ReadableStream({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
              controller.close();
            },
          }),
          { status: 200, headers: { "content-type": "text/event-stream" } },
        );
      }),
    );
  });
  afterEach(() => {
    stopLive();
    vi.unstubAllGlobals();
  });

  it("tells its changes, reconnects from the last position after a drop, passes a reset on, stops at a 401", async () => {
    const heard: LiveNews[] = [];
    const stop = onLiveChange((n) => heard.push(n));
    const editors: PresenceNews[] = [];
    const stopPresence = onPresence((n) => editors.push(n));
    startLive();
    await vi.waitFor(() => expect(requests).toHaveLength(3), { timeout: 10_000 });
    stop();
    stopPresence();
    expect(editors).toEqual([{ entity: "shop", id: 7, editors: [{ key: "agent:2", name: "Ann" }] }]);
    expect(requests[0].headers.Authorization).toBe("Bearer t0k");
    expect(requests[0].headers.Accept).toBe("text/event-stream");
    expect(requests[0].headers["Last-Event-ID"]).toBeUndefined();
    expect(requests[1].headers["Last-Event-ID"]).toBe("aaaaaaaa-02");
    expect(requests[2].headers["Last-Event-ID"]).toBe("aaaaaaaa-03");
    // An empty change is not told; a reset is.
    expect(heard).toEqual([
      { changes: [{ entity: "shop", kind: "changed", records: [{ id: 7, version: 3 }], more: false }], reset: false },
      { changes: [], reset: true },
    ]);
  }, 20_000);
});

// @vitest-environment jsdom
// Who else edits a record (src/crud/changed-elsewhere.tsx, issue 32): an open form claims its record at once
// and every PRESENCE_BEAT_MS, shows the other editors the claim answers and then those the stream tells,
// lets go when it closes (sent even as the page goes), and stops claiming what the caller may not change.
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PresenceNews } from "../../src/app/live.ts";
import { IDEMPOTENCY_HEADER } from "../../src/schema/idempotency.ts";

const listeners = new Set<(news: PresenceNews) => void>();
vi.mock("../../src/app/live.ts", () => ({
  onLiveChange: () => () => undefined,
  onPresence: (listener: (news: PresenceNews) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
}));
const { useOtherEditors, PRESENCE_BEAT_MS } = await import("../../src/crud/changed-elsewhere.tsx");

const tell = (news: PresenceNews) => act(() => listeners.forEach((l) => l(news)));
const ann = { key: "agent:2", name: "Ann" };
const bo = { key: "operator:5", name: "Bo" };

let calls: { url: string; body: unknown; keepalive?: boolean }[];
/** Whether any claim was sent with an Idempotency-Key (a beat's answer is never to be kept or replayed). */
let keyed: boolean;
let status: number;

beforeEach(() => {
  localStorage.setItem("merchant_token", "t0k");
  calls = [];
  keyed = false;
  status = 200;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)), keepalive: init.keepalive });
      if (IDEMPOTENCY_HEADER in (init.headers as Record<string, string>)) keyed = true;
      if (status !== 200)
        return new Response(JSON.stringify({ code: status, message: "forbidden", data: null }), { status });
      return new Response(JSON.stringify({ code: 200, message: "ok", data: { editors: [ann] } }), { status: 200 });
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("an open form's claim", () => {
  it("claims at once, shows the editors answered, then those told for its record, and lets go on closing", async () => {
    const hook = renderHook(() => useOtherEditors("shop", 7));
    await vi.waitFor(() => expect(hook.result.current).toEqual([ann]));
    expect(calls).toEqual([
      { url: "/merchant/live-presence", body: { entity: "shop", id: 7, editing: true }, keepalive: false },
    ]);
    // Another record's editors, or another entity's: not this form's.
    await tell({ entity: "shop", id: 8, editors: [bo] });
    await tell({ entity: "goods", id: 7, editors: [bo] });
    expect(hook.result.current).toEqual([ann]);
    await tell({ entity: "shop", id: 7, editors: [ann, bo] });
    expect(hook.result.current).toEqual([ann, bo]);
    await tell({ entity: "shop", id: 7, editors: [] });
    expect(hook.result.current).toEqual([]);
    hook.unmount();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({
      url: "/merchant/live-presence",
      body: { entity: "shop", id: 7, editing: false },
      keepalive: true,
    });
    // Closed, it hears no more.
    expect(listeners.size).toBe(0);
    expect(keyed).toBe(false);
  });

  it("renews its claim every beat while open; claims nothing more once refused", async () => {
    vi.useFakeTimers();
    const open = renderHook(() => useOtherEditors("shop", 7));
    await vi.advanceTimersByTimeAsync(PRESENCE_BEAT_MS * 2 + 10);
    expect(calls.map((c) => c.body)).toEqual(Array(3).fill({ entity: "shop", id: 7, editing: true }));
    open.unmount();

    calls = [];
    status = 403;
    const refused = renderHook(() => useOtherEditors("machine", 3));
    await vi.advanceTimersByTimeAsync(PRESENCE_BEAT_MS * 3);
    expect(calls.map((c) => c.body)).toEqual([{ entity: "machine", id: 3, editing: true }]);
    expect(refused.result.current).toEqual([]);
  });
});

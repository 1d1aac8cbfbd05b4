// @vitest-environment jsdom
// A list kept up to date by the stream (src/crud/list/use-live-rows.ts): a read the stream asked for keeps
// the rows shown where they are, with their new values; a row gone from the page stays, marked; rows new on
// the page are announced until shown; a read the reader asked for (another page, a refresh) shows the page
// as it is.
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { LiveNews } from "../../src/app/live.ts";

const listeners = new Set<(news: LiveNews) => void>();
vi.mock("../../src/app/live.ts", () => ({
  onLiveChange: (listener: (news: LiveNews) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
}));
const { useLiveRows, LIVE_REFETCH_MS } = await import("../../src/crud/list/use-live-rows.ts");

const row = (id: number, name: string) => ({ id, name });
const tell = (news: LiveNews) => act(() => listeners.forEach((l) => l(news)));

describe("a live list's rows", () => {
  it("keeps its rows in place through the stream's reads, and shows the page as it is when the reader asks", async () => {
    let page = { fetched: [row(3, "c"), row(2, "b"), row(1, "a")], fetchedAt: 1, key: "page 1" };
    const refetch = vi.fn(async () => undefined);
    let active = true;
    let fetching = false;
    const hook = renderHook(() => useLiveRows({ entity: "shop", ...page, refetch, fetching, active: () => active }));
    expect(hook.result.current.rows.map((r) => r.id)).toEqual([3, 2, 1]);

    // Another entity's change, or one of a row not shown: nothing read.
    await tell({
      changes: [{ entity: "goods", kind: "changed", records: [{ id: 2, version: 2 }], more: false }],
      reset: false,
    });
    await tell({
      changes: [{ entity: "shop", kind: "changed", records: [{ id: 9, version: 2 }], more: false }],
      reset: false,
    });
    expect(refetch).not.toHaveBeenCalled();

    // Row 2 renamed, row 1 deleted and a row 4 added elsewhere: the stream's read, once the reader's own
    // read under way has ended.
    // The clock is moved on by hand, past several of its waits for that read to end, not waited for.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      fetching = true;
      hook.rerender();
      await tell({
        changes: [{ entity: "shop", kind: "changed", records: [{ id: 2, version: 2 }], more: false }],
        reset: false,
      });
      await act(() => vi.advanceTimersByTimeAsync(3 * LIVE_REFETCH_MS));
      expect(refetch).not.toHaveBeenCalled();
      fetching = false;
      hook.rerender();
      await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_MS / 4));
      expect(refetch).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
    page = { fetched: [row(4, "d"), row(3, "c"), row(2, "B")], fetchedAt: 2, key: "page 1" };
    hook.rerender();
    expect(hook.result.current.rows).toEqual([row(3, "c"), row(2, "B"), row(1, "a")]);
    expect([...hook.result.current.gone]).toEqual([1]);
    expect(hook.result.current.fresh).toEqual([row(4, "d")]);

    // Shown on a click: the page as it is.
    act(() => hook.result.current.showFresh());
    expect(hook.result.current.rows.map((r) => r.id)).toEqual([4, 3, 2]);
    expect(hook.result.current.gone.size).toBe(0);
    expect(hook.result.current.fresh).toEqual([]);

    // Hidden for its tab: the stream reads nothing for it.
    active = false;
    await tell({
      changes: [{ entity: "shop", kind: "added", records: [{ id: 5, version: 1 }], more: false }],
      reset: false,
    });
    expect(refetch).toHaveBeenCalledTimes(1);
    active = true;

    // The reader's own read (another page): shown as it is, nothing announced.
    page = { fetched: [row(1, "a")], fetchedAt: 3, key: "page 2" };
    hook.rerender();
    expect(hook.result.current.rows).toEqual([row(1, "a")]);
    expect(hook.result.current.fresh).toEqual([]);
  });
});

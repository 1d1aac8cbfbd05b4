// @vitest-environment jsdom
// src/crud/refresh.ts: after an action every query of what records show (Refine's, and ours declaring what
// they read) is refreshed if its page is on screen; a list kept hidden for its tab (its queries' meta says
// so) is only marked stale, and fetched when it is shown again.
import { act, render } from "@testing-library/react";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { onScreen, useRefreshAfterAction } from "../../src/crud/refresh.ts";
import type { Reads } from "../../src/app/query-reads.ts";

const fetches: Record<string, number> = {};
let refresh: () => Promise<void>;

/** A query of Refine's (keyed "data"), or one of ours (`kind`) declaring what it reads, or nothing. */
function Watcher({ name, shown, kind, reads }: { name: string; shown?: () => boolean; kind?: string; reads?: Reads }) {
  useQuery({
    queryKey: [kind ?? "data", name],
    queryFn: async () => (fetches[name] = (fetches[name] ?? 0) + 1),
    meta: shown || reads ? { shown, reads } : undefined,
  });
  refresh = useRefreshAfterAction();
  return null;
}

afterEach(() => {
  for (const key of Object.keys(fetches)) delete fetches[key];
});

describe("useRefreshAfterAction", () => {
  it("fetches again what is on screen, and only marks a hidden page's queries stale", async () => {
    const client = new QueryClient();
    let goodsShown = false;
    const { unmount } = render(
      <QueryClientProvider client={client}>
        <Watcher name="shop" shown={() => true} />
        <Watcher name="goods" shown={() => goodsShown} />
        <Watcher name="plain" />
        <Watcher name="history" kind="record-history" reads={{ shop: [7] }} />
        <Watcher name="version" kind="version-check" />
      </QueryClientProvider>,
    );
    await act(async () => {
      await client.refetchQueries(); // the first answers in
    });
    const before = { ...fetches };
    await act(() => refresh());
    expect(fetches.shop).toBe(before.shop + 1);
    expect(fetches.plain).toBe(before.plain + 1);
    expect(fetches.goods).toBe(before.goods);
    // Ours by what they declare they read: a history is read again, a version check (no records) is not.
    expect(fetches.history).toBe(before.history + 1);
    expect(fetches.version).toBe(before.version);
    const goods = client.getQueryCache().find({ queryKey: ["data", "goods"] })!;
    expect(goods.isStale()).toBe(true);
    expect(onScreen(goods)).toBe(false);
    goodsShown = true;
    expect(onScreen(goods)).toBe(true);
    unmount();
  });
});

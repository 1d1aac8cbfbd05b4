// @vitest-environment jsdom
// src/crud/refresh.ts: after an action every query of what records show is refreshed if its page is on
// screen; a list kept hidden for its tab (its queries' meta says so) is only marked stale, and fetched
// when it is shown again.
import { act, render } from "@testing-library/react";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { onScreen, useRefreshAfterAction } from "../../src/crud/refresh.ts";

const fetches: Record<string, number> = {};
let refresh: () => Promise<void>;

function Watcher({ name, shown }: { name: string; shown?: () => boolean }) {
  useQuery({
    queryKey: ["data", name],
    queryFn: async () => (fetches[name] = (fetches[name] ?? 0) + 1),
    meta: shown ? { shown } : undefined,
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
    const goods = client.getQueryCache().find({ queryKey: ["data", "goods"] })!;
    expect(goods.isStale()).toBe(true);
    expect(onScreen(goods)).toBe(false);
    goodsShown = true;
    expect(onScreen(goods)).toBe(true);
    unmount();
  });
});

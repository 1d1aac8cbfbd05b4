// @vitest-environment jsdom
// src/app/layout/kept-pages.tsx: a generic list whose tab is open stays mounted when left, hidden, and
// is shown again as it was (same instance, same state, its own address while hidden); its bare address
// resumes it with its query; it is not refreshed while hidden but fetched again once shown; a closed tab,
// a form or a record is built anew; at most KEPT_MAX are kept.
import { act, render, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { MemoryRouter, Route, Routes, useLocation, useNavigate, type NavigateFunction } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { KEPT_MAX, KeptPages } from "../../src/app/layout/kept-pages.tsx";
import { setOpenPages } from "../../src/app/layout/open-pages.ts";
import { usePageShown, usePageShownNow } from "../../src/app/page-shown.ts";
import { useRefreshAfterAction } from "../../src/crud/refresh.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;
beforeAll(async () => {
  i18n = await setupI18n(["common"]);
});

const mounts: Record<string, number> = {};
/** What each page saw of the address, render by render. */
const seen: Record<string, string[]> = {};
/** How many times each page's data was fetched. */
const fetches: Record<string, number> = {};

/**
 * A page counting its mounts, holding a click count, recording the address it sees, and fetching its
 * data as a list does (its query's meta says whether its page is on screen).
 */
function Page({ name }: { name: string }) {
  const location = useLocation();
  const shown = usePageShown();
  useQuery({
    queryKey: ["data", name],
    queryFn: async () => (fetches[name] = (fetches[name] ?? 0) + 1),
    meta: { shown: usePageShownNow() },
  });
  const [clicks, setClicks] = useState(0);
  const [mounted] = useState(() => (mounts[name] = (mounts[name] ?? 0) + 1));
  (seen[name] ??= []).push(location.pathname + location.search);
  return (
    <button data-page={name} data-shown={String(shown)} onClick={() => setClicks(clicks + 1)}>
      {name} mount {mounted} clicks {clicks}
    </button>
  );
}

let navigate: NavigateFunction;
let refresh: () => Promise<void>;
let address = "";
function Probe() {
  navigate = useNavigate();
  refresh = useRefreshAfterAction();
  const location = useLocation();
  address = location.pathname + location.search;
  return null;
}

const LISTS = [
  "/goods/list",
  "/shop/list",
  "/goods/cate",
  "/goods/spec",
  "/order/applicationList",
  "/shop/cate",
  "/shop/wifi",
];
const LISTS_MORE = ["/goods/downList", "/goods/recoveryList", "/shop/recoveryList"];

function mount(open: string[]) {
  setOpenPages(open);
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={["/goods/list?page=2"]}>
        <Probe />
        <Routes>
          <Route element={<KeptPages />}>
            {[...LISTS, ...LISTS_MORE].map((path) => (
              <Route key={path} path={path} element={<Page name={path} />} />
            ))}
            <Route path="/shop/list/edit/:id" element={<Page name="shop edit" />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const go = (to: string) => act(() => void navigate(to));

/** The document's scroll (jsdom does not scroll): where scrollTo put it, and a user's scroll to `top`. */
let scrollY = 0;
const scrollTo = vi.fn((options: ScrollToOptions) => void (scrollY = options.top ?? 0));
const userScrolls = (top: number) =>
  act(() => {
    scrollY = top;
    window.dispatchEvent(new Event("scroll"));
  });
beforeEach(() => {
  scrollY = 0;
  scrollTo.mockClear();
  vi.spyOn(window, "scrollY", "get").mockImplementation(() => scrollY);
  window.scrollTo = scrollTo as typeof window.scrollTo;
});

afterEach(async () => {
  if (i18n.language !== "en") await act(() => i18n.changeLanguage("en"));
  for (const key of Object.keys(mounts)) delete mounts[key];
  for (const key of Object.keys(seen)) delete seen[key];
  for (const key of Object.keys(fetches)) delete fetches[key];
});

describe("KeptPages", () => {
  it("keeps a list with an open tab mounted and hidden, and shows the same instance again with its state", () => {
    const { container, unmount } = mount(["/goods/list", "/shop/list"]);
    const goods = () => container.querySelector<HTMLElement>('[data-page="/goods/list"]')!;
    act(() => goods().click());
    go("/shop/list");
    // Still in the page, not on screen: its wrapper is not the current one, and it knows it is hidden.
    const wrapper = goods().closest(".page-fade")!;
    expect(wrapper.getAttribute("data-path")).toBe("/goods/list");
    expect(wrapper.hasAttribute("data-current")).toBe(false);
    expect(goods().dataset.shown).toBe("false");
    expect(container.querySelector(".page-fade[data-current]")!.getAttribute("data-path")).toBe("/shop/list");

    go("/goods/list?page=2");
    expect(goods().textContent).toBe("/goods/list mount 1 clicks 1");
    expect(goods().dataset.shown).toBe("true");
    expect(goods().closest(".page-fade")!.hasAttribute("data-current")).toBe(true);
    expect(mounts["/goods/list"]).toBe(1);
    // Whatever it rendered while hidden, it saw its own address, never the shop list's.
    expect(new Set(seen["/goods/list"])).toEqual(new Set(["/goods/list?page=2"]));
    unmount();
  });

  it("leaves a hidden list's data alone on the refresh after an action, and fetches it once shown again", async () => {
    const { unmount } = mount(["/goods/list", "/shop/list"]);
    await waitFor(() => expect(fetches["/goods/list"]).toBe(1));
    go("/shop/list");
    await waitFor(() => expect(fetches["/shop/list"]).toBe(1));
    await act(() => refresh());
    expect(fetches["/shop/list"]).toBe(2);
    expect(fetches["/goods/list"]).toBe(1);
    go("/goods/list");
    await waitFor(() => expect(fetches["/goods/list"]).toBe(2));
    expect(fetches["/shop/list"]).toBe(2);
    expect(mounts["/goods/list"]).toBe(1);
    unmount();
  });

  it("shows a kept list again where it was scrolled to, and opens any other page at the top", () => {
    const { unmount } = mount(["/goods/list", "/shop/list"]);
    userScrolls(640);
    go("/shop/list/edit/7");
    expect(scrollY).toBe(0);
    userScrolls(300);
    go("/goods/list");
    expect(scrollY).toBe(640);
    go("/shop/list");
    expect(scrollY).toBe(0);
    userScrolls(120);
    // Another query of the same list is the same page: it stays where it is.
    go("/shop/list?page=3");
    expect(scrollY).toBe(120);
    go("/goods/list");
    expect(scrollY).toBe(640);
    go("/shop/list");
    expect(scrollY).toBe(120);
    unmount();
  });

  it("resumes a kept list at its bare address (the menu's) with its query put back", () => {
    const { unmount } = mount(["/goods/list", "/shop/list"]);
    go("/shop/list");
    go("/goods/list");
    expect(address).toBe("/goods/list?page=2");
    expect(mounts["/goods/list"]).toBe(1);
    expect(new Set(seen["/goods/list"])).toEqual(new Set(["/goods/list?page=2"]));
    unmount();
  });

  it("follows a kept list to another query of its own (a link with filters) in the same instance", () => {
    const { container, unmount } = mount(["/goods/list", "/shop/list"]);
    go("/shop/list");
    go("/goods/list?page=3");
    expect(address).toBe("/goods/list?page=3");
    // Same instance (the list's own hooks follow its query), now seeing the new address.
    expect(mounts["/goods/list"]).toBe(1);
    expect(seen["/goods/list"].at(-1)).toBe("/goods/list?page=3");
    expect(container.querySelectorAll('[data-page="/goods/list"]')).toHaveLength(1);
    unmount();
  });

  it("lets go of a list whose tab is closed, and never keeps a form or a record", () => {
    const { container, unmount } = mount(["/goods/list", "/shop/list", "/shop/list/edit/7"]);
    go("/shop/list/edit/7");
    go("/shop/list");
    expect(container.querySelector('[data-page="shop edit"]')).toBeNull();
    go("/shop/list/edit/7");
    expect(mounts["shop edit"]).toBe(2);

    expect(container.querySelector('[data-page="/goods/list"]')).not.toBeNull();
    act(() => setOpenPages(["/shop/list", "/shop/list/edit/7"]));
    expect(container.querySelector('[data-page="/goods/list"]')).toBeNull();
    go("/goods/list");
    expect(mounts["/goods/list"]).toBe(2);
    unmount();
  });

  it("does not keep a list without an open tab", () => {
    const { container, unmount } = mount(["/shop/list"]);
    go("/shop/list");
    expect(container.querySelector('[data-page="/goods/list"]')).toBeNull();
    go("/goods/list");
    expect(mounts["/goods/list"]).toBe(2);
    unmount();
  });

  it("lets the hidden lists go when the language changes, keeping the one on screen", async () => {
    const { container, unmount } = mount(["/goods/list", "/shop/list"]);
    go("/shop/list");
    expect(container.querySelector('[data-page="/goods/list"]')).not.toBeNull();
    await act(() => i18n.changeLanguage("zh"));
    expect(container.querySelector('[data-page="/goods/list"]')).toBeNull();
    expect(container.querySelectorAll(".page-fade")).toHaveLength(1);
    expect(mounts["/shop/list"]).toBe(1);
    // Kept again from then on.
    go("/goods/list");
    go("/shop/list");
    go("/goods/list");
    expect(mounts["/goods/list"]).toBe(2);
    unmount();
  });

  it(`keeps at most ${KEPT_MAX} lists besides the one on screen, letting go of the least recently shown`, () => {
    const all = [...LISTS, ...LISTS_MORE];
    expect(all.length).toBe(KEPT_MAX + 2);
    const { container, unmount } = mount(all);
    for (const path of all.slice(1, -1)) go(path);
    go("/goods/list"); // shown again: now more recent than /shop/list, the oldest
    go(all.at(-1)!);
    const kept = [...container.querySelectorAll(".page-fade")].map((page) => page.getAttribute("data-path"));
    expect(kept).toHaveLength(KEPT_MAX + 1);
    expect(kept).not.toContain("/shop/list");
    expect(kept).toContain("/goods/list");
    expect(mounts["/goods/list"]).toBe(1);
    unmount();
  });
});

// @vitest-environment jsdom
// src/app/layout/page-transition.ts: a navigation keeps the page being left until the new one is ready;
// when that takes longer than PENDING_AFTER_MS, the content area says it is busy (a bar above it).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PENDING_AFTER_MS, pageLeaving, pageShown } from "../../src/app/layout/page-transition.ts";

const content = () => document.querySelector(".shell-content")!;

beforeEach(() => {
  vi.useFakeTimers();
  // As a user who asked for reduced motion: no fading copy, the bar alone.
  window.matchMedia = ((query: string) => ({ matches: query.includes("reduce") })) as typeof window.matchMedia;
  history.replaceState(null, "", "/goods/list");
  document.body.innerHTML = `<main class="shell-content"><div class="page-fade" data-path="/goods/list" data-current="true"></div></main>`;
});

afterEach(() => {
  pageShown();
  vi.useRealTimers();
});

/** The shell commits the page of `path`. */
function commit(path: string) {
  content().querySelector(".page-fade")!.setAttribute("data-path", path);
  pageShown();
}

describe("a page on its way", () => {
  it("marks the content busy when the new page is not on screen in time, until it is", () => {
    history.pushState(null, "", "/shop/list");
    pageLeaving();
    vi.advanceTimersByTime(PENDING_AFTER_MS - 1);
    expect(content().getAttribute("aria-busy")).toBeNull();
    vi.advanceTimersByTime(1);
    expect(content().getAttribute("aria-busy")).toBe("true");
    commit("/shop/list");
    expect(content().getAttribute("aria-busy")).toBeNull();
  });

  it("says nothing of a page that comes in time", () => {
    history.pushState(null, "", "/shop/list");
    pageLeaving();
    vi.advanceTimersByTime(100);
    commit("/shop/list");
    vi.advanceTimersByTime(PENDING_AFTER_MS);
    expect(content().getAttribute("aria-busy")).toBeNull();
  });

  it("says nothing when the address stays on the page shown (its query changed)", () => {
    history.pushState(null, "", "/goods/list?status=1");
    pageLeaving();
    vi.advanceTimersByTime(PENDING_AFTER_MS);
    expect(content().getAttribute("aria-busy")).toBeNull();
  });
});

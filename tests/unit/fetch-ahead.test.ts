// Whether the console fetches code ahead of need (src/app/fetch-ahead.ts): a desktop with a mouse does; a
// phone-wide or touch screen, or a browser asked to save data, does not.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mayFetchAhead } from "../../src/app/fetch-ahead.ts";

/** A window whose media queries answer as a screen of `width` px with a fine or coarse pointer would. */
function screenOf(width: number, pointer: "fine" | "coarse") {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.split(",").some((part) => {
      const max = /max-width:\s*([\d.]+)px/.exec(part);
      if (max) return width <= Number(max[1]);
      return /pointer:\s*coarse/.test(part) && pointer === "coarse";
    }),
  }));
}

beforeEach(() => {
  vi.stubGlobal("navigator", {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fetching ahead", () => {
  it("happens on a desktop with a mouse, not on a phone-wide or touch screen", () => {
    screenOf(1440, "fine");
    expect(mayFetchAhead()).toBe(true);
    screenOf(768, "fine");
    expect(mayFetchAhead()).toBe(true);
    screenOf(767, "fine");
    expect(mayFetchAhead()).toBe(false);
    screenOf(390, "coarse");
    expect(mayFetchAhead()).toBe(false);
    screenOf(1280, "coarse"); // a tablet
    expect(mayFetchAhead()).toBe(false);
  });

  it("does not happen when the browser was asked to save data", () => {
    screenOf(1440, "fine");
    vi.stubGlobal("navigator", { connection: { saveData: true } });
    expect(mayFetchAhead()).toBe(false);
  });
});

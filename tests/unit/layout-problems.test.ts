// src/extensions/layout-editor/layout.ts: what the layout's schema refuses, named by module and setting,
// each module checked by its own type's definition (not by every branch of the module union).
import { describe, expect, it } from "vitest";
import { layoutProblems, type PageLayout } from "../../src/extensions/layout-editor/layout.ts";

const banner = { id: "b1", type: "banner", count: 3, interval: 4000 };
const grid = { id: "g1", type: "grid", columns: 3, style: "plain", ratio: "4:5", items: [{ image: "" }] };

describe("a layout's problems", () => {
  it("are none for a valid layout", () => {
    expect(layoutProblems({ modules: [banner, grid] } as PageLayout)).toEqual([]);
  });

  it("name the module's place, the setting and the rule, with its limit, for values out of range", () => {
    const layout = {
      modules: [grid, { ...banner, count: 12, interval: 500 }, { id: "s1", type: "spacer", height: 250 }],
    } as PageLayout;
    expect(layoutProblems(layout)).toEqual([
      { index: 1, field: "count", keyword: "maximum", limit: 10 },
      { index: 1, field: "interval", keyword: "minimum", limit: 1000 },
      { index: 2, field: "height", keyword: "maximum", limit: 200 },
    ]);
  });

  it("name a grid cell's setting and a missing one, and an unknown module type", () => {
    const long = "x".repeat(1025);
    const { ratio: _ratio, ...noRatio } = grid;
    const layout = {
      modules: [
        { ...noRatio, items: [{ image: "a.png", link: long }] },
        { id: "w1", type: "weather" },
      ],
    } as unknown as PageLayout;
    expect(layoutProblems(layout)).toEqual([
      { index: 0, field: "ratio", keyword: "required", limit: undefined },
      { index: 0, field: "link", keyword: "maxLength", limit: 1024 },
      { index: 1, field: "type", keyword: "enum" },
    ]);
  });

  it("name the page's own shape when it is not a layout", () => {
    expect(layoutProblems({ modules: [], extra: 1 } as unknown as PageLayout)).toEqual([
      { keyword: "additionalProperties", limit: undefined },
    ]);
  });
});

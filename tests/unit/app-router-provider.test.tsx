// @vitest-environment jsdom
// src/app/providers/router-provider.ts: a list being left (still mounted while the router renders the new
// screen) must not replace the new address with its own; every other navigation goes through unchanged.
import { render } from "@testing-library/react";
import type { GoConfig, RouterProvider } from "@refinedev/core";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { guardedRouterProvider } from "../../src/app/providers/router-provider.ts";

/** Renders a screen at `renderedAt`, while the browser is at `browserAt`, and makes it call go(config). */
function goFrom(renderedAt: string, browserAt: string, config: GoConfig) {
  const passed: GoConfig[] = [];
  const base: RouterProvider = {
    go: () => (c: GoConfig) => {
      passed.push(c);
      return c.type === "path" ? "/built" : undefined;
    },
  };
  const provider = guardedRouterProvider(base, () => browserAt);
  let answer: string | void = "not called";
  function Screen() {
    const go = provider.go!();
    answer = go(config);
    return null;
  }
  render(
    <MemoryRouter initialEntries={[renderedAt]}>
      <Screen />
    </MemoryRouter>,
  );
  return { passed, answer };
}

const sync: GoConfig = { type: "replace", options: { keepQuery: true }, query: { currentPage: 1, pageSize: 10 } };

describe("guardedRouterProvider", () => {
  it("lets a list keep its page in its own address", () => {
    expect(goFrom("/goods/list", "/goods/list", sync).passed).toEqual([sync]);
  });

  it("drops a list's address sync once the browser has moved to another screen", () => {
    expect(goFrom("/machine/recoveryList", "/setting/system", sync).passed).toEqual([]);
  });

  it("lets a screen being left navigate where it says (a push, or a replace with a destination)", () => {
    const push: GoConfig = { type: "push", query: { currentPage: 2 } };
    const replaceTo: GoConfig = { type: "replace", to: "/login" };
    expect(goFrom("/goods/list", "/setting/system", push).passed).toEqual([push]);
    expect(goFrom("/goods/list", "/setting/system", replaceTo).passed).toEqual([replaceTo]);
  });

  it("still builds links (type path) and returns them", () => {
    const link: GoConfig = { type: "path", query: { currentPage: 3 } };
    const { passed, answer } = goFrom("/goods/list", "/setting/system", link);
    expect(passed).toEqual([link]);
    expect(answer).toBe("/built");
  });
});

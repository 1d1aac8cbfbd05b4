// @vitest-environment jsdom
// src/app/lazy-screen.tsx: a screen's code is loaded on its first visit and kept; a later visit renders at
// once, where a suspended one would show React's fallback for 300 ms (a blank page on every switch back).
// A failed load offers a retry, and a later visit loads again.
import { act, render, screen, within } from "@testing-library/react";
import { Suspense, useEffect } from "react";
import { describe, expect, it } from "vitest";
import { lazyScreen } from "../../src/app/lazy-screen.tsx";
import "../../src/app/i18n.ts";

const Goods = ({ name }: { name: string }) => <p>screen {name}</p>;

/** A screen's code that fails to load while `fail` is set, counting its loads. */
function flakyLoad() {
  const state = {
    fail: true,
    loads: 0,
    load: async () => {
      state.loads++;
      if (state.fail) throw new Error("offline");
      return Goods;
    },
  };
  return state;
}

describe("lazyScreen", () => {
  it("loads a screen's code once, and renders a later visit at once, without the loading fallback", async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads++;
      return Goods;
    });
    const first = render(<Screen name="first" />);
    expect(first.container.querySelector(".screen-loading")).not.toBeNull();
    expect(await screen.findByText("screen first")).toBeTruthy();
    first.unmount();
    // The second visit: rendered in one synchronous pass, no fallback in between.
    const second = render(<Screen name="second" />);
    expect(second.container.querySelector(".screen-loading")).toBeNull();
    expect(second.container.textContent).toBe("screen second");
    expect(loads).toBe(1);
  });

  it("offers a retry after a failed load, which loads it again", async () => {
    const loading = flakyLoad();
    const Screen = lazyScreen(loading.load);
    const view = render(<Screen name="a" />);
    const retry = await screen.findByRole("button");
    expect(view.container.querySelector(".chunk-error")).not.toBeNull();
    loading.fail = false;
    await act(async () => retry.click());
    expect(await screen.findByText("screen a")).toBeTruthy();
    expect(loading.loads).toBe(2);
  });

  it("loads again when a screen whose load failed is opened again", async () => {
    const loading = flakyLoad();
    const Screen = lazyScreen(loading.load);
    const first = render(<Screen name="a" />);
    await screen.findByRole("button");
    first.unmount();
    loading.fail = false;
    render(<Screen name="b" />);
    expect(await screen.findByText("screen b")).toBeTruthy();
    expect(loading.loads).toBe(2);
  });

  it("renders a screen whose code was fetched ahead at once, without the loading fallback", async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads++;
      return Goods;
    });
    await Screen.preload();
    const view = render(<Screen name="ahead" />);
    expect(view.container.querySelector(".screen-loading")).toBeNull();
    expect(view.container.textContent).toBe("screen ahead");
    expect(loads).toBe(1);
  });

  it("keeps a screen mounted once its code has come, across its parent's renders", async () => {
    let mounts = 0;
    const Counted = ({ name }: { name: string }) => {
      useEffect(() => void mounts++, []);
      return <p>screen {name}</p>;
    };
    let done!: (screen: typeof Counted) => void;
    const Screen = lazyScreen(() => new Promise<typeof Counted>((resolve) => (done = resolve)));
    const view = render(<Screen name="a" />);
    expect(view.container.querySelector(".screen-loading")).not.toBeNull();
    await act(async () => done(Counted));
    expect(view.container.textContent).toBe("screen a");
    view.rerender(<Screen name="b" />);
    expect(view.container.textContent).toBe("screen b");
    expect(mounts).toBe(1);
  });

  it("gives a page no fallback of its own: the boundary above it decides what shows while it loads", async () => {
    let done!: (screen: typeof Goods) => void;
    const Screen = lazyScreen(() => new Promise<typeof Goods>((resolve) => (done = resolve)), { page: true });
    const view = render(
      <Suspense fallback={<p>the page being left</p>}>
        <Screen name="page" />
      </Suspense>,
    );
    expect(view.container.querySelector(".screen-loading")).toBeNull();
    expect(view.container.textContent).toBe("the page being left");
    await act(async () => done(Goods));
    expect(view.container.textContent).toBe("screen page");
  });

  it("shows a page's failed load with its retry, having asked for the code once", async () => {
    const loading = flakyLoad();
    const Screen = lazyScreen(loading.load, { page: true });
    const view = render(
      <Suspense fallback={<p>the page being left</p>}>
        <Screen name="page" />
      </Suspense>,
    );
    const retry = await within(view.container).findByRole("button");
    expect(loading.loads).toBe(1);
    loading.fail = false;
    await act(async () => retry.click());
    expect(await within(view.container).findByText("screen page")).toBeTruthy();
    expect(loading.loads).toBe(2);
    view.unmount();
  });

  it("loads again on the visit after a preload that failed", async () => {
    const loading = flakyLoad();
    const Screen = lazyScreen(loading.load);
    await Screen.preload();
    loading.fail = false;
    const view = render(<Screen name="after" />);
    expect(await within(view.container).findByText("screen after")).toBeTruthy();
    expect(loading.loads).toBe(2);
    view.unmount();
  });
});

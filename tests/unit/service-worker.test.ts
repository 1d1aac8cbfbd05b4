// The service worker's decisions (src/service-worker/strategy.ts): the console's code from the cache first,
// pages from the network first (the cached shell without one), manifests and icons likewise, and the API,
// uploaded files, the worker itself, other origins and writes left to the network; other builds' code is
// what a new worker removes.
import { describe, expect, it } from "vitest";
import { routeOf, stale, shellCache, type Build } from "../../src/service-worker/strategy.ts";

const origin = "https://console.example.com";
const get = (path: string, mode = "cors") => ({ method: "GET", url: `${origin}${path}`, mode });

describe("service worker", () => {
  it("serves the console's code from its cache and pages from the network first", () => {
    expect(routeOf(get("/assets/list-screen-Dujbyriw.js"), origin)).toBe("code");
    expect(routeOf(get("/assets/common-DP4woGt7.json"), origin)).toBe("code");
    expect(routeOf(get("/assets/noto-sans-latin-400-normal-BTkUljjl.woff2"), origin)).toBe("code");
    expect(routeOf(get("/machine/list/show/12?tab=panel", "navigate"), origin)).toBe("page");
    expect(routeOf(get("/login", "navigate"), origin)).toBe("page");
    expect(routeOf(get("/manifest-th.webmanifest"), origin)).toBe("fixed");
    expect(routeOf(get("/icons/icon-192.png", "no-cors"), origin)).toBe("fixed");
  });

  it("leaves the API, uploaded files, itself, other origins and writes to the network", () => {
    expect(routeOf(get("/merchant/machine-list?page=1"), origin)).toBe("network");
    expect(routeOf(get("/admin/version"), origin)).toBe("network");
    expect(routeOf(get("/uploads/demo/goods/pepsi-330ml-can.jpg", "no-cors"), origin)).toBe("network");
    expect(routeOf(get("/sw.js"), origin)).toBe("network");
    expect(routeOf({ method: "GET", url: "https://tiles.example.org/assets/x.js", mode: "cors" }, origin)).toBe(
      "network",
    );
    expect(routeOf({ method: "POST", url: `${origin}/assets/x.js`, mode: "cors" }, origin)).toBe("network");
    // A navigation to the API (a download link) is the API's.
    expect(routeOf(get("/merchant/order-export?format=csv", "navigate"), origin)).toBe("network");
  });

  it("removes the code of other builds, keeps this one's", () => {
    const build: Build = {
      version: "80a1af3639dd5368",
      shell: ["assets/index-VTGUdQh_.js"],
      assets: ["assets/index-VTGUdQh_.js", "assets/list-screen-Dujbyriw.js"],
    };
    expect(
      stale(["/assets/index-VTGUdQh_.js", "/assets/index-Cb_UOn6C.js", "/assets/list-screen-Dujbyriw.js"], build),
    ).toEqual(["/assets/index-Cb_UOn6C.js"]);
    expect(shellCache(build)).toBe("shell-80a1af3639dd5368");
  });
});

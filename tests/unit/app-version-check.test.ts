// @vitest-environment jsdom
// src/app/version-check.ts: which version the console expects, and when a stale one logs out.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { storedVersion, saveVersion } from "../../src/app/session.ts";
import { expectedVersion, versionChanged } from "../../src/app/version-check.ts";

describe("expectedVersion", () => {
  it("is the latest version when an update is pending", () => {
    expect(expectedVersion({ version: "1.2.0", digits: [1, 2, 0], latest: "1.3.0", can_update: 1 })).toBe("1.3.0");
  });

  it("is the installed version's digits joined with dots otherwise", () => {
    expect(expectedVersion({ version: "v1.2", digits: [1, 2, 0], latest: "1.3.0", can_update: 0 })).toBe("1.2.0");
    expect(expectedVersion({ version: "x", digits: [2, 10, 3], latest: null, can_update: 0 })).toBe("2.10.3");
  });

  it("falls back to the digits when an update is pending without a latest version", () => {
    expect(expectedVersion({ version: "1.2.0", digits: [1, 2, 0], latest: null, can_update: 1 })).toBe("1.2.0");
  });
});

describe("versionChanged", () => {
  const answer = (data: unknown) =>
    vi.fn(async () => new Response(JSON.stringify({ code: 200, message: "ok", data }), { status: 200 }));

  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it("records a new version and says so once", async () => {
    vi.stubGlobal("fetch", answer({ version: "1.3.0", digits: [1, 3, 0], latest: null, can_update: 0 }));
    saveVersion("1.2.0");
    expect(await versionChanged()).toBe(true);
    expect(storedVersion()).toBe("1.3.0");
    expect(await versionChanged()).toBe(false);
  });

  it("keeps the session when the server cannot be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("offline");
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    saveVersion("1.2.0");
    expect(await versionChanged()).toBe(false);
    expect(storedVersion()).toBe("1.2.0");
  });
});

// tests/support/chromium.ts: where the browser tests find Chromium, and what they say when it is missing.
import { afterEach, describe, expect, it, vi } from "vitest";
import { findChromium } from "../support/chromium.ts";

afterEach(() => vi.unstubAllEnvs());

describe("findChromium", () => {
  it("takes CHROME_PATH when it names a file", () => {
    vi.stubEnv("CHROME_PATH", process.execPath);
    expect(findChromium()).toBe(process.execPath);
  });

  it("finds nothing when CHROME_PATH names a missing file, rather than another browser", () => {
    vi.stubEnv("CHROME_PATH", "/nowhere/chromium");
    expect(findChromium()).toBeUndefined();
  });
});

// @vitest-environment jsdom
// src/app/theme.ts: antd's animations go for whoever asked their system for reduced motion, at once.
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useTheme } from "../../src/app/theme.ts";

const original = window.matchMedia;
afterEach(() => {
  window.matchMedia = original;
});

/** A system setting the test can change, as the user would in their settings. */
function systemMotion(reduced: boolean) {
  const listeners = new Set<() => void>();
  const state = { reduced };
  window.matchMedia = ((query: string) => ({
    matches: query === "(prefers-reduced-motion: reduce)" && state.reduced,
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return (next: boolean) => {
    state.reduced = next;
    listeners.forEach((l) => l());
  };
}

describe("the console's theme", () => {
  it("keeps antd's motion by default and drops it when the system asks for reduced motion", () => {
    const change = systemMotion(false);
    const { result } = renderHook(() => useTheme());
    expect(result.current.token?.motion).toBeUndefined();
    expect(result.current.token?.colorPrimary).toBe("#1f6feb");
    act(() => change(true));
    expect(result.current.token?.motion).toBe(false);
    expect(result.current.token?.colorPrimary).toBe("#1f6feb");
    act(() => change(false));
    expect(result.current.token?.motion).toBeUndefined();
  });
});

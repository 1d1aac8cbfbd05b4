// @vitest-environment jsdom
// src/app/theme.ts: antd's animations go for whoever asked their system for reduced motion, at once.
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useTheme } from "../../src/app/theme.ts";

const original = window.matchMedia;
afterEach(() => {
  window.matchMedia = original;
});

/** A system setting the test can change, as the user would in their settings (and a touch screen or not). */
function systemMotion(reduced: boolean, touch = false) {
  const listeners = new Set<() => void>();
  const state = { reduced };
  window.matchMedia = ((query: string) => ({
    matches:
      (query === "(prefers-reduced-motion: reduce)" && state.reduced) || (query === "(pointer: coarse)" && touch),
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

describe("the console's theme on a touch screen", () => {
  it("makes every control a finger taps 44 px high, small ones too; with a mouse they stay compact", () => {
    systemMotion(false, false);
    const mouse = renderHook(() => useTheme()).result.current;
    expect(mouse.token?.controlHeight).toBeUndefined();
    expect(mouse.components?.Menu?.itemHeight).toBe(40);
    expect(mouse.components?.Button).toBeUndefined();

    systemMotion(true, true);
    const touch = renderHook(() => useTheme()).result.current;
    expect(touch.token?.controlHeight).toBe(44);
    expect(touch.token?.motion).toBe(false);
    expect(touch.token?.colorPrimary).toBe("#1f6feb");
    expect(touch.components?.Menu?.itemHeight).toBe(44);
    expect(touch.components?.Menu?.darkItemSelectedBg).toBe("#1f6feb");
    for (const name of ["Button", "Pagination", "Input", "InputNumber", "Select", "DatePicker", "Radio"] as const)
      expect(touch.components?.[name], name).toMatchObject({ controlHeightSM: 44 });
    // A segment is its control less 2 px of track above and below.
    expect(touch.components?.Segmented).toMatchObject({ controlHeight: 48 });
  });
});

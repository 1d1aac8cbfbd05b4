// The console's antd theme: one brand colour, the shipped fonts, compact but calm spacing; on a touch
// screen every control a finger taps is at least 44 px (WCAG 2.5.5), with a mouse the compact sizes stay.
import type { ThemeConfig } from "antd";
import { useSyncExternalStore } from "react";

export const theme: ThemeConfig = {
  token: {
    colorPrimary: "#1f6feb",
    colorInfo: "#1f6feb",
    colorSuccess: "#2da44e",
    colorWarning: "#d4a72c",
    colorError: "#cf222e",
    borderRadius: 6,
    fontFamily: "var(--font-ui)",
    fontSize: 14,
    colorBgLayout: "#f4f6fa",
  },
  components: {
    Layout: { siderBg: "#0f1a2e", headerBg: "#ffffff", headerHeight: 56, headerPadding: "0 20px" },
    Menu: {
      darkItemBg: "#0f1a2e",
      darkSubMenuItemBg: "#0b1424",
      darkItemSelectedBg: "#1f6feb",
      itemHeight: 40,
    },
    Table: { headerBg: "#f7f8fa", headerColor: "#4b5563", cellPaddingBlockMD: 10 },
    Card: { paddingLG: 20 },
  },
};

/** The smallest side of a target a finger taps, in CSS pixels (WCAG 2.5.5; console.css says the same). */
export const TOUCH_TARGET = 44;

/** A small control that a finger taps is no smaller than another (an avatar or a skeleton stays small). */
const TOUCH_SMALL = { controlHeightSM: TOUCH_TARGET };

/**
 * On a touch screen: buttons, inputs, selects and their options, pagination, menu items, the tab bar's
 * tabs and dialogs' close buttons are all sized from antd's control heights, so raising those raises them
 * all.
 */
const TOUCH: ThemeConfig = {
  token: { controlHeight: TOUCH_TARGET, controlHeightLG: 48 },
  components: {
    Menu: { itemHeight: TOUCH_TARGET },
    Button: TOUCH_SMALL,
    Pagination: TOUCH_SMALL,
    Input: TOUCH_SMALL,
    InputNumber: TOUCH_SMALL,
    Select: TOUCH_SMALL,
    DatePicker: TOUCH_SMALL,
    // A segment is its control's height less the track's padding (2 px above and below).
    Segmented: { controlHeight: TOUCH_TARGET + 4, controlHeightSM: TOUCH_TARGET + 4 },
    Radio: TOUCH_SMALL,
  },
};

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
/** A finger is the primary pointer (a phone, a tablet); a laptop's touch screen beside a mouse is not. */
const COARSE_POINTER = "(pointer: coarse)";

/** Whether a media query matches, following its changes. */
function useMedia(media: string): boolean {
  const query = () => (typeof matchMedia === "function" ? matchMedia(media) : undefined);
  return useSyncExternalStore(
    (changed) => {
      const list = query();
      list?.addEventListener("change", changed);
      return () => list?.removeEventListener("change", changed);
    },
    () => query()?.matches ?? false,
    () => false,
  );
}

/** Whether the user taps with a finger: what shows on hover with a mouse opens on a tap instead. */
export const useTouch = (): boolean => useMedia(COARSE_POINTER);

function themeFor(reduced: boolean, touch: boolean): ThemeConfig {
  if (!reduced && !touch) return theme;
  return {
    ...theme,
    token: { ...theme.token, ...(touch ? TOUCH.token : {}), ...(reduced ? { motion: false } : {}) },
    components: touch
      ? { ...theme.components, ...TOUCH.components, Menu: { ...theme.components!.Menu, ...TOUCH.components!.Menu } }
      : theme.components,
  };
}
/** One theme object per setting, so antd's styles are worked out once for each. */
const THEMES = [false, true].map((reduced) => [false, true].map((touch) => themeFor(reduced, touch)));

/**
 * The theme, without antd's opening and closing animations for whoever asked their system for reduced
 * motion (WCAG 2.3.3), and with finger-sized controls on a touch screen; it follows a change of either
 * setting at once.
 */
export function useTheme(): ThemeConfig {
  const reduced = useMedia(REDUCED_MOTION);
  const touch = useTouch();
  return THEMES[Number(reduced)][Number(touch)];
}

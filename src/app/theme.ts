// The console's antd theme: one brand colour, the shipped fonts, compact but calm spacing.
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

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const motionQuery = () => (typeof matchMedia === "function" ? matchMedia(REDUCED_MOTION) : undefined);
const STILL_THEME: ThemeConfig = { ...theme, token: { ...theme.token, motion: false } };

/**
 * The theme, without antd's opening and closing animations for whoever asked their system for reduced
 * motion (WCAG 2.3.3); it follows a change of that setting at once.
 */
export function useTheme(): ThemeConfig {
  const reduced = useSyncExternalStore(
    (changed) => {
      const query = motionQuery();
      query?.addEventListener("change", changed);
      return () => query?.removeEventListener("change", changed);
    },
    () => motionQuery()?.matches ?? false,
    () => false,
  );
  return reduced ? STILL_THEME : theme;
}

// The console's antd theme: one brand colour, the shipped fonts, compact but calm spacing.
import type { ThemeConfig } from "antd";

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

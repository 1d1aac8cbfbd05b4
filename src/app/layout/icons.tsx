// The menu groups' icons, by the names resources/routes.json gives them. Only these are bundled;
// tests/unit/console.test.ts checks every group's icon is here.
import {
  AppstoreAddOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CloudUploadOutlined,
  DesktopOutlined,
  LayoutOutlined,
  ProfileOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TeamOutlined,
  ToolOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";

export const MENU_ICONS: Record<string, ComponentType> = {
  AppstoreAddOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CloudUploadOutlined,
  DesktopOutlined,
  LayoutOutlined,
  ProfileOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TeamOutlined,
  ToolOutlined,
};

export function MenuIcon({ name }: { name: string }) {
  const Icon = MENU_ICONS[name] ?? AppstoreOutlined;
  return <Icon />;
}

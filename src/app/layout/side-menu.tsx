// The side menu from the menu the server answered for this user (login, refreshed by the `menu`
// call): groups with their routes, labels translated here so a language switch applies at once.
import { Menu } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import type { MenuGroup } from "../session.ts";
import { routeOf } from "../routes.ts";
import { MenuIcon } from "./icons.tsx";

export function SideMenu({ menu, collapsed }: { menu: MenuGroup[]; collapsed: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // A create/edit/show page highlights its list's entry.
  const route = routeOf(pathname);
  const active = menu.flatMap((g) => g.routes).find((r) => r.path === pathname || r.id === route?.routeId);
  const group = menu.find((g) => g.routes.some((r) => r.id === active?.id));
  return (
    <Menu
      theme="dark"
      mode="inline"
      selectedKeys={active ? [active.id] : []}
      defaultOpenKeys={group && !collapsed ? [group.id] : []}
      items={menu.map((g) => ({
        key: g.id,
        icon: <MenuIcon name={g.icon} />,
        label: t(`menu:groups.${g.id}`),
        children: g.routes.map((r) => ({
          key: r.id,
          label: <Link to={r.path}>{t(`menu:routes.${r.id}`)}</Link>,
        })),
      }))}
    />
  );
}

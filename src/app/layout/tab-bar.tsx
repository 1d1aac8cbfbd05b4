// Each opened page is a tab titled from its route name (SPEC §2), kept across reloads. The home tab
// stays; closing the active tab opens its neighbour. Routes marked tab: false open without a tab.
import { Tabs } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { saveTabs, storedTabs, type StoredTab } from "../session.ts";
import { routeOf } from "../routes.ts";
import { extensions } from "../../extensions/index.ts";

const HOME = "/";

export function tabFor(pathname: string, search: string): StoredTab | undefined {
  const route = routeOf(pathname);
  if (!route || route.resource.meta.tab === false) return undefined;
  return {
    path: pathname + search,
    route: route.routeId,
    // A hand-written screen (the device import at /machine/import) is its menu entry, not an "Add" form.
    action:
      route.action === "list" || (route.resource.meta.extension && extensions[route.resource.meta.extension])
        ? undefined
        : route.action,
    id: route.id,
  };
}

/** Tabs are one per page: a list keeps one tab whatever its filters, a record one per id. */
const samePage = (a: StoredTab, b: StoredTab) => a.path.split("?")[0] === b.path.split("?")[0];

export function TabBar() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [tabs, setTabs] = useState<StoredTab[]>(storedTabs);

  useEffect(() => {
    const tab = tabFor(pathname, search);
    if (!tab) return;
    setTabs((current) => {
      const index = current.findIndex((c) => samePage(c, tab));
      const next = index < 0 ? [...current, tab] : current.map((c, i) => (i === index ? tab : c));
      saveTabs(next);
      return next;
    });
  }, [pathname, search]);

  const title = (tab: StoredTab) => {
    const name = t(`menu:routes.${tab.route}`);
    if (!tab.action) return name;
    return `${t(`actions.${tab.action}`)} · ${name}${tab.id ? ` #${tab.id}` : ""}`;
  };

  const close = (path: string) => {
    const index = tabs.findIndex((tab) => tab.path === path);
    const next = tabs.filter((tab) => tab.path !== path);
    setTabs(next);
    saveTabs(next);
    if (pathname === path.split("?")[0]) navigate(next[Math.max(0, index - 1)]?.path ?? HOME);
  };

  const active = tabs.find((tab) => tab.path.split("?")[0] === pathname)?.path ?? (pathname === HOME ? HOME : "");
  return (
    <Tabs
      className="tab-bar"
      type="editable-card"
      size="small"
      hideAdd
      activeKey={active}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => action === "remove" && close(String(key))}
      items={[
        { key: HOME, label: t("home.title"), closable: false },
        ...tabs.map((tab) => ({ key: tab.path, label: title(tab) })),
      ]}
    />
  );
}

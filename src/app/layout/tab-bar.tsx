// Each opened page is a tab titled from its route name (SPEC §2), kept across reloads. The home tab
// stays; closing the active tab opens its neighbour; the bar's menu closes the other tabs or all of
// them; a form that saved closes its own. Routes marked tab: false open without a tab.
import { CloseCircleOutlined, CloseOutlined } from "@ant-design/icons";
import { Button, Dropdown, Tabs } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { saveTabs, storedTabs, type StoredTab } from "../session.ts";
import { routeOf } from "../routes.ts";
import { extensions } from "../../extensions/index.ts";
import { confirmLeave } from "../unsaved.tsx";
import { PAGE_DONE_EVENT, PAGE_TITLE_EVENT, type PageTitle } from "../page-title.ts";
import { setOpenPages } from "./open-pages.ts";
import { entityNameKey } from "../../schema/keys.ts";

const HOME = "/";

export function tabFor(pathname: string, search: string): StoredTab | undefined {
  const route = routeOf(pathname);
  if (!route || route.resource.meta.tab === false) return undefined;
  return {
    path: pathname + search,
    route: route.routeId,
    // A hand-written screen on a form route (the agent wizard at /manage/add) is its menu entry, not an "Add" form.
    action:
      route.action === "list" || (route.resource.meta.extension && extensions[route.resource.meta.extension])
        ? undefined
        : route.action,
    id: route.id,
    entity: route.resource.name,
  };
}

/** "Channel plan" → "channel plan" inside an English phrase; names with other capitals (WIFI) stay. */
const inPhrase = (name: string, lng: string | undefined) =>
  lng === "en" && /^[A-Z][^A-Z]*$/.test(name) ? name.toLowerCase() : name;

/** Tabs are one per page: a list keeps one tab whatever its filters, a record one per id. */
const samePage = (a: StoredTab, b: StoredTab) => a.path.split("?")[0] === b.path.split("?")[0];

export function TabBar() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [tabs, setTabs] = useState<StoredTab[]>(storedTabs);
  // The entities' own names title their record tabs; their words load without holding up the bar.
  const entities = [...new Set(tabs.flatMap((tab) => (tab.entity ? [tab.entity] : [])))];
  const { t, i18n } = useTranslation(["common", "menu", ...entities], { useSuspense: false });

  useEffect(() => {
    const named = (event: Event) => {
      const { path, title } = (event as CustomEvent<PageTitle>).detail;
      setTabs((current) => {
        const next = current.map((tab) => (tab.path.split("?")[0] === path ? { ...tab, title } : tab));
        saveTabs(next);
        return next;
      });
    };
    // A form that saved moves on to its list: its tab goes (the form's page is left, nothing to ask).
    const done = (event: Event) => {
      const path = (event as CustomEvent<string>).detail;
      setTabs((current) => {
        const next = current.filter((tab) => tab.path.split("?")[0] !== path);
        saveTabs(next);
        return next;
      });
    };
    addEventListener(PAGE_TITLE_EVENT, named);
    addEventListener(PAGE_DONE_EVENT, done);
    return () => {
      removeEventListener(PAGE_TITLE_EVENT, named);
      removeEventListener(PAGE_DONE_EVENT, done);
    };
  }, []);

  useEffect(() => {
    const tab = tabFor(pathname, search);
    if (!tab) return;
    setTabs((current) => {
      const index = current.findIndex((c) => samePage(c, tab));
      // The same page again keeps the title its record gave it.
      const next = index < 0 ? [...current, tab] : current.map((c, i) => (i === index ? { ...c, ...tab } : c));
      saveTabs(next);
      return next;
    });
  }, [pathname, search]);

  /** A list by its route's name; a new record by its entity ("New channel plan"); a record by its title. */
  const title = (tab: StoredTab) => {
    const name = t(`menu:routes.${tab.route}`);
    if (!tab.action) return name;
    const entity = tab.entity && i18n.exists(entityNameKey(tab.entity)) ? t(entityNameKey(tab.entity)) : name;
    if (tab.action === "create") return t("tabs.create", { entity: inPhrase(entity, i18n.resolvedLanguage) });
    // Until the record's title is known (it comes with the record), its kind.
    const record = tab.title || entity;
    return tab.action === "edit" ? t("tabs.edit", { title: record }) : record;
  };

  const close = async (path: string) => {
    // Closing the page being edited asks first, like leaving it any other way.
    if (pathname === path.split("?")[0] && !(await confirmLeave())) return;
    const index = tabs.findIndex((tab) => tab.path === path);
    const next = tabs.filter((tab) => tab.path !== path);
    setTabs(next);
    saveTabs(next);
    if (pathname === path.split("?")[0]) navigate(next[Math.max(0, index - 1)]?.path ?? HOME);
  };

  /** Closes every tab but the one on screen (or all of them: home is left), asking first for a changed form. */
  const closeMany = async (others: boolean) => {
    const here = tabs.find((tab) => tab.path.split("?")[0] === pathname);
    if (!others && here && !(await confirmLeave())) return;
    const next = others && here ? [here] : [];
    setTabs(next);
    saveTabs(next);
    if (!next.length && pathname !== HOME) navigate(HOME);
  };

  useEffect(() => {
    setOpenPages(tabs.map((tab) => tab.path.split("?")[0]));
  }, [tabs]);

  const activeTab = tabs.find((tab) => tab.path.split("?")[0] === pathname);
  const active = activeTab?.path ?? (pathname === HOME ? HOME : "");
  // The browser's tab says the same as the console's.
  const label = activeTab ? title(activeTab) : pathname === HOME ? t("home.title") : undefined;
  useEffect(() => {
    document.title = label ? `${label} · ${t("app.title")}` : t("app.title");
  }, [label, t]);
  return (
    <Tabs
      className="tab-bar"
      type="editable-card"
      size="small"
      hideAdd
      activeKey={active}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => action === "remove" && void close(String(key))}
      items={[
        { key: HOME, label: t("home.title"), closable: false },
        ...tabs.map((tab) => ({ key: tab.path, label: title(tab) })),
      ]}
      tabBarExtraContent={
        tabs.length > 0 && (
          <Dropdown
            trigger={["click"]}
            placement="bottomRight"
            menu={{
              items: [
                { key: "others", label: t("tabs.closeOthers"), disabled: tabs.length < 2 && !!activeTab },
                { key: "all", label: t("tabs.closeAll"), icon: <CloseOutlined /> },
              ],
              onClick: ({ key }) => void closeMany(key === "others"),
            }}
          >
            <Button
              type="text"
              size="small"
              icon={<CloseCircleOutlined />}
              aria-label={t("tabs.menu")}
              title={t("tabs.menu")}
            />
          </Dropdown>
        )
      }
    />
  );
}

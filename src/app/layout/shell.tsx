// The signed-in frame: side menu, header (search, language, user menu), the offline notice, the tab bar and the
// current page.
// On every navigation it runs SPEC §2's version check; the menu is refreshed from the server once.
import { useLogout } from "@refinedev/core";
import { Avatar, Button, Drawer, Dropdown, Grid, Layout, Space, Typography } from "antd";
import { KeyOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from "@ant-design/icons";
import { Suspense, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { api } from "../api.ts";
import { LanguageSwitch } from "../language-switch.tsx";
import { OfflineNotice } from "../offline-notice.tsx";
import { lazyScreen, Loading } from "../lazy-screen.tsx";
import { currentSession, saveMenu, type MenuGroup } from "../session.ts";
import { useSite } from "../site.ts";
import { versionChanged } from "../version-check.ts";
import { preloadScreens } from "../screens.tsx";
import { pageShown } from "./page-transition.ts";
import { SearchBox } from "./search-box.tsx";
import { SideMenu } from "./side-menu.tsx";
import { KeptPages } from "./kept-pages.tsx";
import { TabBar } from "./tab-bar.tsx";
import { UnsavedChangesGuard } from "../unsaved.tsx";
import { useLiveScreens } from "../live-refresh.ts";

const COLLAPSED_KEY = "sider_collapsed";
const ChangePassword = lazyScreen(() => import("./change-password.tsx").then((m) => m.ChangePassword));

export function Shell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { mutate: logout } = useLogout();
  const site = useSite();
  const session = currentSession();
  const [menu, setMenu] = useState<MenuGroup[]>(session?.menu ?? []);
  const [collapsed, setCollapsed] = useState(localStorage.getItem(COLLAPSED_KEY) === "1");
  const [changing, setChanging] = useState(false);
  // On a phone the menu is a drawer over the page (closed after each navigation), not a column beside it.
  const phone = Grid.useBreakpoint().md === false;
  const [drawer, setDrawer] = useState(false);
  useEffect(() => setDrawer(false), [pathname]);
  useLayoutEffect(() => pageShown(), [pathname]);

  useEffect(() => preloadScreens(), []);
  useLiveScreens();
  useEffect(() => {
    void api("menu")
      .then((fresh) => {
        saveMenu(fresh);
        setMenu(fresh);
      })
      .catch(() => undefined); // a 401 here is handled by the next data call's logout
  }, []);

  // The check records a new version as it finds it, so its answer must be acted on even if the user
  // has moved on meanwhile; logout's identity changes between renders, hence the ref.
  const logoutRef = useRef(logout);
  logoutRef.current = logout;
  useEffect(() => {
    void versionChanged().then((changed) => changed && logoutRef.current());
  }, [pathname]);

  useEffect(() => {
    const expired = () => navigate("/expired");
    const ended = () => logoutRef.current();
    window.addEventListener("system-expired", expired);
    window.addEventListener("session-ended", ended);
    return () => {
      window.removeEventListener("system-expired", expired);
      window.removeEventListener("session-ended", ended);
    };
  }, [navigate]);

  const toggle = () => {
    if (phone) return setDrawer(!drawer);
    localStorage.setItem(COLLAPSED_KEY, collapsed ? "0" : "1");
    setCollapsed(!collapsed);
  };
  const narrow = collapsed && !phone;
  const brandAndMenu = (
    <>
      <div className="shell-brand" title={site?.site_name}>
        {site?.logo ? <img src={site.logo} alt="" /> : <span className="shell-brand-mark">M</span>}
        {!narrow && <span className="shell-brand-name">{site?.site_name || t("app.title")}</span>}
      </div>
      <div className="shell-menu">
        <SideMenu menu={menu} collapsed={narrow} />
      </div>
    </>
  );

  return (
    <Layout className="shell">
      {phone ? (
        <Drawer
          open={drawer}
          onClose={() => setDrawer(false)}
          placement="left"
          width={264}
          closable={false}
          className="shell-drawer"
          styles={{ body: { padding: 0 } }}
        >
          {brandAndMenu}
        </Drawer>
      ) : (
        <Layout.Sider width={232} collapsedWidth={64} collapsed={collapsed} className="shell-sider">
          {brandAndMenu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="shell-header">
          <Button
            type="text"
            icon={narrow || (phone && !drawer) ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={toggle}
            aria-label={t("actions.toggleMenu")}
            aria-expanded={phone ? drawer : !collapsed}
          />
          <Space size={phone ? 4 : 12}>
            <SearchBox compact={phone} />
            <LanguageSwitch />
            <Dropdown
              trigger={["click"]}
              menu={{
                items: [
                  {
                    key: "password",
                    icon: <KeyOutlined />,
                    label: t("actions.changePassword"),
                    onClick: () => setChanging(true),
                  },
                  { type: "divider" },
                  { key: "logout", icon: <LogoutOutlined />, label: t("actions.logout"), onClick: () => logout() },
                ],
              }}
            >
              <Button type="text" className="user-button" aria-label={t("actions.userMenu")}>
                <Avatar size="small" icon={<UserOutlined />} />
                <Typography.Text>{session?.user.nickname}</Typography.Text>
              </Button>
            </Dropdown>
          </Space>
        </Layout.Header>
        <OfflineNotice />
        <TabBar />
        <Layout.Content className="shell-content">
          <Suspense fallback={<Loading />}>
            <KeptPages />
          </Suspense>
        </Layout.Content>
      </Layout>
      {changing && <ChangePassword open onClose={() => setChanging(false)} />}
      <UnsavedChangesGuard />
    </Layout>
  );
}

// The console: Refine with antd and React Router. Providers are thin adapters (src/app/providers);
// routes come from the generated resources; every screen and the shell load on demand.
// antd 5 on React 19: the official patch (antd renders waves, modals and messages outside the tree).
import "@ant-design/v5-patch-for-react-19";
import { Refine } from "@refinedev/core";
import { QueryCache, QueryClient } from "@tanstack/react-query";
import { CatchAllNavigate } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import type { Locale } from "antd/es/locale";
import enUS from "antd/es/locale/en_US";
import { useEffect, useState } from "react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Route, Routes } from "react-router";
import { home, resources } from "../generated/resources.ts";
import { extensions, preloads } from "../extensions/index.ts";
import type { Language } from "./i18n.ts";
import { lazyScreen } from "./lazy-screen.tsx";
import { ApiError } from "./api.ts";
import { useNotificationProvider } from "./notification-provider.ts";
import { accessControlProvider } from "./providers/access-control.ts";
import { authProvider } from "./providers/auth-provider.ts";
import { dataProvider } from "./providers/data-provider.ts";
import { i18nProvider } from "./providers/i18n-provider.ts";
import { routerProvider } from "./providers/router-provider.ts";
import { screenRoutes } from "./routes.ts";
import { currentSession } from "./session.ts";
import { Screen } from "./screens.tsx";
import { useTheme } from "./theme.ts";
import "./console.css";
import { loadedUiLocale, loadUiLocale } from "./ui-locale.ts";

const Shell = lazyScreen(() => import("./layout/shell.tsx").then((m) => m.Shell));
const NotFoundPage = lazyScreen(() => import("./pages/not-found-page.tsx").then((m) => m.NotFoundPage));
const ExpiredPage = lazyScreen(() => import("./pages/expired-page.tsx").then((m) => m.ExpiredPage));

/** Home: the manifest's extension for it (the dashboard). */
function Home() {
  const Extension = extensions[home.extension];
  return Extension ? <Extension /> : <NotFoundPage />;
}

/** Refine's view of our resources: the generated ones as they are (name = entity, identifier = route id). */
const refineResources = resources.map((r) => ({ ...r, meta: { ...r.meta, label: undefined, hide: true } }));

/** Queries made outside Refine's hooks (relation titles, pickers, history) end the session on a 401 too. */
const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (error instanceof ApiError && error.statusCode === 401) dispatchEvent(new Event("session-ended"));
    },
  }),
  // Offline, a query pauses and keeps what it has (and refetches once the network is back); a write is
  // tried at once and fails, so that its form says it was not sent and keeps it (never sent later unseen).
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false }, mutations: { networkMode: "always" } },
});

/** The shell's own namespaces (the login page needs only common and login). */
const SHELL_NAMESPACES = ["menu", "errors", "validation"];

/**
 * Sign-in's wait before home (SPEC §2: 300 ms): the shell, its words and home's screen start loading.
 * Settled when their code and words are in (home's calls go on: its panels show their skeletons).
 */
export function preloadHome(): Promise<unknown> {
  return Promise.all([warmUp(), preloads[home.extension]?.(queryClient)]);
}

/**
 * The code and words of the shell and of home's screen, which need no session: the sign-in page starts
 * them as soon as the user turns to its form (and again, at once, on submitting it), so that they come
 * while the account and password are typed and checked, not after (issue 30: on a slow link they took
 * seconds after the sign-in's answer). Each loads once, however often it is asked.
 */
export function warmUp(): Promise<unknown> {
  return Promise.all([
    i18next.loadNamespaces(SHELL_NAMESPACES),
    loadUiLocale((i18next.resolvedLanguage ?? "en") as Language),
    Shell.preload(),
    extensions[home.extension]?.preload(),
  ]);
}

function Providers({ children }: { children: React.ReactNode }) {
  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      routerProvider={routerProvider}
      notificationProvider={useNotificationProvider}
      resources={refineResources}
      options={{
        syncWithLocation: true,
        // Unsaved input is guarded by our own guard (src/app/unsaved.tsx), with antd's confirmation.
        warnWhenUnsavedChanges: false,
        disableTelemetry: true,
        reactQuery: { clientConfig: queryClient },
      }}
    >
      {children}
    </Refine>
  );
}

/**
 * The console's pages need a session; once it is gone (signed out, or a call refused with 401) the next
 * render goes to the login page. In place of Refine's <Authenticated>, which renders nothing while its
 * check refetches: the shell and the page on it, with its state, went away and came back each time.
 */
function SessionGuard({ children }: { children: React.ReactNode }) {
  return currentSession() ? children : <CatchAllNavigate to="/login" />;
}

/** Everything behind the login page: Refine, antd, the shell and its screens. */
export function ConsoleApp() {
  const { i18n } = useTranslation(SHELL_NAMESPACES);
  const lng = (i18n.resolvedLanguage ?? "en") as Language;
  // Never without a locale (English until the language's own has loaded): antd wraps its tree in a
  // locale provider only when it is given one, so going from none to one mounted the whole console again.
  const [locale, setLocale] = useState<Locale>(() => loadedUiLocale(lng) ?? enUS);
  const theme = useTheme();
  useEffect(() => {
    let live = true;
    void loadUiLocale(lng).then((loaded) => live && setLocale(loaded));
    return () => {
      live = false;
    };
  }, [lng]);

  return (
    <ConfigProvider locale={locale} theme={theme}>
      <AntdApp>
        <Providers>
          <Routes>
            <Route
              element={
                <SessionGuard>
                  <Shell />
                </SessionGuard>
              }
            >
              <Route index element={<Home />} />
              {screenRoutes.map((route) => (
                <Route key={route.path} path={route.path} element={<Screen route={route} />} />
              ))}
              <Route path="/expired" element={<ExpiredPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </Providers>
      </AntdApp>
    </ConfigProvider>
  );
}

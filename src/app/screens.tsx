// Which screen a route shows: its hand-written extension when the manifest names one that exists
// (src/extensions), otherwise its entity's generated screen. Each loads on demand.
import { Result } from "antd";
import { useTranslation } from "react-i18next";
import { mayFetchAhead } from "./fetch-ahead.ts";
import { lazyScreen } from "./lazy-screen.tsx";
import { allowed, permissionOf } from "./providers/access-control.ts";
import type { ScreenRoute } from "./routes.ts";
import { extensions } from "../extensions/index.ts";

const screens = {
  list: lazyScreen(() => import("../crud/list-screen.tsx").then((m) => m.ListScreen), { page: true }),
  form: lazyScreen(() => import("../crud/form-screen.tsx").then((m) => m.FormScreen), { page: true }),
  show: lazyScreen(() => import("../crud/show-screen.tsx").then((m) => m.ShowScreen), { page: true }),
  settings: lazyScreen(() => import("../crud/settings-screen.tsx").then((m) => m.SettingsScreen), { page: true }),
};
const { list: ListScreen, form: FormScreen, show: ShowScreen, settings: SettingsScreen } = screens;
/** An entity's import page (not fetched ahead: few users import). */
const ImportScreen = lazyScreen(() => import("../crud/import-screen.tsx").then((m) => m.ImportScreen), { page: true });

/**
 * Once the shell is idle, the generic screens' code is fetched (a list, its records' details and forms
 * are where a user goes next) with the schemas their first call reads, so the first visit of any of
 * them waits only for its words and data. Not on a phone (fetch-ahead.ts).
 */
export function preloadScreens(): void {
  if (!mayFetchAhead()) return; // a phone fetches a screen's code when it is opened
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
  idle(() => {
    for (const screen of Object.values(screens)) void screen.preload();
    void import("../generated/schemas.ts").catch(() => undefined); // the data provider loads it again if need be
  });
}

/** A route the user's permissions do not cover (typed or bookmarked): said plainly, nothing loaded. */
function Forbidden() {
  const { t } = useTranslation();
  return <Result status="403" title="403" subTitle={t("errors:forbidden")} />;
}

export function Screen({ route }: { route: ScreenRoute }) {
  const id = route.resource.identifier;
  const { entity, permission } = route.resource.meta;
  // A list-type route needs its screen's permission (list, recycle_list, get); a record route its action's.
  if (!allowed(route.action === "list" ? permission : permissionOf(entity, route.action))) return <Forbidden />;
  const Extension = route.resource.meta.extension ? extensions[route.resource.meta.extension] : undefined;
  if (Extension) return <Extension route={route} />;
  switch (route.action) {
    case "list":
      switch (route.resource.meta.screen) {
        case "settings":
          return <SettingsScreen resource={id} />;
        case "import":
          return <ImportScreen resource={id} />;
        default:
          return <ListScreen resource={id} />;
      }
    case "create":
    case "edit":
      return <FormScreen resource={id} action={route.action} />;
    case "show":
      return <ShowScreen resource={id} />;
  }
}

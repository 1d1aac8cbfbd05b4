// Which generated screen a route shows; each loads on demand. The four hand-written extensions come
// later; until then their routes show their entity's generated screen.
import { lazyScreen } from "./lazy-screen.tsx";
import type { ScreenRoute } from "./routes.ts";

const ListScreen = lazyScreen(() => import("../crud/list-screen.tsx").then((m) => m.ListScreen));
const FormScreen = lazyScreen(() => import("../crud/form-screen.tsx").then((m) => m.FormScreen));
const ShowScreen = lazyScreen(() => import("../crud/show-screen.tsx").then((m) => m.ShowScreen));
const SettingsScreen = lazyScreen(() => import("../crud/settings-screen.tsx").then((m) => m.SettingsScreen));

export function Screen({ route }: { route: ScreenRoute }) {
  const id = route.resource.identifier;
  switch (route.action) {
    case "list":
      return route.resource.meta.screen === "settings" ? (
        <SettingsScreen resource={id} />
      ) : (
        <ListScreen resource={id} />
      );
    case "create":
    case "edit":
      return <FormScreen resource={id} action={route.action} />;
    case "show":
      return <ShowScreen resource={id} />;
  }
}

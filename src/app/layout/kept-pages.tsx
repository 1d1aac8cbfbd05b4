// The page of the address, and the generic lists whose tabs are open, kept mounted when left: going back
// to one shows the page that is there, with its rows, page, filters and sorting, where building it again
// cost about 300 ms of script on two cores (DESIGN §8: a warm switch under 300 ms). A kept page is hidden
// with `content-visibility: hidden` (console.css): not painted, not hit, out of the accessibility tree and
// of the tab order, and the browser keeps its styles and layout, so showing it again costs no style or
// layout of its own. (React's <Activity> hides with display: none, which drops both: showing a list again
// still took 370-390 ms, most of it the browser's style and layout and the table measuring itself.)
// A hidden page is not refreshed after an action elsewhere, nor rendered again: its queries' meta says it
// is hidden (src/app/page-shown.ts, src/crud/refresh.ts); shown again, it fetches what went stale.
//
// The document's scroll is one for all pages: each page's is noted as it scrolls, a kept page shown again
// goes back to where it was left, and any other page opens at the top.
//
// Each kept page sees the address it was left at: its route's matches are those of the element it
// rendered then, and its location is provided again over it, so hooks reading the address (the list's
// filters in the query) do not see another page's.
import { useContext, useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { UNSAFE_LocationContext as LocationContext, useNavigate, useOutlet } from "react-router";
import { extensions } from "../../extensions/index.ts";
import { PageShown, pageVisibility } from "../page-shown.ts";
import { routeOf } from "../routes.ts";
import { onScreen } from "../../crud/refresh.ts";
import { useOpenPages } from "./open-pages.ts";

type LocationValue = React.ContextType<typeof LocationContext>;

interface Kept {
  value: LocationValue;
  element: ReactNode;
  shown: number;
}

/** At most this many pages are kept besides the one on screen: the least recently shown goes first. */
export const KEPT_MAX = 8;

const sameAddress = (a: LocationValue, b: LocationValue) =>
  a.location.pathname === b.location.pathname &&
  a.location.search === b.location.search &&
  a.location.hash === b.location.hash &&
  a.location.state === b.location.state;

/** Generic lists (a hand-written screen may listen to the window, as the layout editor does). */
const keptRoute = (pathname: string) => {
  const route = routeOf(pathname);
  return route?.action === "list" && !(route.resource.meta.extension && extensions[route.resource.meta.extension]);
};

export function KeptPages() {
  const open = useOpenPages();
  const keep = (path: string) => open.has(path) && keptRoute(path);
  const live = useContext(LocationContext);
  const outlet = useOutlet();
  const navigate = useNavigate();
  const { pathname } = live.location;
  // Written once a page is committed (never during a render React may throw away), read as rendering.
  const kept = useRef(new Map<string, Kept>());
  const previous = kept.current.get(pathname);
  // Shown again at the same address, the page keeps the element and location it had (the route's
  // matches are new objects at each navigation): nothing in it renders again. Its bare address (the
  // menu's) shows it as it was left too, its query put back in the address: a list's tab is one
  // whatever its filters.
  const resumed = previous && (sameAddress(previous.value, live) || (!live.location.search && !live.location.hash));
  const page = resumed ? previous : { value: live, element: outlet };

  useLayoutEffect(() => {
    const { location } = page.value;
    if (!sameAddress(page.value, live)) navigate(location, { replace: true, state: location.state });
  });
  // The pages on screen and kept, in one order whatever is on screen (the map's), so none moves or
  // mounts again: the kept ones with an open tab, the most recently shown first when there are too many.
  // Another language lets them go: eight lists rendered again in it at once would hold up the switch.
  const { i18n } = useTranslation();
  const language = useRef(i18n.language);
  const others = [...kept.current]
    .filter(([path]) => path !== pathname && keep(path) && language.current === i18n.language)
    .sort(([, a], [, b]) => b.shown - a.shown)
    .slice(0, KEPT_MAX)
    .map(([path]) => path);
  const paths = [...kept.current.keys()].filter((path) => path === pathname || others.includes(path));
  if (!paths.includes(pathname)) paths.push(pathname);

  // Each page's visibility, one for its lifetime: told apart without rendering the pages again.
  const visibilities = useRef(new Map<string, ReturnType<typeof pageVisibility>>());
  const visibility = (path: string) => {
    let found = visibilities.current.get(path);
    if (!found) visibilities.current.set(path, (found = pageVisibility()));
    return found;
  };
  const queryClient = useQueryClient();
  const shownPath = useRef<string>(undefined);
  // Where each page was scrolled to, noted as the page on screen scrolls.
  const scrolled = useRef(new Map<string, number>());
  useEffect(() => {
    const note = () => shownPath.current && scrolled.current.set(shownPath.current, window.scrollY);
    window.addEventListener("scroll", note, { passive: true });
    return () => window.removeEventListener("scroll", note);
  }, []);

  useLayoutEffect(() => {
    language.current = i18n.language;
    const pages = kept.current;
    for (const path of [...pages.keys()]) if (!paths.includes(path)) pages.delete(path);
    if (keep(pathname)) pages.set(pathname, { ...page, shown: performance.now() });
    else pages.delete(pathname);
    for (const path of [...visibilities.current.keys()]) if (!paths.includes(path)) visibilities.current.delete(path);
    for (const path of [...scrolled.current.keys()]) if (!paths.includes(path)) scrolled.current.delete(path);
    for (const path of paths) visibility(path).set(path === pathname);
    // A list shown again fetches what went stale while it was hidden (src/crud/refresh.ts),
    // once it is on screen: the answer's render would otherwise hold up the frame that shows it.
    if (resumed && shownPath.current !== pathname)
      requestAnimationFrame(() =>
        setTimeout(() => void queryClient.refetchQueries({ type: "active", stale: true, predicate: onScreen })),
      );
    if (shownPath.current !== undefined && shownPath.current !== pathname)
      window.scrollTo({ top: (resumed && scrolled.current.get(pathname)) || 0, behavior: "instant" });
    shownPath.current = pathname;
  });

  return (
    <div className="kept-pages">
      {paths.map((path) => {
        const current = path === pathname;
        const { value, element } = current ? page : kept.current.get(path)!;
        return (
          // data-path: which address the page belongs to (a navigation renders as a transition, so the
          // page being left stays a moment after the address changed); data-current: the one shown.
          <div key={path} className="page-fade" data-path={path} data-current={current || undefined}>
            <PageShown.Provider value={visibility(path)}>
              <LocationContext.Provider value={value}>{element}</LocationContext.Provider>
            </PageShown.Provider>
          </div>
        );
      })}
    </div>
  );
}

// A record screen names its record for the tab bar ("Edit: Phnom Penh VM-10 layout"), and a form that
// saved its record closes its tab: the screen knows the record, the tab bar only its address. Told by
// events, so neither imports the other.
import { useEffect } from "react";
import { useLocation } from "react-router";

export interface PageTitle {
  /** The page's pathname. */
  path: string;
  title: string;
}

export const PAGE_TITLE_EVENT = "page-title";

/** Names the current page's record once it is known. */
export function usePageTitle(title: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (title) dispatchEvent(new CustomEvent<PageTitle>(PAGE_TITLE_EVENT, { detail: { path: pathname, title } }));
  }, [pathname, title]);
}

export const PAGE_DONE_EVENT = "page-done";

/** The page at `path` has done its work (a form saved): its tab closes, as the screen moves on. */
export const pageDone = (path: string): void =>
  void dispatchEvent(new CustomEvent<string>(PAGE_DONE_EVENT, { detail: path }));

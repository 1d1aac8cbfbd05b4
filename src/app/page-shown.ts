// Whether the page rendering it is the one on screen: a list left for another page stays mounted, hidden
// (src/app/layout/kept-pages.tsx). The page's answer changes without rendering the page again (a list's
// rows and their actions would all render twice at every switch): what must follow it asks for it.
import { createContext, useContext, useSyncExternalStore } from "react";

export interface PageVisibility {
  /** Whether the page is on screen now (stable, callable at any time: in a query's meta). */
  shown: () => boolean;
  subscribe: (listener: () => void) => () => void;
}

/** A page's visibility, set by the kept pages as each is shown or hidden. */
export function pageVisibility(): PageVisibility & { set: (shown: boolean) => void } {
  let shown = true;
  const listeners = new Set<() => void>();
  return {
    shown: () => shown,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set: (next) => {
      if (next === shown) return;
      shown = next;
      for (const listener of listeners) listener();
    },
  };
}

/** Outside the kept pages (a record, a form, a dialog's own tree) a page is always on screen. */
const ALWAYS: PageVisibility = { shown: () => true, subscribe: () => () => {} };

export const PageShown = createContext<PageVisibility>(ALWAYS);

/** Whether the page is on screen, rendering its caller again when that changes (a dialog, which closes with it). */
export function usePageShown(): boolean {
  const page = useContext(PageShown);
  return useSyncExternalStore(page.subscribe, page.shown);
}

/**
 * Whether the page is on screen, asked when needed, never rendering its caller again: in a query's
 * meta, so that the refresh after an action elsewhere leaves a hidden list's queries alone
 * (src/crud/refresh.ts); the kept pages fetch what went stale when they show it again.
 */
export const usePageShownNow = (): (() => boolean) => useContext(PageShown).shown;

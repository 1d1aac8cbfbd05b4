// Refine's React Router bindings, with one guard: a screen being left never pulls the address back.
// A list keeps its page, sorting and filters in the address by replacing it from an effect, with the
// address relative to its own route. React Router renders a navigation as a transition, so the list
// stays mounted for a moment after a click on the menu, and an effect of it that runs then (its first
// sync, or one after its data arrived) would replace the new address with the list's own: the user
// clicked "Settings" and is back on the list.
import { useCallback } from "react";
import type { GoConfig, RouterProvider } from "@refinedev/core";
import bindings from "@refinedev/react-router";
import { useLocation } from "react-router";

/** The address the browser is at now, which runs ahead of the one a screen being left was rendered at. */
const browserPath = () => window.location.pathname;

export function guardedRouterProvider(base: RouterProvider, currentPath: () => string = browserPath): RouterProvider {
  return {
    ...base,
    go: () => {
      const go = base.go!();
      const { pathname } = useLocation();
      return useCallback(
        (config: GoConfig) => {
          // Only an address relative to the caller's screen (no `to`) can pull it back; a link or an
          // explicit destination goes where it says.
          if (config.type === "replace" && config.to === undefined && currentPath() !== pathname) return undefined;
          return go(config);
        },
        [go, pathname],
      );
    },
  };
}

export const routerProvider = guardedRouterProvider(bindings);

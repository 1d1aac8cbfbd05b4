// Shared setup of the unit tests that run in jsdom: the browser APIs antd expects and jsdom lacks,
// Testing Library's cleanup, i18next loaded from the real locale files and a signed-in session.
// Files that render antd wrap it in AntdRoot (antd-root.ts), which loads this file first.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { cleanup, configure } from "@testing-library/react";
import i18n from "i18next";
import { afterEach, vi } from "vitest";
import { initI18n } from "../../src/app/i18n.ts";
import { saveSession } from "../../src/app/session.ts";

// A first render of a screen (its translations, antd's styles) can take over a second on a busy machine.
configure({ asyncUtilTimeout: 4000 });

// React's act() warnings stay quiet only when the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The width media queries answer for: a desktop screen, unless a test sets another. */
export const viewport = { width: 1440 };

/** Width queries ("(min-width: 1200px)", antd's breakpoints) against viewport.width; other features never match. */
export function mediaMatches(query: string): boolean {
  const parts = query.split(/\s+and\s+/);
  return parts.every((part) => {
    const width = /\((min|max)-width:\s*(\d+(?:\.\d+)?)px\)/.exec(part);
    if (!width) return false;
    return width[1] === "min" ? viewport.width >= Number(width[2]) : viewport.width <= Number(width[2]);
  });
}

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      get matches() {
        return mediaMatches(query);
      },
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!("ResizeObserver" in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}

// jsdom does not implement pseudo-elements (antd measures the scrollbar with one); ignore them.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The locale files as the console fetches them, read from the tree (there is no server in a unit test). */
export async function localeFetch(url: string): Promise<Response> {
  const file = /locales\/(\w+)\/(\w+)\.json/.exec(url);
  if (!file) return new Response(null, { status: 404 });
  const text = await readFile(join(import.meta.dirname, "../../locales", file[1], `${file[2]}.json`), "utf8");
  return new Response(text, { headers: { "content-type": "application/json" } });
}

/** i18next with the namespaces a test needs, in English; each test file gets its own instance. */
export async function setupI18n(namespaces: string[]): Promise<typeof i18n> {
  localStorage.setItem("lang", "en");
  const instance = i18n.isInitialized ? i18n : await initI18n(namespaces, { fetch: localeFetch });
  await instance.loadNamespaces(namespaces);
  if (instance.language !== "en") await instance.changeLanguage("en");
  return instance;
}

/** Stores a signed-in session, as login does, holding these permissions. */
export function signIn(permissions: string[] = [], token = "test-token"): void {
  saveSession({
    token,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    user: { id: 1, kind: "agent", nickname: "Admin", account: "admin", agent_id: 1, is_admin: true },
    permissions,
    menu: [],
  });
}

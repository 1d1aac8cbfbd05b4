// The console as an installable web app (issue 30): its service worker (src/service-worker/sw.ts, served as
// /sw.js by a production build) and its manifest in the language shown (one manifest a language, written
// by tools/pwa.ts, so a phone installs "商户管理后台" for a Chinese user).
import type { Language } from "../schema/constants.ts";

/** The manifest of a language, as the build names it. */
export const manifestOf = (lng: Language): string => `/manifest-${lng}.webmanifest`;

/** Points the page's manifest at the language shown (the build's index.html links English's). */
export function showManifestIn(lng: Language): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (link) link.href = manifestOf(lng);
}

/** The console's code this page fetched before a worker served it (the first visit's). */
const loadedCode = (): string[] =>
  performance
    .getEntriesByType("resource")
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin && url.pathname.startsWith("/assets/"))
    .map((url) => url.pathname);

/**
 * Registers the service worker once the page has loaded (so it never competes with the first paint), and
 * hands it the code this page loaded before it was there, to keep (it comes from the browser's cache).
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch(() => undefined);
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ keep: loadedCode() }));
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/**
 * Asks the browser to look for a newer worker now: the console's version check saw a new version (the
 * user is signed out), and the code they sign in again with must be the new one.
 */
export function checkForNewCode(): void {
  void navigator.serviceWorker
    ?.getRegistration()
    .then((registration) => registration?.update())
    .catch(() => undefined);
}

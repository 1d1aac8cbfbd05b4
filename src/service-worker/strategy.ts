// What the console's service worker (sw.ts) does with each request, decided here without the worker's
// types so that the unit tests can ask: the console's code comes from the cache first (its files are
// fingerprinted: a cached one is never stale), a page is fetched from the network first and falls back to
// the cached shell when there is none, the few fixed files (manifests, icons) likewise, and the rest (the
// API, uploaded files, the worker itself, other origins, anything but a GET) is left to the network.

/** What a build tells its worker (written into sw.js by tools/pwa.ts). */
export interface Build {
  /** Changes with any file of the build, so a new build is a new worker. */
  version: string;
  /** Cached when the worker installs (besides the page): the sign-in's code and style. */
  shell: string[];
  /** Every fingerprinted file of the build: cached code of other builds is removed. */
  assets: string[];
}

export type Route = "code" | "page" | "fixed" | "network";

/** The page every console address is served (the client routes it). */
export const SHELL_PAGE = "/index.html";

/** How long a page waits for the network before the cached shell is shown instead (a network that
 * answers nothing, as in a basement with one bar, is no better than none). */
export const PAGE_WAIT_MS = 4000;

const LEFT_TO_NETWORK = /^\/(merchant|admin|uploads)\/|^\/sw\.js$/;

export function routeOf(request: { method: string; url: string; mode: string }, origin: string): Route {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin || LEFT_TO_NETWORK.test(url.pathname)) return "network";
  if (request.mode === "navigate") return "page";
  if (url.pathname.startsWith("/assets/")) return "code";
  return "fixed";
}

/** The cached requests (their paths) that are no file of this build, to be removed. */
export function stale(cached: string[], build: Build): string[] {
  const current = new Set(build.assets.map((file) => `/${file}`));
  return cached.filter((path) => !current.has(path));
}

/** Cache names: the shell of one build, and the code used since (shared by builds, pruned to the current). */
export const shellCache = (build: Build): string => `shell-${build.version}`;
export const CODE_CACHE = "code";

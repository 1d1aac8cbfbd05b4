/// <reference lib="webworker" />
// The console's service worker (issue 30): a second visit does not wait on the network for code, and a
// console without a network still opens. Built into /sw.js by tools/pwa.ts with this build's file list;
// each build is a new worker, which takes over at once and removes the code of other builds (an open page
// of an older build that misses a file is offered a retry by its screen, src/app/lazy-screen.tsx).
import { CODE_CACHE, PAGE_WAIT_MS, routeOf, shellCache, SHELL_PAGE, stale, type Build } from "./strategy.ts";

declare const self: ServiceWorkerGlobalScope;
declare const __BUILD__: Build;

const build = __BUILD__;
const SHELL = shellCache(build);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll([SHELL_PAGE, ...build.shell.map((file) => `/${file}`)]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith("shell-") && name !== SHELL) await caches.delete(name);
      const code = await caches.open(CODE_CACHE);
      const paths = (await code.keys()).map((request) => new URL(request.url).pathname);
      await Promise.all(stale(paths, build).map((path) => code.delete(path)));
      // A page's request goes out while the worker starts, not after (a phone's worker takes a while to wake).
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

// A page's code fetched before this worker served it: kept (the browser's cache has it).
self.addEventListener("message", (event) => {
  const keep = (event.data as { keep?: unknown } | null)?.keep;
  if (!Array.isArray(keep)) return;
  const paths = keep.filter((path): path is string => typeof path === "string" && path.startsWith("/assets/"));
  event.waitUntil(caches.open(CODE_CACHE).then((cache) => cache.addAll(paths).catch(() => undefined)));
});

self.addEventListener("fetch", (event) => {
  const route = routeOf(event.request, self.location.origin);
  if (route === "code") event.respondWith(code(event.request));
  else if (route === "page")
    event.respondWith(
      fromNetworkFirst(
        Promise.resolve(event.preloadResponse).then(
          (preloaded: Response | undefined) => preloaded ?? fetch(event.request),
        ),
        event.request,
        SHELL_PAGE,
      ),
    );
  else if (route === "fixed") event.respondWith(fromNetworkFirst(fetch(event.request), event.request));
});

/** A file of the console's code: the cache's copy, or the network's, kept for the next time. */
async function code(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    void caches.open(CODE_CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** The network's answer; without one (offline, or none within PAGE_WAIT_MS), the cached copy of `fallback`. */
async function fromNetworkFirst(network: Promise<Response>, request: Request, fallback?: string): Promise<Response> {
  network.catch(() => undefined); // a late failure, once the cached copy was answered, is no one's to handle
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), PAGE_WAIT_MS)));
  try {
    const answer = await Promise.race([network, late]);
    if (answer !== "late") return answer;
  } catch {
    // offline: the cache's copy below
  } finally {
    clearTimeout(timer);
  }
  const cached = await caches.match(fallback ?? request, { cacheName: SHELL });
  return cached ?? network;
}

// The browser's Back and Forward, seen before React Router sees them. The router changes the page as
// soon as its popstate listener runs; a listener added before it can keep the event from it. Chromium
// calls the window's popstate listeners in the order they were added (a capture listener is not first),
// so this module adds its listener as the entry loads, before the router starts, and the unsaved-changes
// guard (src/app/unsaved.tsx) decides there, once it is mounted, whether an event goes on.
type PopGuard = (event: PopStateEvent) => boolean;

let guard: PopGuard | undefined;

/** `stop(event)` is asked on every Back and Forward; when it says true, the router does not see the event. */
export function setPopGuard(stop: PopGuard | undefined): void {
  guard = stop;
}

window.addEventListener("popstate", (event) => {
  if (guard?.(event)) event.stopImmediatePropagation();
});

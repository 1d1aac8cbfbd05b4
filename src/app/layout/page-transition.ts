// SPEC §2's page transitions: the page being left fades out over 120 ms while the new one fades in
// over 150 ms (.page-fade in console.css; [data-current] marks the one on screen, beside the lists kept
// hidden, src/app/layout/kept-pages.tsx). The leaving page is a still copy laid over the content
// area, outside React's tree, so the new page renders at once and nothing waits for the animation.
// Users who ask for reduced motion get neither.
//
// A navigation keeps the page being left on screen until the new one is ready (a transition; a page
// has no loading fallback of its own, src/app/lazy-screen.tsx). When that takes long, its code or words
// still coming, a bar above the content says the page is on its way.

/** The leaving fade's length (the animation itself is .page-leaving in console.css). */
const LEAVE_MS = 120;

const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** How long a navigation may go unseen before the bar shows. */
export const PENDING_AFTER_MS = 300;
let pending: ReturnType<typeof setTimeout> | undefined;

/** A navigation to another page starts: the page being left fades, and the bar shows if it takes long. */
export function pageLeaving(): void {
  leaveFade();
  clearTimeout(pending);
  pending = setTimeout(() => {
    const content = document.querySelector(".shell-content");
    const shown = content?.querySelector(".page-fade[data-current]")?.getAttribute("data-path");
    if (content && shown !== location.pathname) content.setAttribute("aria-busy", "true");
  }, PENDING_AFTER_MS);
}

/** The page of the address is on screen (the shell, as it commits a page). */
export function pageShown(): void {
  clearTimeout(pending);
  document.querySelector(".shell-content")?.removeAttribute("aria-busy");
}

/** Fades the current page out, if there is one to fade. */
function leaveFade(): void {
  if (reduced()) return;
  const page = document.querySelector<HTMLElement>(".shell-content .page-fade[data-current]");
  if (!page) return;
  document.querySelector(".page-leaving")?.remove();
  const area = page.getBoundingClientRect();
  const copy = page.cloneNode(true) as HTMLElement;
  copy.className = "page-leaving";
  copy.setAttribute("aria-hidden", "true");
  copy.inert = true;
  Object.assign(copy.style, {
    top: `${area.top}px`,
    left: `${area.left}px`,
    width: `${area.width}px`,
    height: `${Math.min(area.height, innerHeight - area.top)}px`,
  });
  document.body.append(copy);
  const remove = () => copy.remove();
  copy.addEventListener("animationend", remove);
  setTimeout(remove, LEAVE_MS * 3); // whatever happens to the animation
}

/** Whether going to `to` leaves the current page (a change of address, not only of its query). */
export function leavesPage(to: unknown): boolean {
  const path =
    typeof to === "string"
      ? new URL(to, location.href).pathname
      : ((to as { pathname?: string } | undefined)?.pathname ?? location.pathname);
  return path !== location.pathname;
}

// The fonts of a language's script, loaded when the language is first shown (Latin is on every page:
// fonts.css). An English page downloads no Thai, Khmer or Chinese font; a language switched to fetches its
// font's stylesheet once, and the slices its text uses (font-display: swap, so text never waits for them).
import type { Language } from "../schema/constants.ts";

const SCRIPT_FONTS: Partial<Record<Language, () => Promise<unknown>>> = {
  th: () => import("./fonts/th.css"),
  km: () => import("./fonts/km.css"),
  zh: () => import("./fonts/zh.css"),
  tw: () => import("./fonts/tw.css"),
};

const loaded = new Set<Language>();

/** Loads the fonts `lng`'s script needs, once; a failure (offline) is tried again at the next change. */
export function loadScriptFont(lng: Language): void {
  const load = SCRIPT_FONTS[lng];
  if (!load || loaded.has(lng)) return;
  loaded.add(lng);
  load().catch(() => loaded.delete(lng));
}

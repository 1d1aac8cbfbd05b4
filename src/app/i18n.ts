// i18next for the console: five languages, the choice kept in local storage, otherwise the browser's
// language, falling back to English. Each language's files load on demand, one file per namespace, and one
// that failed to arrive is fetched again (translation-loader.ts).
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";

import { HTML_LANG, LANGUAGES, type Language } from "../schema/constants.ts";
import { loadScriptFont } from "./fonts.ts";
import { showManifestIn } from "./web-app.ts";
import {
  failedTranslations,
  translationBackend,
  TRANSLATIONS_ARRIVED,
  type Fetch,
  type TranslationUrls,
} from "./translation-loader.ts";

export { HTML_LANG, LANGUAGES, type Language };

/** Each language's own name, shown in the language switcher whatever the current language is. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  zh: "简体中文",
  km: "ភាសាខ្មែរ",
  th: "ภาษาไทย",
  tw: "繁體中文",
};

export const STORAGE_KEY = "lang";

/** Each locale file's address ("en/common" → its built asset), fetched when its namespace is needed. */
const urls: TranslationUrls = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>("../../locales/*/*.json", { query: "?url&no-inline", import: "default", eager: true }),
  ).map(([path, url]) => [path.replace(/^.*locales\/(.+)\.json$/, "$1"), url]),
);

/** Browser tags to our codes: zh-TW, zh-HK and zh-Hant are traditional (tw); other zh-* simplified. */
export function toLanguage(tag: string): Language | undefined {
  const lower = tag.toLowerCase();
  if (/^zh-(tw|hk|mo|hant)/.test(lower)) return "tw";
  const base = lower.split("-")[0];
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : undefined;
}

let retryFailed = (): void => {};

/** Fetches again the translations that failed to arrive (api.ts calls it after each call that succeeded). */
export const retryFailedTranslations = (): void => retryFailed();

export interface I18nOptions {
  /** How the files are fetched: the window's fetch, or a test's. */
  fetch?: Fetch;
  /** The first wait before i18next asks again for a file that failed, in ms (it doubles each time). */
  retryWait?: number;
  /** Another instance than the console's one (a test's). */
  instance?: typeof i18n;
}

export async function initI18n(namespaces: string[], options: I18nOptions = {}): Promise<typeof i18n> {
  const { fetch: get = (url) => fetch(url), retryWait = 500, instance = i18n } = options;
  instance.on("languageChanged", (lng) => {
    document.documentElement.lang = HTML_LANG[lng as Language] ?? "en";
    loadScriptFont(lng as Language);
    if ((LANGUAGES as readonly string[]).includes(lng)) showManifestIn(lng as Language);
  });
  const failed = failedTranslations(instance);
  retryFailed = failed.retry;
  window.addEventListener("online", failed.retry);
  await instance
    .use(LanguageDetector)
    .use(translationBackend(urls, get))
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      fallbackLng: "en",
      ns: namespaces,
      defaultNS: "common",
      returnEmptyString: false,
      interpolation: { escapeValue: false },
      // Three more tries, 0.5, 1 and 2 s apart; after that the next call that reaches the server or the
      // browser's "online" fetches the file again.
      maxRetries: 3,
      retryTimeout: retryWait,
      // Screens that showed a namespace's keys re-render once it arrives.
      react: { bindI18n: `languageChanged ${TRANSLATIONS_ARRIVED}` },
      detection: {
        order: ["localStorage", "navigator"],
        lookupLocalStorage: STORAGE_KEY,
        caches: ["localStorage"],
        convertDetectedLanguage: (tag: string) => toLanguage(tag) ?? "en",
      },
    });
  return instance;
}

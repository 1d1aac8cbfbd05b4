// i18next for the console: five languages, the choice kept in local storage, otherwise the browser's
// language, falling back to English. Each language's files load on demand, one chunk per namespace.
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";

import { LANGUAGES, type Language } from "../schema/constants.ts";

export { LANGUAGES, type Language };

/** Each language's own name, shown in the language switcher whatever the current language is. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  zh: "简体中文",
  km: "ភាសាខ្មែរ",
  th: "ภาษาไทย",
  tw: "繁體中文",
};

export const STORAGE_KEY = "lang";

/** The BCP 47 tag of each language, for <html lang> (fonts, screen readers, hyphenation). */
export const HTML_LANG: Record<Language, string> = { en: "en", zh: "zh-Hans", km: "km", th: "th", tw: "zh-Hant" };

const files = import.meta.glob<{ default: Record<string, unknown> }>("../../locales/*/*.json");

/** Browser tags to our codes: zh-TW, zh-HK and zh-Hant are traditional (tw); other zh-* simplified. */
export function toLanguage(tag: string): Language | undefined {
  const lower = tag.toLowerCase();
  if (/^zh-(tw|hk|mo|hant)/.test(lower)) return "tw";
  const base = lower.split("-")[0];
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : undefined;
}

export async function initI18n(namespaces: string[]): Promise<typeof i18n> {
  i18n.on("languageChanged", (lng) => {
    document.documentElement.lang = HTML_LANG[lng as Language] ?? "en";
  });
  await i18n
    .use(LanguageDetector)
    .use(
      resourcesToBackend(async (lng: string, ns: string) => {
        const load = files[`../../locales/${lng}/${ns}.json`];
        if (!load) throw new Error(`no translations for ${lng}/${ns}`);
        return (await load()).default;
      }),
    )
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      fallbackLng: "en",
      ns: namespaces,
      defaultNS: "common",
      returnEmptyString: false,
      interpolation: { escapeValue: false },
      detection: {
        order: ["localStorage", "navigator"],
        lookupLocalStorage: STORAGE_KEY,
        caches: ["localStorage"],
        convertDetectedLanguage: (tag: string) => toLanguage(tag) ?? "en",
      },
    });
  return i18n;
}

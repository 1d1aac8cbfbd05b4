// Server-side messages in the caller's language (Locale header), from the same locale files as the
// console: validation messages, field labels, server errors.
import i18next, { type i18n as I18n, type Resource } from "i18next";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { LANGUAGES, type Language } from "../../src/schema/constants.ts";
import { ROOT } from "./root.ts";

export { LANGUAGES, type Language };

const LOCALES = join(ROOT, "locales");

function loadResources(): Resource {
  const resources: Resource = {};
  for (const lng of LANGUAGES) {
    resources[lng] = {};
    for (const file of readdirSync(join(LOCALES, lng))) {
      if (file.endsWith(".json"))
        resources[lng][file.slice(0, -5)] = JSON.parse(readFileSync(join(LOCALES, lng, file), "utf8"));
    }
  }
  return resources;
}

let instance: I18n | undefined;

export function serverI18n(): I18n {
  if (instance) return instance;
  instance = i18next.createInstance();
  void instance.init({
    resources: loadResources(),
    initAsync: false,
    fallbackLng: "en",
    supportedLngs: [...LANGUAGES],
    defaultNS: "errors",
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}

export function languageOf(header: string | string[] | undefined): Language {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : "en";
}

export function translate(lng: Language, key: string, params?: Record<string, unknown>): string {
  return serverI18n().t(key, { lng, ...params }) as string;
}

/** Whether the locale files hold a text for the key (in English, which every language falls back to). */
export function hasTranslation(key: string): boolean {
  return serverI18n().exists(key, { lng: "en" });
}

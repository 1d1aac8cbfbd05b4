// Refine's i18n provider over the console's i18next instance (src/app/i18n.ts).
import type { I18nProvider } from "@refinedev/core";
import i18n from "i18next";

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) =>
    i18n.exists(key, options) ? String(i18n.t(key, options)) : (defaultMessage ?? key),
  changeLocale: (lng) => i18n.changeLanguage(lng),
  getLocale: () => i18n.resolvedLanguage ?? "en",
};

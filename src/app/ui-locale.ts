// antd's and dayjs's own texts (pagers, pickers, empty states, relative dates) follow the console's
// language; each language's files load only when it is chosen.
import type { Locale } from "antd/es/locale";
import dayjs from "dayjs";
import type { Language } from "./i18n.ts";

const loaders: Record<Language, () => Promise<[{ default: Locale }, unknown]>> = {
  en: () => Promise.all([import("antd/es/locale/en_US"), import("dayjs/locale/en")]),
  zh: () => Promise.all([import("antd/es/locale/zh_CN"), import("dayjs/locale/zh-cn")]),
  tw: () => Promise.all([import("antd/es/locale/zh_TW"), import("dayjs/locale/zh-tw")]),
  km: () => Promise.all([import("antd/es/locale/km_KH"), import("dayjs/locale/km")]),
  th: () => Promise.all([import("antd/es/locale/th_TH"), import("dayjs/locale/th")]),
};

const DAYJS: Record<Language, string> = { en: "en", zh: "zh-cn", tw: "zh-tw", km: "km", th: "th" };

const loaded = new Map<Language, Locale>();

export async function loadUiLocale(lng: Language): Promise<Locale> {
  const [antd] = await loaders[lng]();
  dayjs.locale(DAYJS[lng]);
  loaded.set(lng, antd.default);
  return antd.default;
}

/** The language's antd texts if they have loaded already (sign-in's wait loads them). */
export const loadedUiLocale = (lng: Language): Locale | undefined => loaded.get(lng);

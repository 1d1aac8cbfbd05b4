// How values read on screen, one format per kind of field: money from minor units with two decimals
// and the business's currency, fractions as percentages, quantities with their unit (x-ui.unit), dates
// and times in one format per language (always the Gregorian calendar and Latin digits, so a Thai user
// reads 2026 on every screen), times in the business's zone (time-zone.ts). Pure functions, shared by list
// cells, detail views, messages and widgets.
import dayjs from "dayjs";
import i18n from "i18next";
import { useSyncExternalStore } from "react";
import type { FieldView } from "./model.ts";
import { amountText, intlLocale, toMajor, toMinor } from "../schema/money.ts";
import type { XUi } from "../schema/types.ts";
import { timeZone } from "./time-zone.ts";

export { intlLocale, toMajor, toMinor };

/** 12345 minor units → "123.45" (with the language's grouping). */
export const formatMoney = (minor: number, lng = "en"): string => amountText(minor, lng);

/** The business's currency (system settings, ISO 4217), known once the site's settings have loaded. */
let currency: string | undefined;
const listeners = new Set<() => void>();

export function setCurrency(code: string | undefined): void {
  if (code === currency) return;
  currency = code;
  for (const listener of listeners) listener();
}

/** The currency, re-rendering the caller when the settings bring it. */
export function useCurrency(): string | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => currency,
  );
}

/**
 * 12345 minor units as an amount of the currency: "$123.45", "US$123.45" (zh), "123.45៛" (KHR in km).
 * Two decimals always, as stored; the plain number where no currency is known.
 */
export const formatAmount = (minor: number, lng = "en", code = currency): string => amountText(minor, lng, code);

/** "123.45" → 12345; undefined for text that is not an amount with at most two decimals. */
export function parseMoney(text: string): number | undefined {
  const clean = text.replace(/[,\s]/g, "");
  if (!/^\d+(\.\d{0,2})?$/.test(clean)) return undefined;
  return toMinor(Number(clean));
}

/** 0.06 → "6%", 0.125 → "12.5%". */
export function formatFraction(value: number): string {
  return `${Number((value * 100).toFixed(4))}%`;
}

/** Percent as typed (6, 12.5) to the stored fraction (0.06, 0.125), without binary float noise. */
export const percentToFraction = (percent: number): number => Number((percent / 100).toFixed(6));
export const fractionToPercent = (fraction: number): number => Number((fraction * 100).toFixed(4));

/** A number with its unit in the user's language: "60 min", "8 h", "3 days", "$1.20 / kWh". */
export function withUnit(text: string, unit: NonNullable<XUi["unit"]>, count?: number): string {
  return i18n.t(`common:units.${unit}`, { value: text, count });
}

/** What stands before and after the number of a unit in the user's language ("", "days"; "", "/ kWh"). */
export function unitAffixes(unit: NonNullable<XUi["unit"]>, count?: number): Affixes {
  const marker = "\u0000";
  const [before = "", after = ""] = withUnit(marker, unit, count).split(marker);
  return { before: before.trim(), after: after.trim() };
}

const currencyAffixCache = new Map<string, Affixes>();

/** What stands before and after an amount of the currency in the user's language ("$", ""; "", "៛"). */
export function currencyAffixes(lng = "en", code = currency): Affixes {
  if (!code) return { before: "", after: "" };
  const key = `${lng}:${code}`;
  let affixes = currencyAffixCache.get(key);
  if (!affixes) {
    const parts = new Intl.NumberFormat(intlLocale(lng), { style: "currency", currency: code }).formatToParts(1);
    const number = parts.findIndex((p) => p.type === "integer");
    const text = (from: typeof parts) =>
      from
        .map((p) => p.value)
        .join("")
        .trim();
    affixes = {
      before: text(parts.slice(0, number)),
      after: text(parts.slice(number).filter((p) => p.type === "currency" || p.type === "literal")),
    };
    currencyAffixCache.set(key, affixes);
  }
  return affixes;
}

export interface Affixes {
  before: string;
  after: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A plain number in the language's way (grouping, Latin digits), up to three decimals. */
export function formatNumber(value: number, lng = "en"): string {
  let format = numberFormats.get(`${lng}:n`);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(lng), { maximumFractionDigits: 3 });
    numberFormats.set(`${lng}:n`, format);
  }
  return format.format(value);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lng: string, time: boolean, zone: string): Intl.DateTimeFormat {
  const key = `${lng}:${time}:${zone}`;
  let format = dateFormats.get(key);
  if (!format) {
    // Explicit parts, not dateStyle: a style's pattern may change with the time added (zh-TW).
    const day: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", timeZone: zone };
    format = new Intl.DateTimeFormat(
      intlLocale(lng),
      time ? { ...day, hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : day,
    );
    dateFormats.set(key, format);
  }
  return format;
}

const currentLanguage = () => i18n.resolvedLanguage ?? "en";

/**
 * Browsers ship Khmer's calendar words only in part (Chromium writes "2026 M11 25"): Khmer reads the
 * day, month and year in figures, as Cambodian documents write them.
 */
const KHMER = { date: "DD/MM/YYYY", dateTime: "DD/MM/YYYY HH:mm" };

/**
 * "Nov 25, 2026, 14:03" / "2026年11月25日 14:03" / "25 พ.ย. 2026 14:03" / "25/11/2026 14:03": one format per
 * language, at the business's clock (time-zone.ts) whatever the browser's zone.
 */
export function formatDateTime(value: string | Date, lng = currentLanguage(), zone = timeZone()): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return lng === "km" ? dayjs(date).tz(zone).format(KHMER.dateTime) : dateFormat(lng, true, zone).format(date);
}

/**
 * A calendar day ("2026-11-25") in the same style, read as that day wherever the browser is; an instant
 * is read as its day in the business's zone.
 */
export function formatDate(value: string, lng = currentLanguage(), zone = timeZone()): string {
  // A calendar day has no zone: it is read at midnight UTC and written in UTC.
  const calendarDay = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const day = new Date(calendarDay ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(day.getTime())) return value;
  const shownIn = calendarDay ? "UTC" : zone;
  return lng === "km" ? dayjs(day).tz(shownIn).format(KHMER.date) : dateFormat(lng, false, shownIn).format(day);
}

/** Tag colours of well-known state values; anything else is neutral. */
const STATE_COLORS: Record<string, string> = {
  paid: "green",
  completed: "green",
  processed: "green",
  shared: "green",
  installed: "green",
  online: "green",
  in_stock: "green",
  approved: "blue",
  processing: "blue",
  in_use: "blue",
  pending: "gold",
  not_shared: "gold",
  low_stock: "orange",
  refund_requested: "orange",
  low_battery: "orange",
  near_expiry: "orange",
  refund_success: "purple",
  partial_refund: "purple",
  refunded: "purple",
  refused: "red",
  out_of_stock: "red",
};

export function stateColor(field: string, value: string | number): string | undefined {
  if (typeof value === "number" && /status|open|switch|enable/.test(field)) return value === 1 ? "green" : "default";
  return typeof value === "string" ? STATE_COLORS[value] : undefined;
}

/** Titles of related records by target entity and id (a list answer's, or the `-all` calls'). */
export type TitleMaps = Map<string, Map<number, string>>;

/** How many objects of a list a cell reads out before "+N". */
const LISTED_ITEMS = 3;

/**
 * A value as words in a sentence or a compact cell: formatted as the screens show it. An object reads
 * "Minutes: 60 min · Fee: $1.00"; a list of them "60 min · $1.00; 180 min · $2.50; +1".
 */
export function valueText(field: FieldView, value: unknown, lng = "en", titles?: TitleMaps): string {
  if (value === null || value === undefined || value === "") return "-";
  switch (field.kind) {
    case "money":
      return field.ui.unit
        ? withUnit(formatAmount(Number(value), lng), field.ui.unit)
        : formatAmount(Number(value), lng);
    case "integer":
    case "number":
      return field.ui.unit
        ? withUnit(formatNumber(Number(value), lng), field.ui.unit, Number(value))
        : formatNumber(Number(value), lng);
    case "fraction":
      return formatFraction(Number(value));
    case "enum":
      return (Array.isArray(value) ? value : [value]).map((v) => i18n.t(field.enumKey!(v))).join(", ");
    case "boolean":
      return i18n.t(value ? "common:yes" : "common:no");
    case "datetime":
      return formatDateTime(String(value), lng);
    case "date":
      return formatDate(String(value), lng);
    case "relation":
      return titles?.get(field.relation!)?.get(Number(value)) ?? i18n.t("common:record.unavailable", { lng });
    case "relations":
      return (value as number[])
        .map((id) => titles?.get(field.relation!)?.get(id) ?? i18n.t("common:record.unavailable", { lng }))
        .join(", ");
    case "object":
      if (!field.children || typeof value !== "object") break;
      return field.children
        .filter((child) => !isEmpty((value as Record<string, unknown>)[child.name]))
        .map(
          (child) =>
            `${i18n.t(child.label)}: ${valueText(child, (value as Record<string, unknown>)[child.name], lng, titles)}`,
        )
        .join(" · ");
    case "list": {
      if (!field.children || !Array.isArray(value)) break;
      const items = value.slice(0, LISTED_ITEMS).map((item) =>
        field
          .children!.filter((child) => !isEmpty((item as Record<string, unknown>)?.[child.name]))
          .map((child) => valueText(child, (item as Record<string, unknown>)[child.name], lng, titles))
          .join(" · "),
      );
      if (value.length > LISTED_ITEMS) items.push(`+${value.length - LISTED_ITEMS}`);
      return items.join("; ");
    }
    case "tags":
      return Array.isArray(value) ? value.map(String).join(", ") : String(value);
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === "";

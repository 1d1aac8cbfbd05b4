// How values read on screen: money from minor units with two decimals, fractions as percentages,
// dates in the user's language. Pure functions, shared by list cells, detail views and widgets.
import dayjs from "dayjs";
import i18n from "i18next";
import type { FieldView } from "./model.ts";
import { MONEY_FACTOR } from "../schema/constants.ts";

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(lng: string, digits: number): Intl.NumberFormat {
  const key = `${lng}:${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    // Thai and Khmer read Latin digits in business software; keep them.
    format = new Intl.NumberFormat(lng === "tw" ? "zh-TW" : lng === "zh" ? "zh-CN" : `${lng}-u-nu-latn`, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    numberFormats.set(key, format);
  }
  return format;
}

/** Minor units (what the server stores and sends) → currency units, and back. */
export const toMajor = (minor: number): number => minor / MONEY_FACTOR;
export const toMinor = (major: number): number => Math.round(major * MONEY_FACTOR);

/** 12345 minor units → "123.45" (with the language's grouping). */
export const formatMoney = (minor: number, lng = "en"): string => numberFormat(lng, 2).format(toMajor(minor));

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

export const formatDateTime = (value: string): string => dayjs(value).format("YYYY-MM-DD HH:mm");
export const formatDate = (value: string): string => dayjs(value).format("YYYY-MM-DD");

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

/** A value as words in a sentence (confirmations, messages): formatted as the screens show it. */
export function valueText(field: FieldView, value: unknown, lng = "en"): string {
  if (value === null || value === undefined || value === "") return "-";
  switch (field.kind) {
    case "money":
      return formatMoney(Number(value), lng);
    case "fraction":
      return formatFraction(Number(value));
    case "enum":
      return (Array.isArray(value) ? value : [value]).map((v) => i18n.t(field.enumKey!(v))).join(", ");
    case "boolean":
      return i18n.t(value ? "common:yes" : "common:no");
    case "datetime":
      return formatDateTime(String(value));
    case "date":
      return formatDate(String(value));
    default:
      return typeof value === "object" ? JSON.stringify(value) : String(value);
  }
}

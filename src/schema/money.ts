// Money is kept, sent and computed in minor units (MONEY_FACTOR of them to a currency unit); people read
// and type currency units. The one conversion and the one way an amount reads, for the console
// (src/crud/format.ts) and the server's messages (server/core/money.ts).
import { MONEY_FACTOR } from "./constants.ts";

/** Minor units (what the server stores and sends) → currency units, and back. */
export const toMajor = (minor: number): number => minor / MONEY_FACTOR;
export const toMinor = (major: number): number => Math.round(major * MONEY_FACTOR);

/** The Intl locale of each language: Latin digits, the Gregorian calendar. */
export function intlLocale(lng = "en"): string {
  const tag = lng === "tw" ? "zh-TW" : lng === "zh" ? "zh-CN" : lng === "en" ? "en-US" : lng;
  return `${tag}-u-ca-gregory-nu-latn`;
}

const formats = new Map<string, Intl.NumberFormat>();

/** The format of amounts in a language, of a currency or as bare figures; two decimals always, as stored. */
function amountFormat(lng: string, currency: string | undefined): Intl.NumberFormat {
  const key = `${lng}:${currency ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    // Thai and Khmer read Latin digits in business software; keep them.
    format = new Intl.NumberFormat(intlLocale(lng), {
      ...(currency ? { style: "currency", currency } : {}),
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * Minor units as an amount of the currency in a language: 12345 → "$123.45", "US$123.45" (zh),
 * "123.45៛" (KHR in km); the bare figure ("123.45") where no currency is known.
 */
export const amountText = (minor: number, lng = "en", currency?: string): string =>
  amountFormat(lng, currency).format(toMajor(minor));

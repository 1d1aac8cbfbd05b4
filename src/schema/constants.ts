// Facts about the data that the server, the console and codegen all need, written once.

/** The five languages, English first (the default and the fallback). */
export const LANGUAGES = ["en", "zh", "km", "th", "tw"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The BCP 47 tag of each language, for <html lang> (fonts, screen readers, hyphenation) and the manifests. */
export const HTML_LANG: Record<Language, string> = { en: "en", zh: "zh-Hans", km: "km", th: "th", tw: "zh-Hant" };

/** Columns the engine manages on every row: never accepted from a client. */
export const SYSTEM_COLUMNS = [
  "id",
  "created_at",
  "updated_at",
  "version",
  "deleted_at",
  "deleted_by",
  "agent_id",
  "agent_path",
  "owner_kind",
  "owner_id",
  "singleton_key",
] as const;

export const isSystemColumn = (name: string): boolean => (SYSTEM_COLUMNS as readonly string[]).includes(name);

/** Request parameters every call may take; their labels live in common:fields. */
export const COMMON_PARAMETERS = ["id", "version", "action", "page", "limit", "sort", "order"] as const;

/**
 * A list's total is counted up to this many rows at each call; beyond, the server answers a count held for
 * a few seconds, an estimate (total_exact false), unless asked for count=exact or a roll-up knows it. The
 * pager then reaches only pages known to hold rows.
 */
export const LIST_COUNT_CAP = 1_000;

/** What a read shows in place of a stored secret; sent back unchanged, it keeps the secret. */
export const MASK = "******";

/** Money is integer minor units: 100 of them make one yuan, riel hundredth or cent. */
export const MONEY_FACTOR = 100;

/**
 * SPEC §9's date-range presets, offered wherever dates are filtered (each ends today). The profit ranges of
 * 7, 30 and 90 days are the dashboard trend's (`statistics-trade`'s `days`).
 */
export const DATE_PRESETS = [
  { key: "last_week", amount: 1, unit: "week" },
  { key: "last_month", amount: 1, unit: "month" },
  { key: "last_three_months", amount: 3, unit: "month" },
] as const;

/** SPEC §9: the fixed password a superior resets an agent's password to (`manage-reset-password`). */
export const RESET_PASSWORD = "123456";

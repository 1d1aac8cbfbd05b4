// What the console keeps in local storage between visits: the session from login (token, user,
// permissions, menu), the open tabs, the columns shown on each list, the language and the version the
// console last ran against. Logging out clears everything but the version (SPEC §2) and the language the
// user chose.
import type { LoginAnswer, MenuAnswer } from "../generated/types.ts";
import { STORAGE_KEY as LANGUAGE_KEY } from "./i18n.ts";

/** The session as login answers it (its schema, held to the server by the API tests). */
export type Session = LoginAnswer;

/** A menu group as login and the `menu` call answer it: the generated menu, filtered by permission. */
export type MenuGroup = MenuAnswer[number];

const KEYS = {
  token: "merchant_token",
  session: "merchant_session",
  version: "version",
  tabs: "tabs",
} as const;

/** Kept when a session ends: the version (so an upgrade logs out only once) and the language. */
const KEPT_ON_LOGOUT = [KEYS.version, LANGUAGE_KEY];

function readJson<T>(key: string): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export const token = (): string | null => localStorage.getItem(KEYS.token);

export function currentSession(): Session | undefined {
  const session = readJson<Session>(KEYS.session);
  if (!session || !token()) return undefined;
  if (Date.parse(session.expires_at) <= Date.now()) return undefined;
  return session;
}

export function saveSession(session: Session): void {
  localStorage.setItem(KEYS.token, session.token);
  localStorage.setItem(KEYS.session, JSON.stringify(session));
}

export function saveMenu(menu: MenuGroup[]): void {
  const session = currentSession();
  if (session) localStorage.setItem(KEYS.session, JSON.stringify({ ...session, menu }));
}

export function clearSession(): void {
  const kept = KEPT_ON_LOGOUT.map((key) => [key, localStorage.getItem(key)] as const);
  localStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
}

export const storedVersion = (): string | null => localStorage.getItem(KEYS.version);
export const saveVersion = (version: string): void => localStorage.setItem(KEYS.version, version);

export interface StoredTab {
  /** pathname + search: the tab's identity and where it returns to. */
  path: string;
  /** The route id whose name titles the tab. */
  route: string;
  /** create / edit / show pages add their action to the route name. */
  action?: "create" | "edit" | "show";
  id?: string;
  /** The entity of a record page, and the record's title once its screen has said it. */
  entity?: string;
  title?: string;
}

export const storedTabs = (): StoredTab[] => readJson<StoredTab[]>(KEYS.tabs) ?? [];
export const saveTabs = (tabs: StoredTab[]): void => localStorage.setItem(KEYS.tabs, JSON.stringify(tabs));

/**
 * A list's columns as the user laid them out (list/column-choice.tsx): shown or hidden by column key, their
 * order (keys not named keep their place after those named) and widths in pixels.
 */
export interface ColumnChoice {
  shown: Record<string, boolean>;
  order: string[];
  widths: Record<string, number>;
}
export const LIST_OWN_COLUMNS: ColumnChoice = { shown: {}, order: [], widths: {} };
const columnsKey = (list: string) => `columns:${list}`;
export function storedColumns(list: string): ColumnChoice {
  const stored = readJson<ColumnChoice | Record<string, boolean>>(columnsKey(list));
  if (!stored) return LIST_OWN_COLUMNS;
  // Kept before orders and widths were: column key → shown.
  if (typeof stored.shown !== "object") return { ...LIST_OWN_COLUMNS, shown: stored as Record<string, boolean> };
  return { ...LIST_OWN_COLUMNS, ...(stored as ColumnChoice) };
}
export const saveColumns = (list: string, choice: ColumnChoice): void =>
  localStorage.setItem(columnsKey(list), JSON.stringify(choice));

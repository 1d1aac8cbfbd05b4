// The console as users meet it: the built console and the real server on an in-memory database with
// the demo data, driven by real Chromium. Each test file starts its own server; pages record every
// console error so a test can require none.
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";
import type { FastifyInstance } from "fastify";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Db } from "../../server/db/db.ts";
import { buildApp } from "../../server/app.ts";
import { reportDemoDevices } from "../../server/seed/devices.ts";
import { openDatabase } from "../support/template-db.ts";
import { seedConsole } from "./demo-data.ts";
import { ensureChromium } from "../support/chromium.ts";
import { routeOf } from "../../src/app/routes.ts";

export const ROOT = resolve(import.meta.dirname, "../..");
export const SHOTS = join(ROOT, "tests/e2e/screenshots");
export const PASSWORDS: Record<string, string> = {
  admin: "admin123",
  agent_a: "demo123",
  agent_a1: "demo123",
  agent_b: "demo123",
  operator_a: "demo123",
  manager_a: "demo123",
};

export interface Console {
  url: string;
  db: Db;
  app: FastifyInstance;
  browser: Browser;
  close(): Promise<void>;
}

/** The console's server on a database, listening on a port of its own: its app and address. */
export async function serveConsole(db: Db): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({ db, consoleDir: join(ROOT, "dist/console"), checkAnswers: true });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}

/**
 * The console on a copy of the demo database, or on `db` when given (a test of its own database, such as one
 * schema of PostgreSQL that several instances serve), and a browser for it.
 */
export async function startConsole(given?: Db): Promise<Console> {
  const db = given ?? (await openDatabase(seedConsole));
  // The demo's devices that report say so as the server starts, as they do under `npm start`: the copy
  // may have been seeded minutes ago, past the online window.
  await reportDemoDevices(db);
  const { app, url } = await serveConsole(db);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: ensureChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
    });
  } catch (error) {
    // No browser: the server and the database are closed, not left to the test file's afterAll.
    await app.close();
    await db.close();
    throw error;
  }
  mkdirSync(SHOTS, { recursive: true });
  return {
    url,
    db,
    app,
    browser,
    async close() {
      await browser.close();
      await app.close();
      await db.close();
    },
  };
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/** A phone held in the hand: 390 × 844, touched with a finger (CSS `pointer: coarse`), no mouse. */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;

export async function openPage(
  c: Console,
  options: {
    locale?: string;
    lang?: string;
    motion?: boolean;
    /** A phone held in the hand (PHONE). */
    touch?: boolean;
    serviceWorker?: boolean;
  } = {},
): Promise<Tab> {
  const context = await c.browser.newContext({
    locale: options.locale ?? "en-US",
    ...(options.touch ? PHONE : { viewport: { width: 1440, height: 900 } }),
    // The console's service worker serves its code from its cache, where a test's page.route (a chunk made
    // to fail, a translation held back) would not see the request: only a test of the worker has it.
    serviceWorkers: options.serviceWorker ? "allow" : "block",
    // A user who asked for reduced motion: dialogs and menus open at once, so a click on a busy
    // machine never lands on one still opening (the console honours the setting, src/app/theme.ts).
    // A test of the animations themselves asks for motion.
    reducedMotion: options.motion ? "no-preference" : "reduce",
  });
  if (options.lang) await context.addInitScript((lng) => localStorage.setItem("lang", lng), options.lang);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  // The browser's own "Failed to load resource" line has no address: record which one.
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.setDefaultTimeout(20_000);
  return { context, page, errors };
}

export async function signIn(c: Console, page: Page, account: string): Promise<void> {
  await page.goto(`${c.url}/login`);
  await page.locator("#account").fill(account);
  await page.locator("#password").fill(PASSWORDS[account]);
  await page.locator("button[type=submit]").click();
  await page.waitForURL(`${c.url}/`);
  await page.locator(".shell-header").waitFor();
}

/** Rows of the list table currently shown (lists left for another page stay in the page, hidden). */
export const tableRows = (page: Page) => page.locator(".ant-table-tbody tr.ant-table-row:visible");

/**
 * Starts a row's action by its name, as a user does: the row's one button, or the item of its "More" menu
 * (src/crud/list/row-actions.tsx).
 */
export async function rowAction(row: Locator, name: string): Promise<void> {
  await row.locator(".row-actions").waitFor();
  const direct = row.locator(".row-actions").getByRole("button", { name, exact: true });
  if (await direct.count()) return direct.click();
  await row.locator(".row-actions-more").click();
  await row.page().getByRole("menuitem", { name, exact: true }).click();
}

/** The names of the actions a row offers: its button's and those under its "More" menu (closed again). */
export async function rowActionNames(row: Locator): Promise<string[]> {
  const page = row.page();
  await row.locator(".row-actions").waitFor();
  const names = await row.locator(".row-actions-primary").allInnerTexts();
  const more = row.locator(".row-actions-more");
  if (!(await more.count())) return names;
  await more.click();
  const menu = page.locator(".ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu");
  await menu.waitFor();
  names.push(...(await menu.getByRole("menuitem").allInnerTexts()));
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });
  return names.map((name) => name.trim());
}

/**
 * A record's detail opened on tabs (a vending device: Lanes, Information, Records): the tab chosen, and
 * its content once on screen.
 */
export async function detailTab(page: Page, key: "panel" | "information" | "records"): Promise<Locator> {
  await page.locator(`.detail-head .ant-tabs-tab[data-node-key="${key}"]`).click();
  const content = page.locator(`.detail-tab[data-tab="${key}"]`);
  await content.waitFor();
  return content;
}

/** A list's filter field: its bar's form is named after the list's route (ids are unique in the page). */
export const filterField = (page: Page, path: string, name: string) =>
  page.locator(`#filter_${routeOf(new URL(path, "http://x").pathname)!.routeId}_${name}`);

/** In-app navigation to `path`, as a click on the menu does (no page load). */
export const go = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState({}, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);

/**
 * What matches `selector` on the page of address `path` (its pathname), not on the page being left: a
 * navigation renders as a transition, and the previous page stays a moment after the address changed;
 * a list left stays hidden (src/app/layout/kept-pages.tsx), so only the page on screen counts.
 */
export const onPage = (page: Page, path: string, selector: string) =>
  page.locator(`.page-fade[data-current][data-path="${new URL(path, "http://x").pathname}"]`).locator(selector);

// ---------------------------------------------------------------- the language × width sweep

/** The console's five languages, as a user picks them (localStorage "lang"). */
export const LANGUAGES = ["en", "zh", "km", "th", "tw"] as const;
export type Lng = (typeof LANGUAGES)[number];

/** A namespace's texts in a language, as the console has them (locales/<lng>/<ns>.json). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach into the texts by their keys
export const locale = (lng: string, ns: string): any =>
  JSON.parse(readFileSync(join(ROOT, `locales/${lng}/${ns}.json`), "utf8"));

/** The two widths every screen is looked at: a laptop and a phone. */
export const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
export type Viewport = { width: number; height: number };

interface SweepOptions {
  /** The widths to look at, in turn (both by default). */
  widths?: readonly Viewport[];
  /** The browser's own locale, where a screen reads it. */
  locale?: string;
  /** After the widths, in the same tab (a state the screen reaches only once). */
  after?: (tab: Tab) => Promise<void>;
  /** The page errors that must not have happened (all of them by default; a test may expect some). */
  unexpected?: (errors: string[]) => string[];
}

/**
 * One language of the sweep: a tab in `lng`, signed in as `account`, set to each width in turn for `look`;
 * then no page error may have been seen. The tab is closed whatever happens.
 */
export async function inLanguage(
  c: Console,
  lng: Lng,
  account: string,
  look: (tab: Tab, viewport: Viewport) => Promise<void>,
  options: SweepOptions = {},
): Promise<void> {
  const tab = await openPage(c, { lang: lng, locale: options.locale });
  try {
    await signIn(c, tab.page, account);
    for (const viewport of options.widths ?? WIDTHS) {
      await tab.page.setViewportSize(viewport);
      await look(tab, viewport);
    }
    await options.after?.(tab);
    expect((options.unexpected ?? ((errors) => errors))(tab.errors)).toEqual([]);
  } finally {
    await tab.context.close();
  }
}

/** The page is no wider than the window: nothing to scroll sideways. */
export async function expectFits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** A screenshot kept in tests/e2e/screenshots, with animations stopped. */
export const shot = (target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) =>
  target.screenshot({ path: join(SHOTS, `${name}.png`), animations: "disabled", ...options });

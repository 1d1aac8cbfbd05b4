// The console as a person meets it, in real Chromium: built, served, shown in the browser's language,
// switched to another and kept across a reload. Screenshots land in tests/e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, preview, type PreviewServer } from "vite";
import { chromium, type Browser } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const SHOTS = join(ROOT, "tests/e2e/screenshots");
const common = (lng: string) => JSON.parse(readFileSync(join(ROOT, `locales/${lng}/common.json`), "utf8"));
const menuOf = (lng: string) => JSON.parse(readFileSync(join(ROOT, `locales/${lng}/menu.json`), "utf8"));

/** The shipped font each language's script needs (fonts are bundled; the machine may have none). */
const FONT: Record<string, string> = {
  en: "Noto Sans",
  zh: "Noto Sans SC",
  tw: "Noto Sans TC",
  km: "Noto Sans Khmer",
  th: "Noto Sans Thai",
};

let server: PreviewServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  await build({ root: ROOT, logLevel: "warn" });
  server = await preview({ root: ROOT, logLevel: "warn", preview: { port: 0, host: "127.0.0.1" } });
  url = server.resolvedUrls!.local[0];
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((done) => server?.httpServer.close(() => done()));
});

describe("console shell", () => {
  it("follows the browser language and falls back to English", async () => {
    for (const [locale, lng] of [
      ["th-TH", "th"],
      ["zh-TW", "tw"],
      ["km-KH", "km"],
      ["fr-FR", "en"],
    ] as const) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(url);
      await expect.poll(() => page.locator("h1").textContent()).toBe(common(lng).app.title);
      await expect.poll(() => page.getByText(menuOf(lng).routes.goods_list, { exact: true }).count()).toBe(1);
      const loaded = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replaceAll('"', ""));
      });
      expect(loaded).toContain(FONT[lng]);
      await page.screenshot({ path: join(SHOTS, `catalogue-${lng}.png`), fullPage: true });
      await context.close();
    }
  });

  it("keeps the chosen language across a reload", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    await page.goto(url);
    await expect.poll(() => page.locator("h1").textContent()).toBe(common("en").app.title);
    await page.selectOption("select", "zh");
    await expect.poll(() => page.locator("h1").textContent()).toBe(common("zh").app.title);
    await page.reload();
    await expect.poll(() => page.locator("h1").textContent()).toBe(common("zh").app.title);
    expect(await page.evaluate(() => localStorage.getItem("lang"))).toBe("zh");
    await page.screenshot({ path: join(SHOTS, "catalogue-zh.png"), fullPage: true });
    await context.close();
  });
});

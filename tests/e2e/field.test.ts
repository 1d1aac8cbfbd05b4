// The console in the field (issue 30), as Chromium gets it from the server: compressed and cached files, a
// page that downloads only its own script's fonts, an installable app whose name follows the language,
// and a second visit that opens without a network from the service worker's cache. (Times and bytes over
// a slow link are the bench's: `npm run bench -- --field-only`.)
import type { Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPage, startConsole, type Console } from "./harness.ts";

let c: Console;
beforeAll(async () => {
  c = await startConsole();
}, 120_000);
afterAll(() => c?.close());

/** The fonts a page asked for. */
function fontsOf(page: import("playwright-core").Page): string[] {
  const fonts: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(".woff2") || request.url().endsWith(".woff"))
      fonts.push(new URL(request.url()).pathname);
  });
  return fonts;
}

describe("in the field", () => {
  it("sends the sign-in page's code compressed and cached for good, the page itself revalidated", async () => {
    const { context, page } = await openPage(c);
    try {
      const answers: Response[] = [];
      page.on("response", (response) => answers.push(response));
      await page.goto(`${c.url}/login`);
      await page.locator("#account").waitFor();
      const document = answers.find((r) => new URL(r.url()).pathname === "/login")!;
      expect(await document.headerValue("cache-control")).toBe("no-cache");
      const code = answers.filter((r) => /\/assets\/.+\.(js|css)$/.test(r.url()));
      expect(code.length).toBeGreaterThan(3);
      for (const response of code) {
        expect(await response.headerValue("cache-control"), response.url()).toBe("public, max-age=31536000, immutable");
        const size = (await response.body()).length;
        // A file worth compressing came compressed (brotli where the browser offers it, otherwise gzip).
        if (size > 1024)
          expect(["br", "gzip"], response.url()).toContain(await response.headerValue("content-encoding"));
      }
    } finally {
      await context.close();
    }
  });

  it("starts the console's code on a phone as the user turns to the sign-in form, before anything is sent", async () => {
    const { context, page } = await openPage(c, { touch: true });
    try {
      const asked: string[] = [];
      page.on("request", (request) => asked.push(new URL(request.url()).pathname));
      await page.goto(`${c.url}/login`);
      await page.locator("#account").waitFor();
      const shell = () => asked.filter((path) => /^\/assets\/(shell|dashboard)-[\w-]+\.js$/.test(path)).length;
      // The page alone (its account field focused) does not fetch what comes after sign-in (the bytes of
      // the sign-in form's budget).
      await page.waitForLoadState("networkidle");
      expect(shell()).toBe(0);
      await page.locator("#account").tap();
      // The shell's and home's code come while the account is typed; nothing was sent to sign in.
      await expect.poll(shell).toBe(2);
      expect(asked.filter((path) => path.startsWith("/merchant/login"))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("downloads no Thai, Khmer or Chinese font for an English page, and Thai's with Thai", async () => {
    const { context, page } = await openPage(c);
    try {
      const fonts = fontsOf(page);
      await page.goto(`${c.url}/login`);
      await page.getByRole("button", { name: "Log in" }).waitFor();
      await page.evaluate(() => document.fonts.ready);
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.filter((f) => !/\/noto-sans-latin-(400|600)-normal-/.test(f))).toEqual([]);
      await page.locator(".login-language select").selectOption("th");
      await page.getByRole("button", { name: "เข้าสู่ระบบ" }).waitFor();
      await expect.poll(() => fonts.filter((f) => f.includes("noto-sans-thai-thai-")).length).toBeGreaterThan(0);
      expect(fonts.filter((f) => /noto-sans-(khmer|sc|tc)-/.test(f))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("is installable, named in the language shown", async () => {
    const { context, page } = await openPage(c);
    try {
      await page.goto(`${c.url}/login`);
      await page.locator("#account").waitFor();
      const manifest = page.locator('link[rel="manifest"]');
      expect(await manifest.getAttribute("href")).toBe("/manifest-en.webmanifest");
      await page.locator(".login-language select").selectOption("km");
      await expect.poll(() => manifest.getAttribute("href")).toBe("/manifest-km.webmanifest");
      const km = await page.evaluate(() => fetch("/manifest-km.webmanifest").then((r) => r.json()));
      expect(km).toMatchObject({ name: "ផ្ទាំងគ្រប់គ្រងអាជីវករ", lang: "km", start_url: "/", display: "standalone" });
      const zh = await page.evaluate(() => fetch("/manifest-zh.webmanifest").then((r) => r.json()));
      expect(zh.name).toBe("商户管理后台");
      for (const icon of km.icons as { src: string; sizes: string }[]) {
        const answer = await page.request.get(`${c.url}${icon.src}`);
        expect(answer.headers()["content-type"]).toBe("image/png");
        // A PNG's width and height are in its header (bytes 16 to 24).
        const bytes = await answer.body();
        expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
      }
    } finally {
      await context.close();
    }
  });

  it("opens the sign-in page again without a network, from the service worker's cache", async () => {
    const { context, page } = await openPage(c, { serviceWorker: true });
    try {
      await page.goto(`${c.url}/login`);
      await page.locator("#account").waitFor();
      // The worker installed (with the sign-in's code) and serving this page.
      await page.evaluate(() => navigator.serviceWorker.ready);
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await context.setOffline(true);
      await page.reload();
      await page.getByRole("button", { name: "Log in" }).waitFor();
      expect(await page.locator("#account").isEditable()).toBe(true);
      // Another address of the console opens the same page (the client routes it to sign-in).
      await page.goto(`${c.url}/machine/list`);
      await page.getByRole("button", { name: "Log in" }).waitFor();
    } finally {
      await context.setOffline(false);
      await context.close();
    }
  });
});

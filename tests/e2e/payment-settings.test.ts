// Payment settings as the admin: real certificates made in the test are uploaded, each shows its subject,
// fingerprint and expiry (a warning within 30 days), a key where a certificate belongs is refused with
// words; after saving and reloading, the secrets are masked (set, never shown) and the certificates are
// read back from the server. Screenshots in the five languages at 1440 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { makeCertificate, type TestCertificate } from "../support/certificates.ts";
import {
  type Console,
  expectFits,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  shot,
  signIn,
  startConsole,
} from "./harness.ts";

const MCH_ID = "1612345678";

let c: Console;
let soon: TestCertificate;
let later: TestCertificate;

beforeAll(async () => {
  c = await startConsole();
  soon = makeCertificate("Wallet API 1612345678", 20);
  later = makeCertificate("Online wallet app", 400);
});
afterAll(async () => {
  await c?.close();
});

const certificate = (page: Page, field: string) => page.locator(`[data-testid=certificate-${field}]`);

async function uploadTo(page: Page, field: string, name: string, data: string | Buffer) {
  const answered = page.waitForResponse((r) => r.url().includes(`field=${field}`));
  await certificate(page, field)
    .locator("input[type=file]")
    .setInputFiles({ name, mimeType: "application/octet-stream", buffer: Buffer.from(data) });
  return answered;
}

describe("payment settings", () => {
  it("uploads real certificates, warns of a near expiry, refuses the wrong kind, and keeps secrets masked", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/setting/paySetting`);
      const page = tab.page;
      await page.locator("[data-testid=payment-settings]").waitFor();
      await page.locator("#mini_appid").fill("wx8f3a2c9d1e7b6a54");
      await page.locator("#mini_secret").fill("mini-secret-0001");
      await page.locator("#social_wallet_mch_id").fill(MCH_ID);
      await page.locator("#social_wallet_v2_secret").fill("v2-secret-0001");
      await page.locator("#social_wallet_v3_secret").fill("v3-secret-0001");
      await page.locator("#social_wallet_serial_no").fill("5D1A7F3B9C2E4A6B");

      // A key where the certificate belongs: refused, in words, on that field.
      expect((await uploadTo(page, "social_wallet_cert_pem", "apiclient_key.pem", soon.keyPem)).status()).toBe(400);
      await page.getByText("This file is not a certificate (PEM or DER)").waitFor();

      expect((await uploadTo(page, "social_wallet_cert_pem", "apiclient_cert.pem", soon.certPem)).status()).toBe(200);
      await certificate(page, "social_wallet_cert_pem").getByText("CN=Wallet API 1612345678").waitFor();
      expect(await certificate(page, "social_wallet_cert_pem").getByTestId("expiry-warning").innerText()).toMatch(
        /^Expires in 19 days/,
      );
      expect((await uploadTo(page, "social_wallet_cert_key", "apiclient_key.pem", soon.keyPem)).status()).toBe(200);
      await certificate(page, "social_wallet_cert_key").getByText("RSA 2048").waitFor();
      expect((await uploadTo(page, "social_wallet_cert_p12", "apiclient_cert.p12", soon.p12(MCH_ID))).status()).toBe(
        200,
      );
      expect((await uploadTo(page, "online_wallet_app_cert", "app.crt", later.certPem)).status()).toBe(200);
      await certificate(page, "online_wallet_app_cert")
        .getByText(/^Valid until/)
        .waitFor();

      // A provider switched on asks for its own fields before anything is sent; switched off, nothing.
      await page.locator("#provider_a_enabled").click();
      await page.locator("[data-testid=payment-settings] button[type=submit]").click();
      await page.getByText("Provider A merchant ID is required while “Provider A in use” is on").waitFor();
      await page.locator("#provider_a_enabled").click();
      await page
        .getByText("Provider A merchant ID is required while “Provider A in use” is on")
        .waitFor({ state: "detached" });

      // The social wallet in use, with everything it needs.
      await page.locator("#social_wallet_enabled").click();
      const saved = page.waitForResponse((r) => r.url().endsWith("/merchant/pay-setting-set"));
      await page.locator("[data-testid=payment-settings] button[type=submit]").click();
      const answer = await saved;
      expect(answer.status(), await answer.text()).toBe(200);
      await page.locator(".ant-message").getByText("Saved").waitFor();

      await page.reload();
      await page.locator("[data-testid=payment-settings]").waitFor();
      // Secrets: set, shown as such, never their value.
      expect(await page.locator("#social_wallet_v2_secret").inputValue()).toBe("");
      expect(await page.locator("#social_wallet_v2_secret").getAttribute("placeholder")).toBe(
        "Set — leave empty to keep, type to replace",
      );
      expect(await page.content()).not.toContain("v2-secret-0001");
      // The certificates as the server reads them now: the bundle opened with the saved merchant id.
      await certificate(page, "social_wallet_cert_p12").getByText("CN=Wallet API 1612345678").waitFor();
      await certificate(page, "social_wallet_cert_pem").getByTestId("expiry-warning").waitFor();
      const { rows } = await c.db.query<{ v2: string; mch: string; used: number; a: number }>(
        `select social_wallet_v2_secret as v2, social_wallet_mch_id as mch, social_wallet_enabled as used,
                provider_a_enabled as a from payment_setting`,
      );
      expect(rows.map((r) => ({ ...r, used: Number(r.used), a: Number(r.a) }))).toEqual([
        { v2: "v2-secret-0001", mch: MCH_ID, used: 1, a: 0 },
      ]);
      expect(tab.errors).toEqual([
        "HTTP 400 /merchant/upload",
        "Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("payment settings in every language", () => {
  it.each(LANGUAGES)("%s at 1440 px and 390 px (screenshots kept)", async (lng) => {
    const words = locale(lng, "common").paySettings;
    await inLanguage(c, lng, "admin", async ({ page }, { width }) => {
      await page.goto(`${c.url}/setting/paySetting`);
      const screen = page.locator("[data-testid=payment-settings]");
      await screen.waitFor();
      await certificate(page, "social_wallet_cert_pem").locator(".fingerprint").waitFor();
      const text = await screen.innerText();
      expect(text).toContain(words.sections.socialWallet);
      expect(text).not.toMatch(/paySettings\.|fields\.|undefined|\{\{/);
      await expectFits(page, width);
      await shot(page, `payment-settings-${lng}-${width}`, { fullPage: true });
    });
  });
});

// The licence: its state on System upgrade and the installation's id (copied for the vendor), a serial
// number installed there; once it has ended, every screen shows the expired page, where the administrator
// finds the id and installs a serial number and goes on. Screenshots of both in the five languages, at
// 1440 px and on a 390 px phone. The server trusts the vendor's key only: the serial number that counts
// here is the demo's (signed by the vendor for the demo's installation and key); others are made here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { forgetLicence } from "../../server/domain/licence/index.ts";
import { DEMO_SERIAL } from "../../server/seed/demo.ts";
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
  type Tab,
  type Viewport,
} from "./harness.ts";

/** The demo seed's key and installation (DESIGN.md section 6). */
const DEMO_KEY = "demo-secret-key-mekong-2026";
const DEMO_INSTALLATION = "demo-mekong-smart-retail";
const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64url");
/** A VMS2 serial number for the demo's installation and key, but signed by a key pair of someone else's. */
function strangersSerial(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  const body = b64(
    JSON.stringify({
      licensee: "X",
      valid_until: "2030-01-01T00:00:00.000Z",
      installation: DEMO_INSTALLATION,
      key_sha256: "b802518a19c3f99fcecb202e91f99ef71c39ca1839a9524ea9b1180726251440",
    }),
  );
  return `VMS2.${body}.${b64(sign(null, Buffer.from(`VMS2.${body}`), privateKey))}`;
}

let c: Console;
beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

/** Ends the licence: the serial number installed is of the old kind (an HMAC under the key), which no
 * longer counts, and the trial ran out long ago. */
async function expire() {
  const body = b64(JSON.stringify({ licensee: "Mekong Smart Retail", valid_until: "2099-12-31T00:00:00.000Z" }));
  const ended = `VMS1.${body}.${b64(createHmac("sha256", DEMO_KEY).update(`VMS1.${body}`).digest())}`;
  await c.db.query(`update sys_state set value = $1 where key = 'licence:serial'`, [JSON.stringify(ended)]);
  await c.db.query(`update sys_migration set at = now() - interval '400 days'`);
  forgetLicence(c.db);
}
/** What a tab saw go wrong, but the answers `status` that the test itself brought about. */
const besides = (errors: string[], status: number) =>
  errors.filter((e) => !e.startsWith(`HTTP ${status} `) && !e.includes(`status of ${status} `));
const stored = async () =>
  (await c.db.query<{ value: string }>(`select value from sys_state where key = 'licence:serial'`)).rows[0].value;

describe("the licence", () => {
  it("shows the demo's licence and installation id (copied), installs the vendor's serial number, refusing another's on its field", async () => {
    const tab = await openPage(c);
    try {
      await tab.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: c.url });
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/setting/upgrade`);
      const panel = tab.page.locator("[data-testid=licence]");
      await expect.poll(() => panel.locator("[data-testid=licence-state]").innerText()).toBe("Licensed");
      expect(await panel.innerText()).toContain("Mekong Smart Retail");
      expect(await panel.locator("[data-testid=licence-until]").innerText()).toBe("Dec 31, 2036");
      expect(await panel.locator("[data-testid=licence-installation]").innerText()).toBe(DEMO_INSTALLATION);
      expect(await panel.innerText()).toContain(
        "Serial numbers are issued for this ID: send it to the vendor when you ask for one",
      );
      await panel.getByRole("button", { name: "Copy" }).click();
      await expect.poll(() => tab.page.evaluate(() => navigator.clipboard.readText())).toBe(DEMO_INSTALLATION);

      const field = panel.locator("textarea");
      await field.fill(strangersSerial());
      await panel.locator("[data-testid=install-serial]").click();
      await panel.getByText("This is not a valid serial number").waitFor();
      // The value stays for correcting.
      expect(await field.inputValue()).toMatch(/^VMS2\./);

      await field.fill(DEMO_SERIAL);
      await panel.locator("[data-testid=install-serial]").click();
      await tab.page
        .locator(".ant-message")
        .getByText("The serial number is installed: licensed until Dec 31, 2036")
        .waitFor();
      await expect.poll(() => panel.locator("[data-testid=licence-until]").innerText()).toBe("Dec 31, 2036");
      expect(await stored()).toBe(DEMO_SERIAL);
      expect(tab.errors).toContain("HTTP 400 /admin/sn");
      expect(besides(tab.errors, 400)).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("asks before replacing the key while a serial number is installed, and changes nothing when cancelled", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/setting/upgrade`);
      const panel = tab.page.locator("[data-testid=licence]");
      await panel.locator("input[type=password]").fill("a-brand-new-vendor-key");
      await panel.locator("[data-testid=save-key]").click();
      const confirmation = tab.page.locator(".ant-modal-confirm:visible");
      await expect
        .poll(() => confirmation.locator(".ant-modal-confirm-title").innerText())
        .toBe("Replace the secret key?");
      await confirmation.getByRole("button", { name: "Cancel" }).click();
      await confirmation.waitFor({ state: "detached" });
      const key = await c.db.query<{ value: string }>(`select value from sys_state where key = 'licence:secret_key'`);
      expect(key.rows[0].value).toBe(DEMO_KEY);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("shows an agent the expired page once the licence has ended; the administrator installs a serial number and goes on", async () => {
    const agent = await openPage(c);
    const admin = await openPage(c);
    try {
      await signIn(c, agent.page, "agent_a");
      await signIn(c, admin.page, "admin");
      await expire();

      await agent.page.goto(`${c.url}/goods/list`);
      await agent.page.waitForURL(`${c.url}/expired`);
      await agent.page.getByText("The system has expired; contact the administrator").waitFor();
      // An agent cannot install anything.
      expect(await agent.page.locator("[data-testid=licence] textarea").count()).toBe(0);

      await admin.page.goto(`${c.url}/order/list`);
      await admin.page.waitForURL(`${c.url}/expired`);
      const panel = admin.page.locator("[data-testid=licence]");
      await expect.poll(() => panel.locator("[data-testid=licence-state]").innerText()).toBe("Expired");
      // The id to send to the vendor, with its copy button.
      expect(await panel.locator("[data-testid=licence-installation]").innerText()).toBe(DEMO_INSTALLATION);
      expect(await panel.getByRole("button", { name: "Copy" }).count()).toBe(1);
      await panel.locator("textarea").fill(DEMO_SERIAL);
      await panel.locator("[data-testid=install-serial]").click();
      await admin.page.waitForURL(`${c.url}/`);
      await admin.page.locator(".shell-header").waitFor();
      // The agent's next step is answered again.
      await agent.page.goto(`${c.url}/goods/list`);
      await agent.page.locator(".ant-table-row").first().waitFor();
      // What the shell asked while the licence had ended was refused (its menu, first).
      expect(agent.errors.filter((e) => e.startsWith("HTTP 402 /merchant/")).length).toBeGreaterThan(0);
      expect(besides(agent.errors, 402)).toEqual([]);
      expect(besides(admin.errors, 402)).toEqual([]);
    } finally {
      await agent.context.close();
      await admin.context.close();
    }
  });
});

describe("the licence in every language", () => {
  it.each(LANGUAGES)("%s: the panel and the expired page at 1440 px and 390 px (screenshots kept)", async (lng) => {
    const words = locale(lng, "common");
    const look = async ({ page }: Tab, { width }: Viewport) => {
      await page.goto(`${c.url}/setting/upgrade`);
      const panel = page.locator("[data-testid=licence]");
      await expect
        .poll(() => panel.locator("[data-testid=licence-state]").innerText())
        .toBe(words.licence.state.licensed);
      await panel.scrollIntoViewIfNeeded();
      const text = await panel.innerText();
      expect(text).not.toMatch(/licence\.|undefined|\{\{/);
      expect(text).toContain(words.licence.installation);
      expect(await panel.getByRole("button", { name: words.licence.copy }).count()).toBe(1);
      await expectFits(page, width);
      await shot(panel, `licence-${lng}-${width}`);
    };
    // The expired page as the administrator sees it.
    const expired = async ({ page }: Tab) => {
      const before = await stored();
      await expire();
      await page.goto(`${c.url}/goods/list`);
      await page.waitForURL(`${c.url}/expired`);
      await page.getByText(words.messages.systemExpired).waitFor();
      await expect
        .poll(() => page.locator("[data-testid=licence-state]").innerText())
        .toBe(words.licence.state.expired);
      expect(await page.locator("body").innerText()).not.toMatch(/licence\.|undefined|\{\{/);
      expect(await page.locator("[data-testid=licence-installation]").innerText()).toBe(DEMO_INSTALLATION);
      await shot(page, `licence-expired-${lng}-390`);
      await c.db.query(`update sys_state set value = $1 where key = 'licence:serial'`, [JSON.stringify(before)]);
      forgetLicence(c.db);
    };
    await inLanguage(c, lng, "admin", look, { after: expired, unexpected: (errors) => besides(errors, 402) });
  });
});

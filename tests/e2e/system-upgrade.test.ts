// The system upgrade screen (/setting/upgrade): the installed and the newest version, the upgrade after a
// confirmation that names the version, the published versions; an application's upgrade to its newest
// version. Screenshots in the five languages at 1440 px and on a 390 px phone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  type Console,
  expectFits,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  shot,
  SHOTS,
  signIn,
  startConsole,
  rowAction,
} from "./harness.ts";

let c: Console;
let installed: string;

beforeAll(async () => {
  c = await startConsole();
  installed = String(
    (await c.db.query<{ value: unknown }>(`select value from sys_state where key = 'installed_version'`)).rows[0].value,
  );
  await c.db.query(
    `insert into version (version_number, upgrade_time, description, content)
     values ('9.1.0', now(), 'Faster device map', '<ul><li>The map draws 100,000 devices at once.</li><li>Khmer place names.</li></ul>')`,
  );
});
afterAll(async () => {
  await c?.close();
});

const installedNow = async () =>
  (await c.db.query<{ value: unknown }>(`select value from sys_state where key = 'installed_version'`)).rows[0]?.value;

describe("upgrading the system", () => {
  it("shows both versions, asks before upgrading, and upgrades to the newest", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/setting/upgrade`);
      const screen = tab.page.locator("[data-testid=system-upgrade]");
      await screen.getByText("Version 9.1.0 is available").waitFor();
      expect(await tab.page.locator("[data-testid=installed-version]").innerText()).toBe(installed);
      // The notes are shown as text, never as markup.
      expect(await tab.page.locator("[data-testid=upgrade-notes] li").allInnerTexts()).toEqual([
        "The map draws 100,000 devices at once.",
        "Khmer place names.",
      ]);
      await tab.page.locator("[data-testid=upgrade]").click();
      const confirmation = tab.page.locator(".ant-modal-confirm:visible");
      await confirmation.waitFor();
      expect(await confirmation.locator(".ant-modal-confirm-title").innerText()).toBe(
        "Upgrade the system to version 9.1.0?",
      );
      // Nothing changes until the confirmation is accepted.
      expect(await installedNow()).toBe(installed);
      const done = tab.page.waitForResponse((r) => r.url().endsWith("/merchant/version-upgrade"));
      await confirmation.getByRole("button", { name: "Upgrade to 9.1.0" }).click();
      expect((await done).status()).toBe(200);
      await tab.page.locator(".ant-message").getByText("Upgraded to version 9.1.0").waitFor();
      expect(await installedNow()).toBe("9.1.0");
      await screen.getByText("The system is up to date").waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("upgrading an application", () => {
  it("names both versions in the confirmation, installs the newest and says which", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/application/list`);
      const row = tab.page.locator(".ant-table-tbody tr.ant-table-row", { hasText: "Smart Vending" });
      await row.waitFor();
      await rowAction(row, "Upgrade");
      const confirmation = tab.page.locator(".ant-modal-confirm:visible");
      await expect
        .poll(() => confirmation.locator(".ant-modal-confirm-content").innerText())
        .toBe("Upgrade Smart Vending from version 2.3.1 to the newest published, 2.4.0?");
      const done = tab.page.waitForResponse((r) => r.url().endsWith("/merchant/application-upgrade"));
      await confirmation.getByRole("button", { name: "Upgrade" }).click();
      expect((await done).status()).toBe(200);
      await tab.page.locator(".ant-message").getByText("Smart Vending now runs version 2.4.0").waitFor();
      const stored = await c.db.query<{ version_number: string }>(
        `select version_number from application where name = 'Smart Vending'`,
      );
      expect(stored.rows[0].version_number).toBe("2.4.0");
      await tab.page.screenshot({ path: join(SHOTS, "application-upgraded-en.png") });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("the upgrade screen in every language", () => {
  it.each(LANGUAGES)("%s at 1440 px and 390 px (screenshots kept)", async (lng) => {
    await inLanguage(c, lng, "admin", async ({ page }, { width }) => {
      await page.goto(`${c.url}/setting/upgrade`);
      const screen = page.locator("[data-testid=system-upgrade]");
      await screen.locator(".ant-table-row").first().waitFor();
      const text = await screen.innerText();
      expect(text).toContain(locale(lng, "common").systemUpgrade.history);
      expect(text).not.toMatch(/systemUpgrade\.|undefined|\{\{/);
      await expectFits(page, width);
      await shot(page, `system-upgrade-${lng}-${width}`);
    });
  });
});

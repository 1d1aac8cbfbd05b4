// The outlet manager (README "Outlet managers") in the browser: manager_a signs in on the same form and
// lands on its home, its outlets with today's takings, paid orders and devices as the database has them,
// its devices below; its menu holds only what it may open (Goods: stock consumption; Orders; Outlets;
// Devices) and nothing of money, agents, operators or settings. Screenshots of its home in the five
// languages at 1440 and 390 px (tests/e2e/screenshots/outlet-manager-*), the page never wider than the window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  expectFits,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  shot,
  signIn,
  startConsole,
  type Console,
} from "./harness.ts";

let c: Console;
beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

/** manager_a's outlets by name, and the live devices standing at them, as the database has them. */
async function managed(): Promise<{ outlets: string[]; devices: number }> {
  const { rows } = await c.db.query<{ name: string; devices: number }>(
    `select s.name, (select count(*)::int from "machine" d where d.shop_id = s.id and d.deleted_at is null) as devices
       from "shop_manager" m join "shop" s on s.id in (select (jsonb_array_elements_text(m.shop_ids))::bigint)
      where m.account = 'manager_a' and s.agent_id = m.agent_id and s.deleted_at is null order by s.name`,
  );
  return { outlets: rows.map((r) => r.name), devices: rows.reduce((n, r) => n + r.devices, 0) };
}

const home = (page: Page) => page.locator(".my-outlets");
const outletNames = (page: Page) =>
  home(page)
    .locator(".my-outlet")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-outlet") ?? "").sort());

describe("the outlet manager", () => {
  it("lands on its outlets, today's figures and its devices; its menu holds only what it may open", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "manager_a");
      const common = locale("en", "common");
      const menu = locale("en", "menu");
      const expected = await managed();
      expect(expected.outlets).toHaveLength(2);
      await home(page).locator(".ant-card-head-title", { hasText: common.home.myOutlets }).waitFor();
      await expect.poll(() => outletNames(page)).toEqual(expected.outlets);
      const devices = home(page)
        .locator(".my-outlets-totals .ant-statistic", {
          has: page.locator(`.ant-statistic-title:text-is("${common.home.devices}")`),
        })
        .locator(".ant-statistic-content-value");
      await expect.poll(() => devices.innerText()).toBe(String(expected.devices));
      await page.locator(".my-devices .my-device").first().waitFor();
      // None of an agent's figures: no period cards, no trend, no team, no withdrawals.
      expect(await page.locator(".period-card").count()).toBe(0);
      expect(await page.getByText(common.home.trend, { exact: true }).count()).toBe(0);
      // The menu's groups, and in them only the screens its read set opens.
      const groups = await page.locator(".shell-sider .ant-menu-submenu-title").allInnerTexts();
      expect(groups.map((g) => g.trim()).sort()).toEqual(
        [menu.groups.goods, menu.groups.order, menu.groups.shop, menu.groups.machine].sort(),
      );
      const items: string[] = [];
      for (const group of groups) {
        await page.locator(".shell-sider .ant-menu-submenu-title", { hasText: group.trim() }).click();
      }
      await page.locator(".shell-sider .ant-menu-item", { hasText: menu.routes.shop_list }).waitFor();
      items.push(...(await page.locator(".shell-sider .ant-menu-sub .ant-menu-item").allInnerTexts()));
      expect(items.map((i) => i.trim()).sort()).toEqual(
        [
          menu.routes.goods_stock,
          menu.routes.order_application_list,
          menu.routes.shop_list,
          menu.routes.machine_list,
          menu.routes.machine_statistics,
          menu.routes.machine_channel,
        ].sort(),
      );
      // An outlet opens the device list filtered to it.
      await home(page).locator(".my-outlet a").first().click();
      await page.waitForURL((url) => url.pathname === "/machine/list");
      await page.locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
      // Read-only there: no add or delete in the toolbar, and a row offers neither edit nor delete.
      const toolbar = page.locator(".list-toolbar");
      for (const action of [common.actions.create, common.actions.delete, common.actions.destroy])
        expect(await toolbar.getByRole("button", { name: action }).count(), action).toBe(0);
      const row = page.locator(".ant-table-tbody tr.ant-table-row").first();
      const rowItems: string[] = (await row.locator(".row-actions").allInnerTexts()).map((text) => text.trim());
      if ((await row.locator(".row-actions-more").count()) > 0) {
        await row.locator(".row-actions-more").click();
        const menuItems = page.locator(".ant-dropdown:visible .ant-dropdown-menu-item");
        await menuItems.first().waitFor();
        rowItems.push(...(await menuItems.allInnerTexts()).map((text) => text.trim()));
        await page.keyboard.press("Escape");
      }
      for (const action of [common.actions.edit, common.actions.delete, common.actions.destroy])
        expect(rowItems.join(" | "), action).not.toContain(action);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("shows its home in the five languages, at 1440 px and on a 390 px phone", async () => {
    const { outlets } = await managed();
    for (const lng of LANGUAGES)
      await inLanguage(c, lng, "manager_a", async ({ page }, viewport) => {
        await home(page)
          .locator(".ant-card-head-title", { hasText: locale(lng, "common").home.myOutlets })
          .waitFor();
        await expect.poll(() => outletNames(page)).toEqual(outlets);
        await page.locator(".my-devices .my-device").first().waitFor();
        await expectFits(page, viewport.width);
        await shot(page, `outlet-manager-${lng}-${viewport.width}`, { fullPage: true });
      });
  }, 300_000);
});

// A day's work in the console. Tables that never hide their data: every generated list (and recycle bin),
// opened as admin on a 1440 px screen in Khmer and Thai (the longest words here), shows every cell of its
// rows in full view: none under the action column fixed on the right, none scrolled out past the table's
// edge; no cell shows a raw translation key or a related record as "#<id>". A refused save says how many
// fields need the user and brings the first into view. Tabs close by the handful, and a saved form's goes.
// The operator's phone, in the five languages: its home lists its devices, its lists filter from a sheet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { resources } from "../../src/generated/resources.ts";
import {
  type Console,
  expectFits,
  go,
  inLanguage,
  LANGUAGES,
  locale,
  onPage,
  openPage,
  shot,
  signIn,
  startConsole,
  tableRows,
} from "./harness.ts";

let c: Console;

beforeAll(async () => {
  c = await startConsole();
});

afterAll(async () => {
  await c?.close();
});

/** The generated lists a user opens by an address of their own (a related list inside a record's aside). */
const LISTS = [
  ...new Set(
    resources
      .filter((r) => r.list && !r.list.includes(":") && !r.meta.extension)
      .filter((r) => r.meta.screen === "list" || r.meta.screen === "recycle")
      .map((r) => r.list!),
  ),
];

/** What the page's table hides or says wrongly, as "<column>: <why> (row <key>)". */
function hiddenCells(table: Element): string[] {
  const problems: string[] = [];
  const headers = [...table.querySelectorAll("thead th")].map((th) => (th.textContent ?? "").trim());
  const view = (table.querySelector(".ant-table-content, .ant-table-body") ?? table).getBoundingClientRect();
  const fixed = (td: Element) => /ant-table-cell-fix-(left|right)/.test(td.className);
  for (const row of table.querySelectorAll("tbody tr.ant-table-row")) {
    const cells = [...row.querySelectorAll(":scope > td")];
    const over = cells.filter(fixed).map((td) => td.getBoundingClientRect());
    cells.forEach((td, index) => {
      const where = `${headers[index] || `column ${index + 1}`} (row ${row.getAttribute("data-row-key")})`;
      const text = (td as HTMLElement).innerText.trim();
      if (/^#\d+$/.test(text) || /\b(fields|actions|enum|menu|common)[.:][a-z_]+/.test(text))
        problems.push(`${where}: shows "${text}"`);
      if (fixed(td)) return;
      const box = td.getBoundingClientRect();
      if (box.width === 0) return;
      if (over.some((f) => box.left < f.right - 1 && box.right > f.left + 1))
        problems.push(`${where}: under a fixed column`);
      else if (box.right > view.right + 1 || box.left < view.left - 1) problems.push(`${where}: out of view`);
    });
  }
  return problems;
}

describe("tables", () => {
  it.each(["km", "th"])(
    "shows every cell of every list, and of home's withdrawals, in full at 1440 px in %s",
    async (lng) => {
      const { page, context, errors } = await openPage(c, { lang: lng });
      try {
        await signIn(c, page, "admin");
        await page.evaluate(() => document.fonts.ready);
        const problems: string[] = [];
        // Home's withdrawal panel, first: its rows wait for a decision, amount and payout method in view.
        await onPage(page, "/", ".withdrawal-panel .ant-table-tbody tr.ant-table-row").first().waitFor();
        const panel = await onPage(page, "/", ".withdrawal-panel .ant-table").evaluate(hiddenCells);
        if (panel.length) await shot(page, `hidden-cells-${lng}-home`);
        problems.push(...panel.map((problem) => `/ ${problem}`));
        for (const path of LISTS) {
          await go(page, path);
          const table = onPage(page, path, ".ant-table").first();
          await table.waitFor();
          // Loaded: its rows, or its "no data", and nothing loading any more.
          await onPage(page, path, ".ant-table-tbody tr.ant-table-row, .ant-table-placeholder .ant-empty")
            .first()
            .waitFor();
          await onPage(page, path, ".ant-spin-spinning").first().waitFor({ state: "detached" });
          const hidden = await table.evaluate(hiddenCells);
          // What the user would have seen, kept for whoever reads the failure.
          if (hidden.length) await shot(page, `hidden-cells-${lng}${path.replaceAll("/", "-")}`);
          problems.push(...hidden.map((problem) => `${path} ${problem}`));
        }
        expect(problems).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
    240_000,
  );
});

/** Whether the element's box is inside the window (what the user sees without scrolling). */
const inView = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    });

describe("a refused save", () => {
  it("says how many fields need the user and brings the first into view, on a long form", async () => {
    const common = locale("en", "common");
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      await go(page, "/setting/paySetting");
      const form = page.locator("[data-testid=payment-settings]");
      await form.waitFor();
      // Two providers switched on (each then needs its own fields), the first field of the page emptied, then the
      // save at the foot of the page pressed.
      await page.locator("#social_wallet_enabled").click();
      await page.locator("#provider_a_enabled").click();
      await page.locator("#mini_appid").fill("");
      const save = form.locator("button[type=submit]");
      await save.scrollIntoViewIfNeeded();
      expect(await inView(page, "#mini_appid")).toBe(false);
      await save.click();
      await expect.poll(() => inView(page, ".ant-form-item-has-error")).toBe(true);
      await shot(page, "refused-save-payment-en");
      // The demo's payment settings are not filled in for provider A: the emptied field is one of several refused.
      const refused = await form.locator(".ant-form-item-has-error").count();
      expect(refused).toBeGreaterThan(1);
      const count = common.form.fix.replace("{{count}}", String(refused));
      await page.locator(".ant-message-error").getByText(count, { exact: true }).waitFor();

      // A generated form: every required field of a new goods left empty, each counted.
      await go(page, "/goods/list/create");
      const goods = onPage(page, "/goods/list/create", ".schema-form");
      await goods.waitFor();
      await goods.locator(".form-actions .ant-btn-primary").click();
      // As many as the form marks.
      const marked = goods.locator(".ant-form-item-has-error");
      await marked.first().waitFor();
      const words = common.form.fix.replace("{{count}}", String(await marked.count()));
      await page.locator(".ant-message-error").getByText(words, { exact: true }).waitFor();
      await expect.poll(() => inView(page, ".schema-form .ant-form-item-has-error")).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("tabs", () => {
  it("closes the other tabs or all of them from the bar's menu, and a saved form's own", async () => {
    const common = locale("en", "common");
    const menu = locale("en", "menu");
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const tabs = () => page.locator(".tab-bar .ant-tabs-tab").allTextContents();
      for (const path of ["/goods/list", "/shop/list", "/machine/list"]) {
        await go(page, path);
        await onPage(page, path, ".ant-table-tbody tr.ant-table-row").first().waitFor();
      }
      const barMenu = async (item: string) => {
        await page.getByRole("button", { name: common.tabs.menu }).click();
        await page.getByRole("menuitem", { name: item }).click();
      };
      await barMenu(common.tabs.closeOthers);
      await expect.poll(tabs).toEqual([common.home.title, menu.routes.machine_list]);
      expect(new URL(page.url()).pathname).toBe("/machine/list");
      await barMenu(common.tabs.closeAll);
      await expect.poll(tabs).toEqual([common.home.title]);
      await page.waitForURL((url) => url.pathname === "/");

      // An edit form saved: back on its list, its tab gone.
      await go(page, "/goods/list");
      const row = tableRows(page).first();
      await row.waitFor();
      await expect.poll(tabs).toEqual([common.home.title, menu.routes.goods_list]);
      const id = await row.getAttribute("data-row-key");
      await go(page, `/goods/list/edit/${id}`);
      await onPage(page, `/goods/list/edit/${id}`, ".schema-form").waitFor();
      await expect.poll(tabs).toEqual([common.home.title, menu.routes.goods_list, expect.stringContaining("Edit")]);
      await page.locator(".schema-form .form-actions .ant-btn-primary").click();
      await page.waitForURL((url) => url.pathname === "/goods/list");
      await expect.poll(tabs).toEqual([common.home.title, menu.routes.goods_list]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the operator's phone", () => {
  it.each(LANGUAGES)(
    "%s: home lists its devices with outlet and stock, then its earnings; the device list searches and filters from a sheet",
    async (lng) => {
      const common = locale(lng, "common");
      const machine = locale(lng, "machine");
      const { rows } = await c.db.query<{ mac_name: string; shop: string }>(
        `select m.mac_name, s.name as shop from machine m join shop s on s.id = m.shop_id
           join operator_binding b on b.machine_id = m.id join operator o on o.id = b.operator_id
          where o.account = 'operator_a' and m.deleted_at is null order by m.id`,
      );
      const { rows: figures } = await c.db.query<{ earnings: number; latest: string[] }>(
        `select coalesce(o.earnings, 0)::int as earnings,
                array(select r.order_no from payment_record r where r.operator_id = o.id
                       order by r.paid_at desc, r.id desc limit 5) as latest
           from operator o where o.account = 'operator_a'`,
      );
      const mine = figures[0];
      // The demo's operator has earned from its devices' orders (and seen a refund take some back).
      expect(mine.earnings).toBeGreaterThan(0);
      await inLanguage(c, lng, "operator_a", async ({ page }, { width }) => {
        await go(page, "/");
        const cards = onPage(page, "/", ".my-device");
        await expect.poll(() => cards.count()).toBe(rows.length);
        const text = await onPage(page, "/", ".my-devices").innerText();
        for (const device of rows) expect(text).toContain(device.shop);
        expect(text).toContain(common.home.myDevices);
        expect(text).not.toMatch(/#\d|home\.|restock\.|\{\{/);
        // Below them, its earnings: the figure the database holds and its latest entries, newest first.
        const earnings = onPage(page, "/", ".my-earnings");
        await expect
          .poll(async () => (await earnings.locator(".my-earnings-total").innerText()).replace(/\D/g, ""))
          .toBe((mine.earnings / 100).toFixed(2).replace(/\D/g, ""));
        await expect
          .poll(() =>
            earnings.locator(".my-earning").evaluateAll((items) => items.map((i) => i.getAttribute("data-order"))),
          )
          .toEqual(mine.latest);
        expect(await earnings.innerText()).toContain(common.home.myEarnings);
        await expectFits(page, width);
        await shot(page, `operator-home-${width}-${lng}`, { fullPage: true });
        // Its search finds a device by its code; cleared, all are back.
        const search = onPage(page, "/", ".my-devices-search input");
        await search.fill(rows[1].mac_name);
        await search.press("Enter");
        await expect.poll(() => cards.allInnerTexts()).toEqual([expect.stringContaining(rows[1].mac_name)]);
        await search.fill("");
        await search.press("Enter");
        await expect.poll(() => cards.count()).toBe(rows.length);

        // The devices list: on a phone a search box and the Filters button, the rest in a sheet.
        await go(page, "/machine/list");
        const list = onPage(page, "/machine/list", width < 768 ? ".row-card" : ".ant-table-row");
        await expect.poll(() => list.count()).toBe(rows.length);
        const shown = await onPage(page, "/machine/list", ".ant-card-body").first().innerText();
        expect(shown).not.toMatch(/#\d|fields\.|enum\./);
        if (width < 768) {
          await onPage(page, "/machine/list", ".filter-sheet-open").click();
          const sheet = page.locator(".ant-drawer-content.filter-sheet");
          await sheet.waitFor();
          expect(await sheet.innerText()).toContain(machine.fields.stock_status.label);
          await shot(page, `operator-filters-${width}-${lng}`);
          await page.locator(".filter-sheet .ant-drawer-close").click();
          await sheet.waitFor({ state: "hidden" });
        }
      });
    },
  );
});

// How records look and behave on the generated screens, as a new user meets them on the demo data:
// amounts in the business's currency, units, one date format per language, related records by name
// (also for an operator), key columns and the state in view, lists of objects as sub-tables and as
// editable tables, phone cards without sideways scrolling, confirmations that name the record, a guard
// on unsaved input, failures in words with a retry, a fallback language, a page on its way shown as such,
// readable tab titles.
// Screenshots in the five languages at 1440 px and on a 390 px phone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resources } from "../../src/generated/resources.ts";
import {
  type Console,
  detailTab,
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
  type Tab,
  tableRows,
  type Viewport,
  WIDTHS,
  rowAction,
} from "./harness.ts";

const PHONE = { width: 390, height: 844 };

let c: Console;
beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

const one = async <T>(sql: string, values: unknown[] = []) => (await c.db.query<T>(sql, values)).rows[0];

describe("values as the business writes them", () => {
  it("shows amounts in the settings' currency, units, and one date format per language", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const goods = await one<{ title: string; unit_price: number }>(
        `select title, unit_price from goods where deleted_at is null and agent_id is not null order by created_at desc, id desc limit 1`,
      );
      await page.goto(`${c.url}/goods/list`);
      const row = tableRows(page).filter({ hasText: goods.title }).first();
      await row.waitFor();
      // The demo business keeps US dollars (system settings); written apart from the console's code.
      const dollars = `$${(goods.unit_price / 100).toFixed(2)}`;
      expect(await row.innerText()).toContain(dollars);

      // The currency comes from the settings: change it, and a new visit shows baht.
      await c.db.query(`update system_setting set currency = 'THB'`);
      await page.reload();
      await tableRows(page).filter({ hasText: goods.title }).first().waitFor();
      // Intl writes "THB" and the amount with a no-break space between them.
      expect(
        (await tableRows(page).filter({ hasText: goods.title }).first().innerText()).replace(/\s/g, " "),
      ).toContain(`THB ${(goods.unit_price / 100).toFixed(2)}`);
      await c.db.query(`update system_setting set currency = 'USD'`);

      // A charging-pile tariff per kWh and its longest session in hours.
      const pile = await one<{ name: string; electricity_fee: number; max_hours: number }>(
        `select name, electricity_fee, max_hours from charge_pile_plan where deleted_at is null order by id limit 1`,
      );
      await page.goto(`${c.url}/plan/chargingStation`);
      const pileRow = tableRows(page).filter({ hasText: pile.name }).first();
      await pileRow.waitFor();
      const pileText = await pileRow.innerText();
      expect(pileText).toContain(`$${(pile.electricity_fee / 100).toFixed(2)} / kWh`);
      expect(pileText).toContain(`${pile.max_hours} h`);

      // Thai: the Gregorian year on every screen, never the Buddhist one (2026 + 543).
      await page.evaluate(() => localStorage.setItem("lang", "th"));
      await page.goto(`${c.url}/order/applicationList`);
      await tableRows(page).first().waitFor();
      const year = new Date().getFullYear();
      const orders = await page.locator(".ant-table-tbody").innerText();
      expect(orders).toContain(String(year));
      expect(orders).not.toContain(String(year + 543));
      expect(orders).toMatch(/\d{1,2} [^\s\d]+ \d{4} \d{2}:\d{2}/); // "25 พ.ย. 2026 03:08"
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("names related records: an operator's devices show their agent and outlet, never #<id>", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "operator_a");
      await page.goto(`${c.url}/machine/list`);
      await tableRows(page).first().waitFor();
      await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
      const cells = await page.locator(".ant-table-tbody td").allInnerTexts();
      expect(cells.filter((text) => /^#\d+$/.test(text.trim())).join(", ")).toBe("");
      const first = tableRows(page).first();
      const id = Number(await first.getAttribute("data-row-key"));
      const device = await one<{ nickname: string; shop: string; model: string }>(
        `select a.nickname, s.name as shop, mm.name as model from machine m join agent a on a.id = m.agent_id
           join shop s on s.id = m.shop_id join machine_model mm on mm.id = m.model_id where m.id = $1`,
        [id],
      );
      expect(await first.innerText()).toContain(device.shop);
      // The device's details name its agent, outlet and model as well.
      await rowAction(first, "Details");
      // A vending device opens on its lanes; its information is the next tab.
      await page.locator(".lane-tile").first().waitFor();
      const details = (await detailTab(page, "information")).locator(".detail-descriptions");
      await expect.poll(() => details.innerText()).toContain(device.model);
      const text = await details.innerText();
      expect(text).toContain(device.nickname);
      expect(text).toContain(device.shop);
      const values = await details.locator(".ant-descriptions-item-content").allInnerTexts();
      expect(values.filter((v) => /^#\d+$/.test(v.trim())).join(", ")).toBe("");
      expect(errors.join("\n")).toBe("");
    } finally {
      await context.close();
    }
  });

  it("shows a channel plan's lanes as a table with the goods' names, and edits them as one", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const plan = await one<{ id: number; name: string; goods: string }>(
        `select p.id, p.name, g.title as goods from channel_plan p
           join goods g on g.id = (p.channels -> 0 ->> 'goods_id')::bigint
          where p.deleted_at is null order by p.id limit 1`,
      );
      await page.goto(`${c.url}/channelPlan/list/show/${plan.id}`);
      const lanes = page.locator(".sub-table").first();
      await lanes.waitFor();
      const first = lanes.locator("tbody tr.ant-table-row").first();
      expect(await first.innerText()).toContain(plan.goods);
      // The tab names the record.
      await expect.poll(() => page.locator(".tab-bar .ant-tabs-tab-active").innerText()).toBe(plan.name);

      await page.goto(`${c.url}/channelPlan/list/edit/${plan.id}`);
      const editor = page.locator("#root_channels");
      await editor.waitFor();
      const headers = await editor.getByRole("columnheader").allInnerTexts();
      const lane = locale("en", "channel_plan").fields.channels.fields;
      expect(headers.map((h) => h.replace("*", "").trim())).toEqual([
        lane.channel_number.label,
        lane.goods_id.label,
        lane.count.label,
        lane.price.label,
      ]);
      await expect
        .poll(() => page.locator(".tab-bar .ant-tabs-tab-active").innerText())
        .toBe(locale("en", "common").tabs.edit.replace("{{title}}", plan.name));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("on a phone", () => {
  // Every list the admin's menu opens, then a record's details and form: none scrolls sideways.
  const listed = resources.filter((r) => r.list && !r.meta.hide);

  it("scrolls no screen sideways at 390 px, and shows list rows as cards with their key fields", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await page.setViewportSize(PHONE);
      await signIn(c, page, "admin");
      const wide: string[] = [];
      for (const resource of listed) {
        await go(page, resource.list!);
        const opened = await onPage(
          page,
          resource.list!,
          ".row-card, .ant-list-empty-text, .schema-form, .screen-stack, .ant-empty, .ant-table, .certificate-field, .import-wizard",
        )
          .first()
          .waitFor()
          .then(() => page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" }))
          .then(
            () => true,
            () => false,
          );
        if (!opened) wide.push(`${resource.list}: did not open`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > PHONE.width) wide.push(`${resource.list}: ${width} px`);
      }
      const plan = await one<{ id: number }>(
        `select id from channel_plan where deleted_at is null order by id limit 1`,
      );
      for (const path of [
        `/channelPlan/list/show/${plan.id}`,
        `/channelPlan/list/edit/${plan.id}`,
        "/goods/list/create",
      ]) {
        await go(page, path);
        await onPage(page, path, ".screen-card").first().waitFor();
        await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > PHONE.width) wide.push(`${path}: ${width} px`);
      }
      expect(wide).toEqual([]);

      await go(page, "/order/applicationList");
      const card = onPage(page, "/order/applicationList", ".row-card").first();
      await card.waitFor();
      const order = locale("en", "order").fields;
      const labels = await card.locator(".ant-descriptions-item-label").allInnerTexts();
      // A time's label names the business's zone (Bangkok, UTC+7) where the browser's (this machine's) is
      // another, as a table's header does: a card has no header, and a finger no hover.
      const inBangkok = new Date().getTimezoneOffset() === -7 * 60;
      const timeLabel = inBangkok
        ? order.order_time.label
        : locale("en", "common")
            .list.timeInZone.replace("{{label}}", order.order_time.label)
            .replace("{{zone}}", "UTC+7");
      expect(labels).toEqual([timeLabel, order.pay_status.label, order.money.label]);
      expect(await card.innerText()).toMatch(/\$\d+\.\d{2}/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});

describe("asking first and saying what went wrong", () => {
  it("names the record in a delete confirmation, and deletes nothing when it is cancelled", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/goods/list`);
      const row = tableRows(page).first();
      await row.waitFor();
      const id = Number(await row.getAttribute("data-row-key"));
      const { title } = await one<{ title: string }>(`select title from goods where id = $1`, [id]);
      await rowAction(row, "Delete");
      const pop = page.locator(".ant-modal-confirm");
      await pop.waitFor();
      const words = locale("en", "common").confirm.deleteOne.replace("{{entity}}", "Goods").replace("{{title}}", title);
      expect(await pop.innerText()).toContain(words);
      await pop.getByRole("button", { name: "Cancel" }).click();
      await pop.waitFor({ state: "detached" });
      expect(
        (await one<{ deleted_at: string | null }>(`select deleted_at from goods where id = $1`, [id])).deleted_at,
      ).toBe(null);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("asks before leaving a changed form: by a tab, the menu, closing its tab, the browser's Back; saving forgets", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const goods = await one<{ id: number; title: string }>(
        `select id, title from goods where deleted_at is null order by id limit 1`,
      );
      await page.goto(`${c.url}/goods/list`);
      await tableRows(page).first().waitFor();
      await page.goto(`${c.url}/goods/list/edit/${goods.id}`);
      const title = page.locator("#root_title");
      await title.waitFor();
      await expect.poll(() => title.inputValue()).toBe(goods.title);
      await title.fill(`${goods.title} (draft)`);
      const words = locale("en", "common").confirm;
      const dialog = page.locator(".ant-modal-confirm");

      // Another tab: asked, and staying keeps the input.
      await page
        .locator(".tab-bar .ant-tabs-tab")
        .filter({ hasText: locale("en", "menu").routes.goods_list })
        .click();
      await dialog.locator(".ant-modal-confirm-title").getByText(words.leave, { exact: true }).waitFor();
      await dialog.getByRole("button", { name: words.stay }).click();
      await dialog.waitFor({ state: "detached" });
      expect(page.url()).toContain(`/goods/list/edit/${goods.id}`);
      expect(await title.inputValue()).toBe(`${goods.title} (draft)`);

      // Closing the form's own tab: asked too.
      await page.locator(".tab-bar .ant-tabs-tab-active .ant-tabs-tab-remove").click();
      await dialog.locator(".ant-modal-confirm-title").getByText(words.leave, { exact: true }).waitFor();
      await dialog.getByRole("button", { name: words.stay }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await page.locator(".tab-bar .ant-tabs-tab-active").innerText()).toContain(goods.title);

      // The browser's tab: the page says it has unsaved changes.
      expect(await page.evaluate(() => dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(false);

      // The menu: leaving discards, and the record is unchanged.
      await page
        .locator(".ant-menu")
        .getByRole("link", { name: locale("en", "menu").routes.goods_list })
        .click();
      await dialog.getByRole("button", { name: words.leaveOk }).click();
      await page.waitForURL((url) => url.pathname === "/goods/list");
      expect((await one<{ title: string }>(`select title from goods where id = $1`, [goods.id])).title).toBe(
        goods.title,
      );

      // Saved input is not asked about: the save goes back to the list at once.
      await page.goto(`${c.url}/goods/list/edit/${goods.id}`);
      await title.waitFor();
      await expect.poll(() => title.inputValue()).toBe(goods.title);
      await title.fill(`${goods.title} 2`);
      await page.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((url) => url.pathname === "/goods/list");
      expect(await dialog.count()).toBe(0);
      expect((await one<{ title: string }>(`select title from goods where id = $1`, [goods.id])).title).toBe(
        `${goods.title} 2`,
      );

      // The browser's Back, from a form opened in the console: asked, staying keeps the input and the address.
      const first = tableRows(page).first();
      const other = await one<{ id: number; title: string }>(`select id, title from goods where id = $1`, [
        Number(await first.getAttribute("data-row-key")),
      ]);
      await first.getByRole("button", { name: locale("en", "common").actions.edit }).click();
      await page.waitForURL(new RegExp(`/goods/list/edit/${other.id}$`));
      await expect.poll(() => title.inputValue()).toBe(other.title);
      await title.fill(`${other.title} (back)`);
      await page.goBack();
      await dialog.locator(".ant-modal-confirm-title").getByText(words.leave, { exact: true }).waitFor();
      await dialog.getByRole("button", { name: words.stay }).click();
      await dialog.waitFor({ state: "detached" });
      expect(page.url()).toContain(`/goods/list/edit/${other.id}`);
      expect(await title.inputValue()).toBe(`${other.title} (back)`);
      // Back again, and leaving: the list, the record unchanged.
      await page.goBack();
      await dialog.getByRole("button", { name: words.leaveOk }).click();
      await page.waitForURL((url) => url.pathname === "/goods/list");
      await first.waitFor();
      expect((await one<{ title: string }>(`select title from goods where id = $1`, [other.id])).title).toBe(
        other.title,
      );
      await c.db.query(`update goods set title = $1 where id = $2`, [goods.title, goods.id]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says a server error in words with a retry, and being offline as such", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const failure = locale("en", "common").failure;
      await page.route("**/merchant/goods-list?*", (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"code":500,"message":"x","data":null}' }),
      );
      await page.goto(`${c.url}/goods/list`);
      await page.getByText(failure.server, { exact: true }).waitFor();
      expect(await page.getByText("No data").count()).toBe(0);
      await page.unroute("**/merchant/goods-list?*");
      await page.getByRole("button", { name: "Retry" }).click();
      await tableRows(page).first().waitFor();
      expect(await page.getByText(failure.server, { exact: true }).count()).toBe(0);

      await context.setOffline(true);
      await page.getByRole("button", { name: locale("en", "common").actions.refresh }).click();
      await page.getByText(failure.offline, { exact: true }).waitFor();
      // The rows already shown stay for reading under the warning.
      expect(await tableRows(page).count()).toBeGreaterThan(0);
      // Back online, the list asks again by itself.
      await context.setOffline(false);
      await page.getByText(failure.offline, { exact: true }).waitFor({ state: "detached" });
      await tableRows(page).first().waitFor();
      // The errors are the ones this test caused.
      expect(errors.filter((e) => !e.includes("500") && !e.includes("ERR_INTERNET_DISCONNECTED"))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("falls back to English where a language's words for a screen fail to load, never showing keys", async () => {
    const { page, context } = await openPage(c, { lang: "km" });
    try {
      // Khmer's goods words never arrive (their file is the goods one written in Khmer script), however
      // often they are asked for again.
      await page.route(/\/assets\/goods-[\w-]+\.json$/, async (route) => {
        const response = await route.fetch();
        const body = await response.text();
        if (/[\u1780-\u17ff]/.test(body)) await route.abort();
        else await route.fulfill({ response, body });
      });
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/goods/list`);
      await tableRows(page).first().waitFor();
      const headers = await page.locator(".ant-table-thead th").allInnerTexts();
      const goods = locale("en", "goods").fields;
      expect(headers).toContain(goods.title.label);
      expect(headers.filter((h) => /^goods:|fields\./.test(h))).toEqual([]);
      // The rest of the screen stays in Khmer.
      expect(await page.locator(".list-toolbar").innerText()).toContain(locale("km", "common").actions.create);
    } finally {
      // The console may be asking for the words again as the test ends: that fetch's failure with the closed
      // page is no finding (unhandled, it failed a clean-clone run).
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await context.close();
    }
  });

  it("fades the page left out over 120 ms (a still copy over the new one); not for reduced motion", async () => {
    for (const motion of [true, false]) {
      const { page, context } = await openPage(c, { motion });
      try {
        await signIn(c, page, "admin");
        await page.goto(`${c.url}/shop/list`);
        await tableRows(page).first().waitFor();
        await page.goto(`${c.url}/goods/list`);
        await tableRows(page).first().waitFor();
        // The click on the outlets' tab, and what is on screen right after it, in one go: the fade
        // lasts a tenth of a second.
        // The copy is the goods list's: its title column's header.
        const seen = await page.evaluate(
          ([label, header]) => {
            const tab = [...document.querySelectorAll<HTMLElement>(".tab-bar .ant-tabs-tab-btn")].find(
              (t) => t.textContent === label,
            );
            tab!.click();
            const leaving = document.querySelector(".page-leaving");
            return {
              leaving: leaving ? getComputedStyle(leaving).animationDuration : null,
              copy: leaving?.querySelector("thead")?.textContent?.includes(header) ?? false,
            };
          },
          [locale("en", "menu").routes.shop_list, locale("en", "goods").fields.title.label],
        );
        await page.waitForURL((url) => url.pathname === "/shop/list");
        if (motion) {
          expect(seen).toEqual({ leaving: "0.12s", copy: true });
          // The copy goes once faded; the page under it is the new one.
          await page.locator(".page-leaving").waitFor({ state: "detached" });
        } else {
          expect(seen.leaving).toBeNull();
        }
      } finally {
        await context.close();
      }
    }
  });

  it("keeps the page left on screen while the next one's words load, with a bar once that takes long", async () => {
    const { page, context } = await openPage(c);
    try {
      // The outlets' words (their file) are held until the test lets them go.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/shop-[\w-]+\.json$/, async (route) => {
        await held;
        await route.continue();
      });
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/goods/list`);
      await tableRows(page).first().waitFor();
      await go(page, "/shop/list");
      await page.locator('.shell-content[aria-busy="true"]').waitFor();
      // No blank page and no spinner in its place: the goods are still there to read.
      expect(await page.locator(".page-fade").getAttribute("data-path")).toBe("/goods/list");
      expect(await page.locator(".screen-loading").count()).toBe(0);
      release();
      await page.locator('.page-fade[data-path="/shop/list"] .ant-table-row').first().waitFor();
      expect(await page.locator('.shell-content[aria-busy="true"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("shows a list left for another tab again as it was, not built anew, and lets it go with its tab", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/goods/list`);
      await tableRows(page).first().waitFor();
      const firstPage = await tableRows(page).first().innerText();
      await page.locator(".ant-pagination-item-2").click();
      await expect.poll(() => tableRows(page).first().innerText()).not.toBe(firstPage);
      await expect.poll(() => new URL(page.url()).searchParams.get("currentPage")).toBe("2");
      const secondPage = await tableRows(page).first().innerText();
      // The row element itself is marked: built anew, the list would show an unmarked one.
      await tableRows(page)
        .first()
        .evaluate((row) => row.setAttribute("data-test-kept", "1"));
      // Scrolled down a little, in a window too short for the whole list.
      await page.setViewportSize({ width: 1440, height: 600 });
      await page.evaluate(() => window.scrollTo(0, 200));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(200);

      await go(page, "/shop/list");
      await onPage(page, "/shop/list", ".ant-table-row").first().waitFor();
      // Another page opens at the top.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      // Hidden: none of its rows counts as shown, and its rows are out of the accessibility tree.
      expect(await page.locator("[data-test-kept]").isVisible()).toBe(false);
      expect(await tableRows(page).first().innerText()).not.toBe(secondPage);

      // Back at its bare address (the menu's): the same rows, its page 2 put back in the address.
      await go(page, "/goods/list");
      await page.locator("[data-test-kept]:visible").waitFor();
      expect(await tableRows(page).first().getAttribute("data-test-kept")).toBe("1");
      expect(await tableRows(page).first().innerText()).toBe(secondPage);
      await expect.poll(() => new URL(page.url()).searchParams.get("currentPage")).toBe("2");
      // Where it was left scrolled to.
      expect(await page.evaluate(() => window.scrollY)).toBe(200);

      // Its tab closed from another page, it is gone; opened again, it starts afresh.
      await go(page, "/shop/list");
      await onPage(page, "/shop/list", ".ant-table-row").first().waitFor();
      const goodsTab = page.locator(".tab-bar .ant-tabs-tab", { hasText: locale("en", "menu").routes.goods_list });
      await goodsTab.locator(".ant-tabs-tab-remove").click();
      await expect.poll(() => page.locator('.page-fade[data-path="/goods/list"]').count()).toBe(0);
      await go(page, "/goods/list");
      await onPage(page, "/goods/list", ".ant-table-row").first().waitFor();
      expect(await page.locator("[data-test-kept]").count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("asks for a record's history and related lists along with the record, once each", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      const machine = await one<{ id: number; mac_name: string; orders: number }>(
        `select m.id, m.mac_name, count(o.id)::int as orders from machine m join "order" o on o.machine_id = m.id
          where m.deleted_at is null group by m.id order by m.id limit 1`,
      );
      // The record's answer is held until its history and its orders have been asked for: asked only
      // once the record has come, they never are, and the record never shows.
      const asked: Record<string, number> = { history: 0, orders: 0 };
      let bothAsked!: () => void;
      const both = new Promise<void>((resolve) => (bothAsked = resolve));
      const count = (what: string) => (route: import("playwright-core").Route) => {
        asked[what]++;
        if (asked.history && asked.orders) bothAsked();
        return route.continue();
      };
      await page.route((url) => url.pathname.endsWith("/record-history"), count("history"));
      await page.route(
        (url) => url.pathname.endsWith("/order-list") && url.searchParams.get("machine_id") === String(machine.id),
        count("orders"),
      );
      await page.route(
        (url) => url.pathname.endsWith("/machine-detail"),
        async (route) => {
          await both;
          await route.continue();
        },
      );
      await page.goto(`${c.url}/machine/list/show/${machine.id}`);
      await page.locator(".detail-head .ant-card-head-title", { hasText: machine.mac_name }).waitFor();
      // The history is there (the seed audits nothing: no entry yet), and the machine's orders, a tab away.
      await detailTab(page, "records");
      const history = page.locator(".screen-card", { hasText: locale("en", "common").history.title });
      await history.locator(".ant-empty").waitFor();
      const orders = page.locator(".related-list", { hasText: locale("en", "order").name });
      await orders.getByText(`(${machine.orders})`).waitFor();
      // Each asked for once: shown after the record came, neither was asked for again.
      expect(asked).toEqual({ history: 1, orders: 1 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("titles a new record's tab by its entity", async () => {
    const { page, context } = await openPage(c);
    try {
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/goods/list/create`);
      await page.locator(".schema-form").waitFor();
      await expect
        .poll(() => page.locator(".tab-bar .ant-tabs-tab-active").innerText())
        .toBe(locale("en", "common").tabs.create.replace("{{entity}}", "goods"));
      expect(await page.title()).toContain(locale("en", "common").tabs.create.replace("{{entity}}", "goods"));
    } finally {
      await context.close();
    }
  });
});

describe("screenshots", () => {
  it.each(LANGUAGES)(
    "%s: lists, a detail and a form at 1440 px and 390 px (kept)",
    async (lng) => {
      const plan = await one<{ id: number }>(
        `select id from channel_plan where deleted_at is null order by id limit 1`,
      );
      const look = async ({ page }: Tab, { width }: Viewport) => {
        const phone = width < 768;
        for (const [name, path, ready] of [
          ["orders", "/order/applicationList", phone ? ".row-card" : ".ant-table-row"],
          ["goods", "/goods/list", phone ? ".row-card" : ".ant-table-row"],
          ["plan-detail", `/channelPlan/list/show/${plan.id}`, ".sub-table"],
          ["plan-form", `/channelPlan/list/edit/${plan.id}`, ".table-array"],
        ] as const) {
          await go(page, path);
          await onPage(page, path, ready).first().waitFor();
          await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
          await shot(page, `presentation-${name}-${lng}-${width}`);
          await expectFits(page, width);
        }
      };
      await inLanguage(c, lng, "admin", look, { widths: [WIDTHS[0], PHONE], locale: lng });
    },
    120_000,
  );
});

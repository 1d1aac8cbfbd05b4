// A phone held in the hand (390 × 844, a finger, no mouse). On the screens of the phone's paths (sign-in;
// the operator's home, its devices, a device's lanes, the restock dialog and the fill-all confirmation; the
// menu, a list's cards and pager, its filter sheet, a form, a dialog's form) every target a thumb taps is at
// least 44 × 44 px, a switch's and a field's small buttons reach that far around them; what a user needs is
// not behind a hover (a figure's definition opens on a tap, a card's text is whole); each field brings up
// its keyboard (digits for a quantity, a phone pad for a phone number, no capitals for an account, the
// browser's own password only where it is the user's); no field's text is small enough for a phone to zoom
// into it. With a mouse at 1440 px the compact controls stay.
// Screenshots of the phone paths in the five languages (tests/e2e/screenshots/touch-*).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import {
  type Console,
  expectFits,
  go,
  LANGUAGES,
  locale,
  type Lng,
  onPage,
  openPage,
  PASSWORDS,
  shot,
  signIn,
  startConsole,
} from "./harness.ts";

/** The smallest side of a target a finger taps (WCAG 2.5.5), written apart from the console's own figure. */
const FINGER = 44;

let c: Console;

beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

/**
 * What a finger taps: buttons, links (not one wrapping a button: the button is the target; nor a menu
 * item's, which antd stretches over its item, the item being measured), tabs, menu items, fields, pager
 * items, check boxes and radio buttons, segments, the lane tiles, pictures that open. A switch and the
 * small buttons inside a field are looked at by their hit area (`hitArea`), not their box.
 */
const TARGETS = [
  "button:not(.ant-switch, .ant-input-clear-icon)",
  "a[href]:not(:has(button), .ant-menu-title-content a, .ant-dropdown-menu-title-content > a)",
  "select",
  "textarea",
  "input:not([type=hidden], [type=file], [type=radio], [type=checkbox])" +
    ":not(.ant-input-affix-wrapper *, .ant-select *, .ant-input-number *, .ant-picker *)",
  ".ant-input-affix-wrapper",
  ".ant-input-number:not(.ant-input-number-affix-wrapper *)",
  ".ant-input-number-affix-wrapper",
  ".ant-select",
  ".ant-picker",
  ".ant-tabs-tab",
  ".ant-menu-item",
  ".ant-menu-submenu-title",
  ".ant-dropdown-menu-item",
  ".ant-segmented-item",
  ".ant-pagination-item",
  ".ant-pagination-prev",
  ".ant-pagination-next",
  ".ant-pagination-jump-prev",
  ".ant-pagination-jump-next",
  ".ant-checkbox-wrapper",
  ".ant-radio-wrapper",
  ".ant-upload[role=button]",
  // A picture that opens whole (not one inside a button, as a lane's).
  ".ant-image:not(button *)",
].join(", ");

interface Measured {
  /** How many targets were measured. */
  count: number;
  /** Those under FINGER px wide or high: `"Restock" 90×40`. */
  small: string[];
}

/** The targets shown inside `scope` (on screen or a scroll away), and those too small for a finger. */
async function measure(page: Page, scope: string): Promise<Measured> {
  return page.evaluate(
    ({ scope, targets, finger }) => {
      const small: string[] = [];
      let count = 0;
      for (const root of document.querySelectorAll(scope))
        for (const target of root.querySelectorAll<HTMLElement>(targets)) {
          // Shown: not in a page kept for its tab, not hidden, not a closed menu's.
          if (!target.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
          const box = target.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          count++;
          if (box.width >= finger - 0.5 && box.height >= finger - 0.5) continue;
          const name =
            target.getAttribute("aria-label") ||
            target.innerText?.trim() ||
            target.getAttribute("placeholder") ||
            target.getAttribute("title") ||
            `${target.tagName.toLowerCase()}.${[...target.classList].join(".")}`;
          small.push(`"${name.replace(/\s+/g, " ").slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
        }
      return { count, small };
    },
    { scope, targets: TARGETS, finger: FINGER },
  );
}

/** Every target in `scope` is finger-sized; at least `least` of them were measured (none missed by a typo). */
async function expectFingerSized(page: Page, scope: string, least: number): Promise<void> {
  // Measured once they are all shown: on a busy machine a page can still be fading in (opacity) when its
  // first element is there.
  await expect
    .poll(async () => (await measure(page, scope)).count, { message: `targets measured in ${scope}`, timeout: 20_000 })
    .toBeGreaterThanOrEqual(least);
  const { small } = await measure(page, scope);
  expect(small, `targets under ${FINGER} px in ${scope}`).toEqual([]);
}

/**
 * Whether a tap anywhere in the FINGER × FINGER square around the target's centre lands on it (a switch,
 * a field's clear button: small to the eye, their hit area reaching further). The target is brought into
 * the middle of the screen first, away from a sticky header or footer.
 */
async function hitArea(target: Locator): Promise<boolean> {
  await target.evaluate((el) => el.scrollIntoView({ block: "center" }));
  return target.evaluate((el, finger) => {
    const box = el.getBoundingClientRect();
    const [x, y, r] = [box.left + box.width / 2, box.top + box.height / 2, finger / 2 - 1];
    return [
      [x - r, y - r],
      [x + r, y - r],
      [x - r, y + r],
      [x + r, y + r],
    ].every(([px, py]) => {
      const hit = document.elementFromPoint(px, py);
      return !!hit && el.contains(hit);
    });
  }, FINGER);
}

/**
 * The fields shown whose text is under 16 px: Safari on iOS zooms the page into such a field when it takes
 * focus. `"#root_name" 14px`.
 */
const zoomingFields = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("input, textarea")]
      .filter(
        (field) =>
          !["checkbox", "radio", "range", "file", "hidden"].includes(field.getAttribute("type") ?? "") &&
          field.checkVisibility({ checkVisibilityCSS: true }) &&
          parseFloat(getComputedStyle(field).fontSize) < 16,
      )
      .map(
        (field) =>
          `"${field.id || field.getAttribute("placeholder") || field.className}" ${getComputedStyle(field).fontSize}`,
      ),
  );

/** An input's attributes that choose a phone's keyboard and what the browser may fill in. */
const keyboard = (input: Locator) =>
  input.evaluate((el) =>
    Object.fromEntries(
      ["type", "inputmode", "autocomplete", "autocapitalize", "enterkeyhint", "spellcheck"]
        .map((name) => [name, el.getAttribute(name)])
        .filter(([, value]) => value !== null),
    ),
  );

/** Signs in on a phone, as a user does: two fields and a tap. */
async function signInByTap(page: Page, account: string): Promise<void> {
  await page.goto(`${c.url}/login`);
  await page.locator("#account").fill(account);
  await page.locator("#password").fill(PASSWORDS[account]);
  await page.locator("button[type=submit]").tap();
  await page.waitForURL(`${c.url}/`);
  await page.locator(".shell-header").waitFor();
}

/** The dialog on top, once it has opened. */
const dialog = (page: Page, kind = ".ant-modal") => page.locator(`${kind}:visible`);

/** A vending device of operator_a's with a shelved lane that has room and goods in stock, and its lanes. */
async function operatorDevice() {
  const { rows } = await c.db.query<{ machine_id: number; mac_name: string; channel_number: number; lanes: number }>(
    `select c.machine_id::int, m.mac_name, c.channel_number,
            (select count(*)::int from machine_channel l where l.machine_id = c.machine_id) as lanes
       from machine_channel c
       join machine m on m.id = c.machine_id
       join operator_binding b on b.machine_id = c.machine_id
       join operator o on o.id = b.operator_id and o.account = 'operator_a'
       join goods g on g.id = c.goods_id
      where c.shelf_status = 1 and c.count - c."left" >= 1 and g.stock >= c.count and m.deleted_at is null
      order by c.machine_id, c.channel_number limit 1`,
  );
  expect(rows[0], "a lane of operator_a's with room").toBeDefined();
  return rows[0];
}

/**
 * The operator's path on a phone, each screen measured: sign-in, home, the device list, a device's lanes,
 * the restock dialog and the fill-all confirmation (both closed without loading). `look` sees each screen
 * once it is shown.
 */
async function operatorPath(page: Page, _lng: Lng, look: (step: string) => Promise<void>): Promise<void> {
  const device = await operatorDevice();
  await page.goto(`${c.url}/login`);
  await page.locator("#account").waitFor();
  await expectFingerSized(page, ".login-page", 4);
  await look("sign-in");
  await signInByTap(page, "operator_a");

  // Home: the header, the tab bar, the search, the two lists' switch, each device's code and Restock.
  const card = page.locator(`.my-device[data-device="${device.mac_name}"]`);
  await card.waitFor();
  await expectFingerSized(page, ".shell-header, .tab-bar, .my-devices", 8);
  await look("operator-home");

  // Its devices, as cards.
  await page.goto(`${c.url}/machine/list`);
  await page.locator(".row-card").first().waitFor();
  await expectFingerSized(page, ".shell-content", 3);
  await look("operator-devices");

  // A device's lanes, opened from home.
  await page.goto(`${c.url}/`);
  await card.locator(".my-device-restock").tap();
  const tile = page.locator(`.lane-tile[data-lane="${device.channel_number}"]`);
  await tile.waitFor();
  await expect.poll(() => page.locator(".lane-tile").count()).toBe(device.lanes);
  // Every lane, Fill all, the detail's tabs, the tab bar with its close buttons.
  await expectFingerSized(page, ".tab-bar, .shell-content", device.lanes + 4);
  await look("operator-lanes");

  await tile.tap();
  const lane = dialog(page, ".lane-dialog");
  await lane.locator(".lane-quantity input").waitFor();
  // Close, the quantity, Cancel, Fill and Restock.
  await expectFingerSized(page, ".lane-dialog", 5);
  // Its title (the lane's goods, a long name) stops before its close button.
  const [title, close] = await Promise.all(
    [".ant-modal-title", ".ant-modal-close"].map((part) => lane.locator(part).boundingBox()),
  );
  expect(title!.x + title!.width, "the title's end, left of the close button").toBeLessThanOrEqual(close!.x);
  await look("operator-restock");
  // Cancel (antd spaces a button's two Chinese characters apart: found by its place, not its name).
  await lane.locator(".lane-dialog-actions .ant-btn").first().tap();
  await lane.waitFor({ state: "hidden" });

  await page.locator("[data-testid=fill-all]").tap();
  const confirm = dialog(page, ".ant-modal-confirm");
  await confirm.locator(".ant-modal-confirm-btns .ant-btn").first().waitFor();
  await expectFingerSized(page, ".ant-modal-confirm", 2);
  await look("operator-fill-all");
  await confirm.locator(".ant-modal-confirm-btns .ant-btn:not(.ant-btn-primary)").tap();
  await confirm.waitFor({ state: "hidden" });
}

/** An agent's home: the figures, each definition behind its question mark opened by a tap. */
async function agentHome(page: Page, lng: Lng, look: (step: string) => Promise<void>): Promise<void> {
  const common = locale(lng, "common");
  await signInByTap(page, "agent_a");
  const revenue = page
    .locator(".period-card")
    .first()
    .locator(".ant-statistic-title", { hasText: common.home.revenue });
  await revenue.waitFor();
  await expectFingerSized(page, ".shell-header, .tab-bar, .period-card", 4);
  await revenue.locator(".figure-hint").tap();
  await page.locator(".ant-tooltip:visible").getByText(common.home.revenueHint, { exact: true }).waitFor();
  await look("agent-home");
}

/**
 * The admin's path on a phone: the menu, a list's cards and pager, its filter sheet, a form and its
 * switches, a row's confirmation.
 */
async function adminPath(page: Page, lng: Lng, look: (step: string) => Promise<void>): Promise<void> {
  const common = locale(lng, "common");
  const shop = locale(lng, "shop");
  await signInByTap(page, "admin");
  await page.locator(".shell-header button[aria-expanded]").tap();
  const menu = page.locator(".shell-drawer .ant-menu-root");
  await menu.waitFor();
  await menu.locator(".ant-menu-submenu-title").first().tap();
  await menu.locator(".ant-menu-sub .ant-menu-item").first().waitFor();
  await expectFingerSized(page, ".shell-drawer", 10);
  await look("admin-menu");
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "hidden" });

  // A list of outlets as cards: the search, Filters, Add, Refresh, each card's actions, the pager.
  await page.goto(`${c.url}/shop/list`);
  await page.locator(".row-card").first().waitFor();
  await page.locator(".list-cards .ant-pagination-simple-pager input").waitFor();
  await expectFingerSized(page, ".shell-content", 10);
  await look("admin-list");

  await page.locator(".filter-sheet-open").tap();
  const sheet = page.locator(".ant-drawer-content.filter-sheet");
  await sheet.locator(".filter-sheet-actions .ant-btn").first().waitFor();
  // Close, each filter and the two buttons.
  await expectFingerSized(page, ".filter-sheet", 8);
  await look("admin-filters");
  await sheet.locator(".ant-drawer-close").tap();
  await sheet.waitFor({ state: "hidden" });

  // A row's delete asks first: its two buttons.
  await page.locator(".row-card .row-actions-more").first().tap();
  await page.getByRole("menuitem", { name: common.actions.delete, exact: true }).waitFor();
  await expectFingerSized(page, ".ant-dropdown:not(.ant-dropdown-hidden)", 2);
  await page.getByRole("menuitem", { name: common.actions.delete, exact: true }).tap();
  const confirm = dialog(page, ".ant-modal-confirm");
  await confirm.locator(".ant-modal-confirm-btns .ant-btn").first().waitFor();
  await expectFingerSized(page, ".ant-modal-confirm", 2);
  await look("admin-confirm");
  await confirm.locator(".ant-modal-confirm-btns .ant-btn:not(.ant-btn-primary)").tap();
  await confirm.waitFor({ state: "hidden" });

  // A new outlet's form: its fields, the image's upload, the switches, Save and Cancel.
  await page.goto(`${c.url}/shop/list/create`);
  await page.locator(".schema-form .form-actions .ant-btn-primary").waitFor();
  await page.locator("#root_name").waitFor();
  await expectFingerSized(page, ".schema-form", 12);
  for (const name of ["open_mall", "is_discount"])
    expect(await hitArea(page.locator(`#root_${name}`)), `${shop.fields[name].label}'s hit area`).toBe(true);
  await page.locator("#root_name").scrollIntoViewIfNeeded();
  await look("admin-form");
}

describe("a phone held in the hand", () => {
  it("the operator: every target on its path is finger-sized; the quantity and the searches bring up their keys", async () => {
    const tab = await openPage(c, { touch: true });
    const { page } = tab;
    try {
      await operatorPath(page, "en", async (step) => {
        if (step === "sign-in") {
          // The account as typed, the browser's own password for this site.
          expect(await keyboard(page.locator("#account"))).toEqual({
            type: "text",
            autocomplete: "username",
            autocapitalize: "none",
            spellcheck: "false",
          });
          expect(await keyboard(page.locator("#password"))).toEqual({
            type: "password",
            autocomplete: "current-password",
            enterkeyhint: "go",
          });
        }
        if (step === "operator-home")
          expect(await keyboard(page.locator(".my-devices-search input"))).toMatchObject({
            enterkeyhint: "search",
            autocapitalize: "none",
            spellcheck: "false",
          });
        // A quantity on the number pad.
        if (step === "operator-restock")
          expect(await keyboard(page.locator(".lane-dialog .lane-quantity input"))).toMatchObject({
            inputmode: "numeric",
          });
        expect(await zoomingFields(page), "fields a phone would zoom into").toEqual([]);
        await expectFits(page, 390);
      });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("the outlet manager: its home's outlets and devices are finger-sized, and its search brings up its keys", async () => {
    const tab = await openPage(c, { touch: true });
    const { page } = tab;
    try {
      await signInByTap(page, "manager_a");
      // Its outlets (each a link to its devices), then its devices with their search and switch.
      await page.locator(".my-outlet").first().waitFor();
      await page.locator(".my-device").first().waitFor();
      await expectFingerSized(page, ".shell-header, .tab-bar, .my-outlets, .my-devices", 8);
      expect(await keyboard(page.locator(".my-devices-search input"))).toMatchObject({ enterkeyhint: "search" });
      expect(await zoomingFields(page), "fields a phone would zoom into").toEqual([]);
      await expectFits(page, 390);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("an agent: a figure's definition opens on a tap", async () => {
    const tab = await openPage(c, { touch: true });
    try {
      await agentHome(tab.page, "en", () => expectFits(tab.page, 390));
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("the admin: the menu, a list, its filter sheet, a confirmation and a form are finger-sized; each field has its keyboard", async () => {
    const tab = await openPage(c, { touch: true });
    const { page } = tab;
    try {
      await adminPath(page, "en", async (step) => {
        if (step === "admin-list") {
          // The page number, typed on the number pad.
          expect(await keyboard(page.locator(".list-cards .ant-pagination-simple-pager input"))).toMatchObject({
            inputmode: "numeric",
          });
          // A card's text is whole, not cut to a tooltip.
          const cut = await page
            .locator(".row-card .cell-ellipsis")
            .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).length);
          expect(cut).toBe(0);
        }
        if (step === "admin-filters") {
          // The search box's Enter searches; the phone filter takes a phone number.
          expect(await keyboard(page.locator(".filter-bar-phone .ant-input-search input"))).toMatchObject({
            enterkeyhint: "search",
          });
          expect(await keyboard(page.locator(".filter-sheet #filter_shop_list_phone"))).toMatchObject({
            inputmode: "tel",
            enterkeyhint: "search",
          });
        }
        if (step === "admin-form") {
          expect(await keyboard(page.locator("#root_phone"))).toMatchObject({ type: "tel", inputmode: "tel" });
          expect(await keyboard(page.locator("#root_longitude"))).toMatchObject({ inputmode: "decimal" });
          expect(await keyboard(page.locator("#root_meal_url"))).toMatchObject({
            inputmode: "url",
            autocapitalize: "none",
            spellcheck: "false",
          });
          expect(await keyboard(page.locator("#root_meal_appid"))).toMatchObject({
            autocomplete: "off",
            autocapitalize: "none",
            spellcheck: "false",
          });
          // A plain text keeps the full keyboard.
          expect(await keyboard(page.locator("#root_name"))).toEqual({ type: "text" });
        }
        expect(await zoomingFields(page), "fields a phone would zoom into").toEqual([]);
        await expectFits(page, 390);
      });

      // A range of prices on digits and a point.
      await page.goto(`${c.url}/goods/list`);
      await page.locator(".filter-sheet-open").tap();
      const sheet = page.locator(".ant-drawer-content.filter-sheet");
      await sheet.locator(".filter-sheet-actions .ant-btn").first().waitFor();
      const bounds = sheet.locator(".ant-space-compact .ant-input-number-input");
      await expect.poll(() => bounds.count()).toBe(2);
      for (const input of await bounds.all()) expect(await keyboard(input)).toMatchObject({ inputmode: "decimal" });
      await expectFingerSized(page, ".filter-sheet", 4);
      expect(await zoomingFields(page), "fields a phone would zoom into").toEqual([]);

      // A new agent's account and password: no capitals, and never the admin's own password filled in.
      // Opened in the console, as from its menu (a page load, on two busy cores, can take the wait's 20 s),
      // the path's last sheet closed first.
      await page.keyboard.press("Escape");
      await page.locator(".ant-drawer-open").waitFor({ state: "detached" });
      await go(page, "/manage/add");
      await onPage(page, "/manage/add", "#root_account").waitFor({ timeout: 60_000 });
      expect(await keyboard(page.locator("#root_account"))).toMatchObject({
        autocomplete: "off",
        autocapitalize: "none",
        spellcheck: "false",
      });
      expect(await keyboard(page.locator("#root_password"))).toMatchObject({
        type: "password",
        autocomplete: "new-password",
      });
      await expectFingerSized(page, ".shell-content", 4);

      // A role's permissions: each check box a finger's line; their search searches on Enter.
      const common = locale("en", "common");
      await go(page, "/manage/role/create");
      await onPage(page, "/manage/role/create", ".permissions-widget .ant-checkbox-wrapper")
        .first()
        .waitFor({ timeout: 60_000 });
      await expectFingerSized(page, ".permissions-widget", 20);
      expect(await keyboard(page.locator(".permissions-widget .ant-input-search input"))).toMatchObject({
        enterkeyhint: "search",
      });
      expect(await page.locator(".permissions-widget .ant-input-search input").getAttribute("placeholder")).toBe(
        common.actions.search,
      );

      // Changing one's own password: the current one is the browser's to fill, the new one is new; the
      // dialog's buttons are finger-sized.
      await page.locator(".user-button").tap();
      await page.locator(".ant-dropdown-menu-item", { hasText: common.actions.changePassword }).tap();
      const change = dialog(page);
      await change.locator("#root_old_password").waitFor();
      expect(await keyboard(change.locator("#root_old_password"))).toMatchObject({
        autocomplete: "current-password",
      });
      expect(await keyboard(change.locator("#root_new_password"))).toMatchObject({ autocomplete: "new-password" });
      await expectFingerSized(page, ".ant-modal-wrap:not([style*='display: none'])", 5);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("the phone paths in the five languages", () => {
  it.each(LANGUAGES)(
    "%s: finger-sized on every screen, nothing wider than the phone, kept as screenshots",
    async (lng) => {
      for (const path of [operatorPath, agentHome, adminPath]) {
        const tab = await openPage(c, { touch: true, lang: lng });
        const { page } = tab;
        try {
          await path(page, lng, async (step) => {
            await expectFits(page, 390);
            await page.evaluate(() => document.fonts.ready);
            await shot(page, `touch-390-${step}-${lng}`);
          });
          expect(tab.errors).toEqual([]);
        } finally {
          await tab.context.close();
        }
      }
    },
  );
});

describe("with a mouse", () => {
  it("at 1440 px the controls keep their compact size", async () => {
    const tab = await openPage(c);
    const { page } = tab;
    try {
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/shop/list`);
      await page.locator(".ant-table-row").first().waitFor();
      const height = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => Math.round(el.getBoundingClientRect().height));
      expect(await height(".filter-bar button[type=submit]")).toBe(32);
      expect(await height(".filter-bar .ant-input-affix-wrapper, .filter-bar input.ant-input")).toBe(32);
      expect(await height(".shell-header .language-switch")).toBe(32);
      expect(await height(".ant-table-row .row-actions-primary")).toBe(24);
      expect(await height(".ant-pagination-item")).toBe(24);
      expect(await height(".shell-sider .ant-menu-submenu-title")).toBe(40);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

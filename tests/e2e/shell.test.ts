// The console's frame as people meet it in Chromium: the login page and the route guard, the
// languages (browser detection, shipped fonts, switching, kept across reloads), the tab bar, the
// version check, a 401 and an expired system logging out or explaining, a failed chunk with its
// retry, and every route of SPEC §2 opening with real data and no console errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { resources } from "../../src/generated/resources.ts";
import { type Console, go, locale, onPage, openPage, ROOT, SHOTS, signIn, startConsole, tableRows } from "./harness.ts";

/** The shipped font each language's script needs (fonts are bundled; the machine may have none). */
const FONT: Record<string, string> = {
  en: "Noto Sans",
  zh: "Noto Sans SC",
  tw: "Noto Sans TC",
  km: "Noto Sans Khmer",
  th: "Noto Sans Thai",
};

let c: Console;

beforeAll(async () => {
  c = await startConsole();
});

afterAll(async () => {
  await c?.close();
});

describe("signing in", () => {
  it("opens the login form from any address with the login page's code alone (under 200 KB gzipped)", async () => {
    const scriptsOf = async (path: string) => {
      const { page, context } = await openPage(c);
      const scripts = new Set<string>();
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.add(new URL(r.url()).pathname);
      });
      await page.goto(`${c.url}${path}`);
      await page.waitForURL(/\/login$/);
      await page.locator("#account").waitFor();
      await page.waitForLoadState("networkidle");
      await context.close();
      return [...scripts].sort();
    };
    const login = await scriptsOf("/login");
    for (const path of ["/", "/goods/list", "/machine/list/show/1", "/no/such/page"])
      expect(await scriptsOf(path), path).toEqual(login);
    const bytes = login.reduce(
      (sum, script) => sum + gzipSync(readFileSync(join(ROOT, "dist/console", script))).length,
      0,
    );
    expect(bytes).toBeLessThan(200 * 1024);
  });

  it("sends every path to /login without a token, and back to it after signing out", async () => {
    const { page, context, errors } = await openPage(c);
    await page.goto(`${c.url}/goods/list`);
    await page.waitForURL(/\/login/);
    await page.goto(`${c.url}/`);
    await page.waitForURL(/\/login/);

    await page.locator("button[type=submit]").click();
    await expect
      .poll(() => page.locator(".login-problem").allTextContents())
      .toEqual([locale("en", "common").messages.accountEmpty, locale("en", "common").messages.passwordEmpty]);
    await page.locator("#account").fill("admin");
    await page.locator("#password").fill("wrong-password");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator(".login-alert").textContent()).toBe(locale("en", "errors").loginFailed);
    errors.length = 0; // the browser logs the refused sign-in's 401 itself

    await page.locator("#password").fill("admin123");
    await page.locator("button[type=submit]").click();
    await page.waitForURL(`${c.url}/`);
    await expect.poll(() => page.locator(".home-greeting").textContent()).toContain("Mekong");
    const stored = await page.evaluate(() => ({ ...localStorage }));
    expect(stored.merchant_token).toMatch(/.{20,}/);
    expect(stored.version).toMatch(/^\d+(\.\d+)*$/);

    await page.locator(".user-button").click();
    await page.getByText(locale("en", "common").actions.logout, { exact: true }).click();
    await page.waitForURL(/\/login/);
    const after = await page.evaluate(() => ({ ...localStorage }));
    expect(after.merchant_token).toBeUndefined();
    expect(after.version).toBe(stored.version);
    expect(after.lang).toBe("en");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("logs out on a 401: a token revoked on the server sends the next call to /login", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    await c.db.query("delete from sys_token");
    // In-app navigations (no page load) until a list's call is answered 401 and the console signs out: a
    // token revoked in the database is refused within a second (a session read is trusted that long).
    let turn = 0;
    await expect
      .poll(async () => {
        const at = new URL(page.url()).pathname;
        if (at !== "/login")
          await page.evaluate(
            (to) => {
              history.pushState({}, "", to);
              dispatchEvent(new PopStateEvent("popstate"));
            },
            ["/goods/list", "/shop/list"][turn++ % 2],
          );
        return at;
      })
      .toBe("/login");
    expect(await page.evaluate(() => localStorage.getItem("merchant_token"))).toBeNull();
    await context.close();
  });
});

describe("languages", () => {
  it("follows the browser language, falls back to English, and ships the fonts", async () => {
    for (const [browserLocale, lng] of [
      ["th-TH", "th"],
      ["zh-TW", "tw"],
      ["km-KH", "km"],
      ["zh-CN", "zh"],
      ["fr-FR", "en"],
    ] as const) {
      const { page, context } = await openPage(c, { locale: browserLocale });
      await page.goto(`${c.url}/login`);
      await expect.poll(() => page.locator(".login-submit").textContent()).toBe(locale(lng, "common").actions.login);
      // The script's font arrives with its language (its stylesheet is fetched once the language is known),
      // so wait for it the way a reader does: until the page's text is drawn in it.
      await expect
        .poll(() =>
          page.evaluate(async () => {
            await document.fonts.ready;
            return [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replaceAll('"', ""));
          }),
        )
        .toContain(FONT[lng]);
      await page.screenshot({ path: join(SHOTS, `login-${lng}.png`) });
      await context.close();
    }
  });

  it("switches the whole console, antd's texts included, and keeps the choice across a reload", async () => {
    const { page, context, errors } = await openPage(c);
    await signIn(c, page, "admin");
    await page.goto(`${c.url}/goods/list`);
    await tableRows(page).first().waitFor();
    await page.locator(".shell-header .language-switch").click();
    await page.locator(".ant-select-item-option", { hasText: "简体中文" }).click();
    const zhMenu = locale("zh", "menu");
    await expect.poll(() => page.locator(".shell-sider").textContent()).toContain(zhMenu.groups.goods);
    await expect
      .poll(() => page.locator(".ant-table-thead").textContent())
      .toContain(locale("zh", "goods").fields.title.label);
    // antd's own pager texts follow (its zh_CN locale says 条/页).
    await expect.poll(() => page.locator(".ant-pagination").textContent()).toContain("条/页");
    await page.reload();
    await expect.poll(() => page.locator(".tab-bar").textContent()).toContain(zhMenu.routes.goods_list);
    expect(await page.evaluate(() => localStorage.getItem("lang"))).toBe("zh");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-Hans");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("main screens in four languages", () => {
  const SCREENS = [
    ["home", "/"],
    ["goods-list", "/goods/list"],
    ["goods-create", "/goods/list/create"],
    ["orders", "/order/applicationList"],
    ["devices", "/machine/list"],
    ["work-order", "/order/ServiceList/show/1"],
    ["system-settings", "/setting/system"],
  ] as const;

  it.each(["en", "zh", "km", "th"])("shows no untranslated text in %s (screenshots kept)", async (lng) => {
    const { page, context, errors } = await openPage(c, { lang: lng });
    await signIn(c, page, "admin");
    for (const [name, path] of SCREENS) {
      // In-app, as from the menu: what is read and kept is this screen's page (onPage), not the last one's.
      await go(page, path);
      await onPage(page, path, ".ant-card, .home-page").first().waitFor();
      // Rendered: nothing is loading any more, and the screen's language's texts have arrived: a key shown
      // instead of its text (goods:fields.title.label, menu:routes.x, actions.save) for longer than a poll
      // waits is a key the user reads.
      await onPage(page, path, ".ant-spin-spinning, .ant-skeleton").first().waitFor({ state: "detached" });
      await expect
        .poll(() => page.locator(".shell").innerText(), { message: `${name} in ${lng}` })
        .not.toMatch(/\b[a-z_]+:[a-z_.]+\b|\b(fields|actions|messages|enum)\.[a-z_]+/);
      await page.screenshot({ path: join(SHOTS, `${name}-${lng}.png`) });
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the frame", () => {
  it("opens each page as a tab titled from its route, kept across reloads, closable", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    const menu = locale("en", "menu");
    await page.goto(`${c.url}/goods/list`);
    await tableRows(page).first().waitFor();
    await page.goto(`${c.url}/shop/list`);
    await tableRows(page).first().waitFor();
    const tabs = () => page.locator(".tab-bar .ant-tabs-tab").allTextContents();
    await expect.poll(tabs).toEqual([locale("en", "common").home.title, menu.routes.goods_list, menu.routes.shop_list]);
    await page.reload();
    await expect.poll(tabs).toEqual([locale("en", "common").home.title, menu.routes.goods_list, menu.routes.shop_list]);
    await page.locator(".tab-bar .ant-tabs-tab-active .ant-tabs-tab-remove").click();
    await page.waitForURL(/\/goods\/list/);
    await expect.poll(tabs).toEqual([locale("en", "common").home.title, menu.routes.goods_list]);
    await context.close();
  });

  it("on a phone, gives the whole width to the page and the menu as a drawer that closes on navigation", async () => {
    const { page, context, errors } = await openPage(c);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(c, page, "admin");
    const menu = locale("en", "menu");
    expect(await page.locator(".shell-sider").count()).toBe(0);
    const content = await page.locator(".shell-content").boundingBox();
    expect(content!.x).toBe(0);
    expect(content!.width).toBe(390);
    await page.getByRole("button", { name: locale("en", "common").actions.toggleMenu }).click();
    const drawer = page.locator(".shell-drawer");
    await drawer.getByText(menu.groups.goods, { exact: true }).click();
    await page.screenshot({ path: join(SHOTS, "phone-menu-en.png"), animations: "disabled" });
    await drawer.getByRole("link", { name: menu.routes.goods_list }).click();
    await page.waitForURL((url) => url.pathname === "/goods/list");
    // On a phone the rows are cards.
    await page.locator(".row-card").first().waitFor();
    expect(await page.locator(".ant-table").count()).toBe(0);
    await drawer.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("mounts the console once after sign-in: the shell is not built again as its parts arrive", async () => {
    const { page, context } = await openPage(c);
    // Every shell header the page ever builds, counted from the login page on.
    await context.addInitScript(() => {
      const seen = new WeakSet<Element>();
      const w = window as unknown as { headersBuilt: number };
      w.headersBuilt = 0;
      new MutationObserver(() => {
        const header = document.querySelector(".shell-header");
        if (header && !seen.has(header)) {
          seen.add(header);
          w.headersBuilt++;
        }
      }).observe(document, { childList: true, subtree: true });
    });
    // The change stream stays open as long as the console does: answered empty here, so that the network
    // falls quiet once home has loaded (its retries come a second apart and more).
    await context.route("**/merchant/live-events", (route) => route.fulfill({ status: 204 }));
    await signIn(c, page, "admin");
    // Home whole: its figures shown and its map drawn, everything it loads in.
    await page.waitForFunction(() => performance.getEntriesByName("device-map-rendered").length > 0, null, {
      timeout: 30_000,
    });
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { headersBuilt: number }).headersBuilt)).toBe(1);
    await context.close();
  });

  it("shows the not-found page for an unknown path", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    await page.goto(`${c.url}/no/such/page`);
    await expect
      .poll(() => page.locator(".ant-result-title").textContent())
      .toBe(locale("en", "common").notFound.title);
    await context.close();
  });

  it("logs out once when the server's version changes, recording the new one", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    const before = await page.evaluate(() => localStorage.getItem("version"));
    await c.db.query(
      `insert into "version" (version_number, upgrade_time, description, content) values ('9.9.9', now(), 'e2e', 'e2e')`,
    );
    try {
      await page.goto(`${c.url}/goods/list`);
      await page.waitForURL(/\/login/);
      expect(await page.evaluate(() => localStorage.getItem("version"))).toBe("9.9.9");
      expect(before).not.toBe("9.9.9");
      // Signed in again, the same version no longer logs out.
      await signIn(c, page, "admin");
      await page.goto(`${c.url}/shop/list`);
      await tableRows(page).first().waitFor();
      expect(new URL(page.url()).pathname).toBe("/shop/list");
    } finally {
      await c.db.query(`delete from "version" where version_number = '9.9.9'`);
    }
    await context.close();
  });

  it("shows the expired-system page when the server says the licence has expired (402)", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    await page.route("**/merchant/goods-list*", (route) =>
      route.fulfill({
        status: 402,
        contentType: "application/json",
        body: JSON.stringify({ code: 402, message: "expired", data: null }),
      }),
    );
    await page.goto(`${c.url}/goods/list`);
    // What is shown: the list's own "could not be loaded", when it came first, stays in its tab's page,
    // kept hidden behind the expired page.
    await expect
      .poll(() => page.locator(".ant-result-title:visible").textContent())
      .toBe(locale("en", "common").messages.systemExpired);
    await context.close();
  });

  it("offers a retry when a screen's code cannot be loaded", async () => {
    const { page, context } = await openPage(c);
    await signIn(c, page, "admin");
    let block = true;
    await page.route(/\/assets\/list-screen-.*\.js$/, (route) => (block ? route.abort() : route.continue()));
    await page.goto(`${c.url}/goods/list`);
    const retry = page.locator(".chunk-error button");
    await expect
      .poll(() => page.locator(".chunk-error p").textContent())
      .toBe(locale("en", "common").messages.chunkFailed);
    block = false;
    await retry.click();
    await tableRows(page).first().waitFor();
    await context.close();
  });
});

/**
 * The lists the demo seed leaves empty, with no detail or edit screen to open from them: none, the
 * seed fills every list. A list that comes up empty fails the test until it is named here.
 */
const EMPTY_IN_DEMO: string[] = [];
/**
 * The create forms, detail and edit screens the test opens (79 since /setting/upgrade became the
 * hand-written upgrade screen: the versions' generated forms stay under /version/list; 76 since device
 * statistics became a statistics view, no longer a device list with its create, detail and edit; 79 with
 * the outlet managers' create, detail and edit).
 */
const OPENED_SCREENS = 79;

/** What each hand-written screen on a menu route shows once it has opened. */
const EXTENSION_SHOWS: Record<string, string> = {
  "restock-grid": ".restock-screen",
  "payment-certificates": "[data-testid=payment-settings]",
  "system-upgrade": "[data-testid=system-upgrade]",
  "device-statistics": ".statistics-view",
  "stock-statistics": ".statistics-view",
};

describe("every route", () => {
  const listed = resources.filter((r) => r.list && !r.meta.hide);

  it("opens every menu route for the admin with real data and no console errors", async () => {
    const { page, context, errors } = await openPage(c);
    await signIn(c, page, "admin");
    const failures: string[] = [];
    for (const resource of listed) {
      // In-app navigation, as a click on the menu does (a full reload per route would only be slower).
      await go(page, resource.list!);
      // This route's page, not the one being left: a hand-written screen (an extension) shows its own
      // content, a generated one its form or table.
      const extension = resource.meta.extension as string | undefined;
      const shown = extension
        ? EXTENSION_SHOWS[extension]
        : resource.meta.screen === "settings"
          ? ".schema-form"
          : resource.meta.screen === "import"
            ? ".import-wizard"
            : ".ant-table";
      if (!shown) {
        failures.push(`${resource.list}: no EXTENSION_SHOWS entry for ${extension}`);
        continue;
      }
      const opened = await onPage(page, resource.list!, shown)
        .first()
        .waitFor()
        .then(
          () => true,
          () => false,
        );
      if (!opened) failures.push(`${resource.list}: did not open`);
      else await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
      if (await page.locator(".ant-result-warning, .chunk-error").count())
        failures.push(`${resource.list}: error shown`);
      if (errors.length) failures.push(`${resource.list}: ${errors.splice(0).join(" | ")}`);
    }
    expect(failures).toEqual([]);
    // Every list route answered from the server: the demo data fills the main ones.
    for (const path of ["/goods/list", "/machine/list", "/order/applicationList", "/shop/list", "/manage/list"]) {
      await page.goto(`${c.url}${path}`);
      await tableRows(page).first().waitFor();
    }
    await context.close();
  }, 240_000);

  it("opens every entity's create form, and the first record's details and edit form, without errors", async () => {
    const { page, context, errors } = await openPage(c);
    await signIn(c, page, "admin");
    const failures: string[] = [];
    const opened = (path: string, selector: string) =>
      onPage(page, path, selector)
        .first()
        .waitFor({ timeout: 8000 })
        .then(
          () => true,
          () => false,
        );
    const seen = new Set<string>();
    const empty: string[] = [];
    for (const resource of resources) {
      // Generated forms and lists only: a hand-written screen (an import wizard, the restock grid) has its own
      // tests. (An extension not written yet shows the generated screen; the settings screens are not here.)
      if (resource.meta.extension) continue;
      if (resource.create && !seen.has(resource.create)) {
        seen.add(resource.create);
        await go(page, resource.create);
        if (!(await opened(resource.create, ".schema-form"))) failures.push(`${resource.create}: no form`);
      }
      if (resource.list && resource.meta.screen === "list" && (resource.show || resource.edit)) {
        // In-app, as a click on the menu: the rows read are this list's page's (onPage), never the last one's.
        await go(page, resource.list);
        if (!(await opened(resource.list, ".ant-table"))) {
          failures.push(`${resource.list}: did not open`);
          continue;
        }
        // Loaded: its first row, or the table's "no data", with nothing loading any more.
        const rows = onPage(page, resource.list, ".ant-table-tbody tr.ant-table-row");
        await onPage(page, resource.list, ".ant-table-tbody tr.ant-table-row, .ant-table-placeholder .ant-empty")
          .first()
          .waitFor();
        await onPage(page, resource.list, ".ant-spin-spinning").first().waitFor({ state: "detached" });
        if (!(await rows.count())) {
          empty.push(resource.list);
          continue;
        }
        const id = await rows.first().getAttribute("data-row-key");
        if (!id) {
          failures.push(`${resource.list}: its first row has no id`);
          continue;
        }
        for (const path of [resource.show, resource.edit]) {
          if (!path || seen.has(path)) continue;
          seen.add(path);
          const address = path.replace(":id", id);
          await go(page, address);
          const selector = path === resource.show ? ".detail-descriptions" : ".schema-form";
          if (!(await opened(address, selector))) failures.push(`${path} (${id}): did not open`);
        }
      }
      if (await page.locator(".ant-result-warning, .chunk-error").count())
        failures.push(`${resource.identifier}: error shown`);
      if (errors.length) failures.push(`${resource.identifier}: ${errors.splice(0).join(" | ")}`);
    }
    expect(failures).toEqual([]);
    expect(empty).toEqual(EMPTY_IN_DEMO);
    // Create forms, detail and edit screens opened.
    expect(seen.size).toBe(OPENED_SCREENS);
    await context.close();
  }, 420_000);

  it("gives an agent only its permitted menu and its own subtree's rows", async () => {
    const { page, context, errors } = await openPage(c);
    await signIn(c, page, "agent_b");
    const sider = await page.locator(".shell-sider").textContent();
    expect(sider).not.toContain(locale("en", "menu").groups.version);
    await page.goto(`${c.url}/goods/list`);
    await tableRows(page).first().waitFor();
    const ids = (await tableRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute("data-row-key")))).map(
      Number,
    );
    const { rows } = await c.db.query<{ id: number }>(
      `select id from "goods" where agent_path like (select agent_path from "agent" where account = 'agent_b') || '%'`,
    );
    const own = new Set(rows.map((r) => Number(r.id)));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(own.has(id)).toBe(true);
    // A route outside the agent's permissions, typed in: refused plainly, nothing asked of the server.
    await page.goto(`${c.url}/version/list`);
    await expect.poll(() => page.locator(".ant-result-title").textContent()).toBe("403");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("changes the password: the form checks the confirmation, then every session ends", async () => {
    const { page, context, errors } = await openPage(c);
    await signIn(c, page, "agent_a1");
    await page.locator(".user-button").click();
    await page.getByText(locale("en", "common").actions.changePassword, { exact: true }).click();
    const modal = page.locator(".ant-modal");
    await modal.locator("#root_old_password").fill("demo123");
    await modal.locator("#root_new_password").fill("better-secret-1");
    await modal.locator("#root_confirm_password").fill("better-secret-2");
    await modal.locator(".form-actions .ant-btn-primary").click();
    await expect
      .poll(() => modal.locator(".ant-form-item-explain-error").allTextContents())
      .toContain(locale("en", "operations")["modify-password"].rules.password_confirmed);
    await modal.locator("#root_confirm_password").fill("better-secret-1");
    await modal.locator(".form-actions .ant-btn-primary").click();
    await page.waitForURL(/\/login/);
    await page.locator("#account").fill("agent_a1");
    await page.locator("#password").fill("better-secret-1");
    await page.locator("button[type=submit]").click();
    await page.waitForURL(`${c.url}/`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

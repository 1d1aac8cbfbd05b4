// Two people on one record, as they meet in the console: both open an outlet's edit form, the admin saves
// a new address and name, agent_a a new phone and name; agent_a's save opens the comparison (the name
// changed by both, the phone by agent_a, the address by the admin, who saved it and when), "Back to the
// form" keeps what was typed, and "Save again" lands the admin's address beside agent_a's phone and name.
// A withdrawal two admins approve at once: the second is told who approved it and when, and sees it
// approved. Screenshots of the comparison in the five languages at 1440 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  expectFits,
  LANGUAGES,
  locale,
  openPage,
  rowAction,
  rowActionNames,
  shot,
  signIn,
  startConsole,
  WIDTHS,
  type Console,
  type Tab,
} from "./harness.ts";

let c: Console;
const ZONE = "Asia/Bangkok"; // the demo business's clock
const en = locale("en", "common").conflict;
const shopText = locale("en", "shop");

beforeAll(async () => {
  c = await startConsole();
  // A second platform admin (no superior), signing in with the admin's password.
  const { rows } = await c.db.query<{ id: number }>(
    `insert into agent (nickname, account, password, phone, role_id, parent_role_id, pid, withdrawable, frozen,
                        total_revenue, description)
     select 'Second Desk', 'admin2', password, '+855 23 888 002', role_id, parent_role_id, null, 0, 0, 0, description
       from agent where account = 'admin' returning id`,
  );
  await c.db.query(`update agent set agent_id = id, agent_path = '/' || id || '/' where id = $1`, [rows[0].id]);
});
afterAll(async () => {
  await c?.close();
});

/** Signs in with an account's password (admin2 has the admin's). */
async function signInAs(tab: Tab, account: string, password: string): Promise<void> {
  const { page } = tab;
  await page.goto(`${c.url}/login`);
  await page.locator("#account").fill(account);
  await page.locator("#password").fill(password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL(`${c.url}/`);
  await page.locator(".shell-header").waitFor();
}

const nickname = async (account: string) =>
  (await c.db.query<{ nickname: string }>(`select nickname from agent where account = $1`, [account])).rows[0].nickname;

/** An outlet of agent_a's, with its values as the test sets them. */
async function outlet(n: number): Promise<{ id: number; name: string }> {
  const { rows } = await c.db.query<{ id: number }>(
    `select s.id from shop s join agent a on a.id = s.agent_id
      where a.account = 'agent_a' and s.deleted_at is null order by s.id offset $1 limit 1`,
    [n],
  );
  const id = Number(rows[0].id);
  const name = `Race Outlet ${n}`;
  await c.db.query(`update shop set name = $2, phone = '+855 12 000 001', address = '1 Norodom Blvd' where id = $1`, [
    id,
    name,
  ]);
  return { id, name };
}

/** The time of the record's last history entry, as "14:02" at the business's clock. */
async function lastChangeTime(entity: string, id: number): Promise<string> {
  const { rows } = await c.db.query<{ at: Date }>(
    `select at from sys_audit where entity = $1 and record_id = $2 order by id desc limit 1`,
    [entity, id],
  );
  return new Intl.DateTimeFormat("en-US", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: ZONE,
  }).format(new Date(rows[0].at));
}

/** The outlets' list, its page and sorting in the address. */
const LIST = /\/shop\/list(\?.*)?$/;
const form = (page: Page) => page.locator(".schema-form");
const field = (page: Page, name: string) => form(page).locator(`#root_${name}`);
const dialog = (page: Page) => page.locator(".conflict-dialog");
const section = (page: Page, name: string) => dialog(page).locator(`.conflict-field[data-field="${name}"]`);
const side = (page: Page, name: string, which: string) =>
  section(page, name).locator(`.conflict-side[data-side="${which}"]`);

async function openEdit(page: Page, id: number): Promise<void> {
  await page.goto(`${c.url}/shop/list/edit/${id}`);
  await field(page, "name").waitFor();
}

/** The 409s a race answers (the harness and the browser log each one): every other error is a failure. */
const unexpected = (errors: string[]) =>
  errors.filter(
    (e) =>
      !/^HTTP 409 \/merchant\/(shop-update|data-withdraw-action)$/.test(e) &&
      !/^Failed to load resource: the server responded with a status of 409/.test(e),
  );

describe("two people saving one outlet", () => {
  it("opens the comparison, keeps what was typed, and saves both people's changes", async () => {
    const shop = await outlet(0);
    const admin = await openPage(c);
    const agent = await openPage(c);
    try {
      await signIn(c, admin.page, "admin");
      await signIn(c, agent.page, "agent_a");
      await openEdit(admin.page, shop.id);
      await openEdit(agent.page, shop.id);

      // The admin saves first: a new address and name.
      await field(admin.page, "address").fill("2 Norodom Blvd");
      await field(admin.page, "name").fill(`${shop.name} East`);
      await form(admin.page).locator("button[type=submit]").click();
      await admin.page.waitForURL(LIST);

      // agent_a, on the form loaded before: a new phone and name.
      const { page } = agent;
      await field(page, "phone").fill("+855 12 000 002");
      await field(page, "name").fill(`${shop.name} West`);
      await form(page).locator("button[type=submit]").click();
      await dialog(page).locator(".conflict-field").first().waitFor();

      const by = new RegExp(
        `^by ${await nickname("admin")} at ${await lastChangeTime("shop", shop.id)}, (just now|\\d+ (second|minute)s? ago)$`,
      );
      await expect
        .poll(() =>
          dialog(page)
            .locator(".conflict-field")
            .evaluateAll((s) => s.map((e) => e.getAttribute("data-field"))),
        )
        .toEqual(["name", "phone", "address"]);
      expect(await section(page, "name").locator(".conflict-field-head").innerText()).toMatch(
        new RegExp(`^${shopText.fields.name.label}\\s*${en.changed.both}$`),
      );
      expect(await side(page, "name", "base").innerText()).toBe(`${en.started}\n${shop.name}`);
      expect(await side(page, "name", "theirs").locator(".ant-typography").innerText()).toBe(`${shop.name} East`);
      expect(await side(page, "name", "theirs").locator(".conflict-by").innerText()).toMatch(by);
      expect(await side(page, "name", "mine").innerText()).toBe(`${en.mine}\n${shop.name} West`);
      expect(await side(page, "phone", "theirs").locator(".ant-typography").innerText()).toBe("+855 12 000 001");
      expect(await side(page, "phone", "mine").locator(".ant-typography").innerText()).toBe("+855 12 000 002");
      expect(await section(page, "phone").locator(".conflict-field-head").innerText()).toContain(en.changed.mine);
      expect(await side(page, "address", "base").locator(".ant-typography").innerText()).toBe("1 Norodom Blvd");
      expect(await side(page, "address", "theirs").locator(".ant-typography").innerText()).toBe("2 Norodom Blvd");
      expect(await side(page, "address", "theirs").locator(".conflict-by").innerText()).toMatch(by);
      expect(await section(page, "address").locator(".conflict-field-head").innerText()).toContain(en.changed.theirs);
      // Only they changed the address: theirs is chosen; the rest keeps agent_a's.
      const checked = (name: string) => section(page, name).locator(".ant-radio-button-wrapper-checked").innerText();
      expect(await checked("name")).toBe(en.keepMine);
      expect(await checked("phone")).toBe(en.keepMine);
      expect(await checked("address")).toBe(en.takeTheirs);

      // Back to the form: nothing typed is lost.
      await dialog(page).getByRole("button", { name: en.back }).click();
      await dialog(page).waitFor({ state: "hidden" });
      expect(await field(page, "name").inputValue()).toBe(`${shop.name} West`);
      expect(await field(page, "phone").inputValue()).toBe("+855 12 000 002");
      expect(await field(page, "address").inputValue()).toBe("1 Norodom Blvd");

      // Saved again from the form: the comparison again, and its merge saved at the current version.
      await form(page).locator("button[type=submit]").click();
      await dialog(page).locator(".conflict-field").first().waitFor();
      await dialog(page).getByRole("button", { name: en.saveAgain }).click();
      await page.waitForURL(LIST);
      const { rows } = await c.db.query(`select name, phone, address from shop where id = $1`, [shop.id]);
      expect(rows[0]).toEqual({ name: `${shop.name} West`, phone: "+855 12 000 002", address: "2 Norodom Blvd" });
      expect(unexpected(agent.errors)).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
      await agent.context.close();
    }
  });
});

describe("two admins approving one withdrawal", () => {
  it("tells the second who approved it and when, and shows it approved", async () => {
    const { rows } = await c.db.query<{ id: number }>(
      `select id from withdrawal where status = 'pending' order by request_time limit 1`,
    );
    const id = Number(rows[0].id);
    const first = await openPage(c);
    const second = await openPage(c);
    const withdrawal = locale("en", "withdrawal");
    try {
      // The race is one the change stream has not told yet (it would have marked the row approved): the
      // second's stream answers nothing.
      await second.context.route("**/merchant/live-events", (route) => route.fulfill({ status: 204 }));
      await signInAs(first, "admin2", "admin123");
      await signIn(c, second.page, "admin");
      const row = (page: Page) => page.locator(`.ant-table-tbody tr.ant-table-row[data-row-key="${id}"]`);
      for (const { page } of [first, second]) {
        await page.goto(`${c.url}/data/withdrawalReview`);
        await row(page).waitFor();
      }
      const approve = async (page: Page) => {
        await rowAction(row(page), withdrawal.actions.approve);
        await page.locator(".ant-modal-confirm .ant-btn-primary").click();
      };
      await approve(first.page);
      await first.page.locator(".ant-message-success").waitFor();

      // The second admin's queue still offers it: approved meanwhile, they are told by whom and when.
      const { page } = second;
      await approve(page);
      const notice = page.locator(".raced-notice");
      await notice.waitFor();
      expect(await notice.locator(".ant-modal-confirm-title").innerText()).toBe(
        `${withdrawal.actions.approve}: someone else got there first`,
      );
      expect(await notice.locator(".ant-modal-confirm-content").innerText()).toMatch(
        new RegExp(
          `^${withdrawal.enum.status.approved} by Second Desk at ${await lastChangeTime("withdrawal", id)}, ` +
            `(just now|\\d+ (second|minute)s? ago)\\. ${en.racedShown}$`,
        ),
      );
      await shot(page, "conflict-raced-en-1440");
      await notice.getByRole("button").click();
      // The queue shows it as it is: approved, no longer offered approval (or moved off the page).
      const offered = async () => ((await row(page).count()) ? rowActionNames(row(page)) : []);
      await expect.poll(offered).not.toContain(withdrawal.actions.approve);
      expect(await page.locator(".ant-message-error").count()).toBe(0);
      expect(unexpected(second.errors)).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});

/** An admin's save of the outlet through the API, as another person's would be. */
async function adminSaves(id: number, changes: Record<string, unknown>): Promise<void> {
  const login = await c.app.inject({
    method: "POST",
    url: "/merchant/login",
    payload: { account: "admin", password: "admin123" },
  });
  const headers = { authorization: `Bearer ${login.json().data.token as string}`, locale: "en", source: "pc" };
  const detail = await c.app.inject({ method: "GET", url: `/merchant/shop-detail?id=${id}`, headers });
  const saved = await c.app.inject({
    method: "POST",
    url: "/merchant/shop-update",
    headers,
    payload: { ...detail.json().data, ...changes },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe("the comparison in every language", () => {
  it.each(LANGUAGES)("%s: at 1440 and 390 px, fitting the window (screenshots kept)", async (lng) => {
    const words = locale(lng, "common").conflict;
    const tab = await openPage(c, { lang: lng });
    try {
      await signIn(c, tab.page, "agent_a");
      const { page } = tab;
      // Leaving a form with input unsaved, the browser asks (src/app/unsaved.tsx): leave.
      page.on("dialog", (question) => void question.accept());
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport);
        const shop = await outlet(1);
        await openEdit(page, shop.id);
        await adminSaves(shop.id, { name: `${shop.name} East`, address: "2 Norodom Blvd, Phnom Penh 120101" });
        await field(page, "phone").fill("+855 12 000 002");
        await field(page, "name").fill(`${shop.name} West`);
        await form(page).locator("button[type=submit]").click();
        await dialog(page).locator(".conflict-field").first().waitFor();
        await expect.poll(() => dialog(page).locator(".ant-modal-title").innerText()).toBe(words.title);
        await expect
          .poll(() => section(page, "address").locator(".conflict-field-head .ant-tag").innerText())
          .toBe(words.changed.theirs);
        // Nothing wider than the window, the dialog's buttons inside it.
        await expectFits(page, viewport.width);
        const box = await dialog(page).locator(".ant-modal-content").boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        // As the window shows it, then scrolled to its buttons (taller than a phone's window, it scrolls),
        // which are inside the window.
        await shot(page, `conflict-${lng}-${viewport.width}`);
        const again = dialog(page).getByRole("button", { name: words.saveAgain });
        await again.scrollIntoViewIfNeeded();
        const button = await again.boundingBox();
        expect(button!.x + button!.width).toBeLessThanOrEqual(viewport.width);
        expect(button!.y + button!.height).toBeLessThanOrEqual(viewport.height);
        await shot(page, `conflict-${lng}-${viewport.width}-end`);
        await dialog(page).getByRole("button", { name: words.back }).click();
        await dialog(page).waitFor({ state: "hidden" });
      }
      expect(unexpected(tab.errors)).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

// Saved views, as a user keeps them: agent_a filters its outlets, hides a column and moves another, saves
// all that as a named view that opens with the list, and finds it in place on coming back from another
// screen and on opening the list afresh; "All records" gives the list as it comes again. A view agent_a
// shares is opened by agent_a1 below it, its filter applied, and is read-only there. A column's width set
// by dragging its header's edge, or with the arrow keys on it, is the chooser's and saved with a view. Then
// the view picker open, at 1440 px and 390 px in the five languages (screenshots under .scratch/, to be looked at).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Console,
  expectFits,
  filterField,
  go,
  inLanguage,
  LANGUAGES,
  locale,
  onPage,
  openPage,
  PASSWORDS,
  ROOT,
  signIn,
  startConsole,
} from "./harness.ts";

const PATH = "/shop/list";
const common = locale("en", "common");
const shop = locale("en", "shop");
const SCRATCH = join(ROOT, ".scratch");

let c: Console;
beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

const headers = (page: Page) => onPage(page, PATH, ".ant-table-thead th").allInnerTexts();
const picked = (page: Page) => onPage(page, PATH, ".view-select .ant-select-selection-item");

/** The account's session token, signed in through the API. */
async function tokenOf(account: string): Promise<string> {
  const login = await c.app.inject({
    method: "POST",
    url: "/merchant/login",
    payload: { account, password: PASSWORDS[account] },
  });
  return (login.json() as { data: { token: string } }).data.token;
}

/** A view of the outlet list kept for the account, through the API. */
async function keepView(account: string, view: Record<string, unknown>) {
  const token = await tokenOf(account);
  const made = await c.app.inject({
    method: "POST",
    url: "/merchant/saved-view-add",
    headers: { authorization: `Bearer ${token}` },
    payload: { list: "shop_list", ...view },
  });
  expect(made.statusCode, made.body).toBe(200);
}

/** The list's rows drawn after its answer. */
async function settled(page: Page) {
  await onPage(page, PATH, ".ant-table").first().waitFor();
  await onPage(page, PATH, ".ant-spin-spinning").first().waitFor({ state: "detached" });
}

describe("saved views", () => {
  it("keep an outlet list's filter and columns under a name, opened with the list, until all records again", async () => {
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "agent_a");
      await go(page, PATH);
      await settled(page);
      expect(await picked(page).innerText()).toBe(common.views.none);

      // A filter from what the list shows: the first outlet's name.
      const first = (await onPage(page, PATH, ".ant-table-tbody tr.ant-table-row td").nth(1).innerText()).trim();
      const text = first.slice(0, Math.min(first.length, 6));
      await filterField(page, PATH, "name").fill(text);
      await onPage(page, PATH, ".filter-bar button[type=submit]").click();
      await page.waitForURL((url) => [...url.searchParams.values()].includes(text));
      await settled(page);

      // The phone column hidden, the address moved up one.
      await onPage(page, PATH, ".list-toolbar").getByRole("button", { name: common.list.columns }).click();
      const chooser = page.locator(".column-chooser");
      // The column the address stands after, which it goes before.
      const rows = await chooser.locator(".column-chooser-row").allInnerTexts();
      const before = rows[rows.findIndex((row) => row.trim() === shop.fields.address.label) - 1].trim();
      await chooser.getByRole("checkbox", { name: shop.fields.phone.label }).uncheck();
      await chooser.getByRole("button", { name: `Move ${shop.fields.address.label} up` }).click();
      await page.keyboard.press("Escape");
      const laidOut = await headers(page);
      expect(laidOut).not.toContain(shop.fields.phone.label);
      expect(laidOut.indexOf(shop.fields.address.label)).toBeLessThan(laidOut.indexOf(before));
      expect(laidOut.indexOf(shop.fields.address.label)).toBeGreaterThan(-1);

      // Saved under a name, opened with the list: it is the view in use at once.
      await onPage(page, PATH, ".view-picker").getByRole("button", { name: common.views.save }).click();
      const dialog = page.getByRole("dialog", { name: common.views.saveTitle });
      await dialog.getByLabel(common.views.name).fill("Near me");
      await dialog.getByRole("checkbox", { name: common.views.makeDefault }).check();
      await dialog.getByRole("button", { name: common.views.save }).click();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => picked(page).innerText()).toBe("Near me");

      // Away and back: the list as the view left it.
      await go(page, "/");
      await page.locator(".page-fade[data-current][data-path='/']").waitFor();
      await go(page, PATH);
      await settled(page);
      expect(await filterField(page, PATH, "name").inputValue()).toBe(text);
      expect(await headers(page)).toEqual(laidOut);
      expect(await picked(page).innerText()).toBe("Near me");

      // Opened afresh with no filter in its address: the default view, its filter in the address again.
      await page.goto(`${c.url}${PATH}`);
      await settled(page);
      await expect.poll(() => picked(page).innerText()).toBe("Near me");
      await page.waitForURL((url) => [...url.searchParams.values()].includes(text));
      expect(await filterField(page, PATH, "name").inputValue()).toBe(text);
      await expect.poll(() => headers(page)).toEqual(laidOut);

      // All records: no filter, the list's own columns.
      await onPage(page, PATH, ".view-select").click();
      await page.locator(".ant-select-dropdown:visible").getByTitle(common.views.none).click();
      await expect.poll(() => picked(page).innerText()).toBe(common.views.none);
      expect(await filterField(page, PATH, "name").inputValue()).toBe("");
      await expect.poll(() => headers(page)).toContain(shop.fields.phone.label);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("opens a view naming a field the list no longer has without it, and says so", async () => {
    await keepView("agent_a", {
      name: "Before the fax went",
      filters: { fax: [{ operator: "eq", value: "023" }] },
      columns: [
        { key: "fax", shown: true, width: 120 },
        { key: "name", shown: true },
      ],
    });
    const { page, context, errors } = await openPage(c);
    try {
      await signIn(c, page, "agent_a");
      await go(page, PATH);
      await settled(page);
      await onPage(page, PATH, ".view-select").click();
      await page.locator(".ant-select-dropdown:visible").getByTitle("Before the fax went").click();
      await expect
        .poll(() => onPage(page, PATH, ".view-missing").innerText())
        .toContain(common.views.missing.replace("{{fields}}", "fax"));
      await settled(page);
      expect(await headers(page)).toContain(shop.fields.name.label);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shared by agent_a are opened by agent_a1 below it, their filter applied, read-only", async () => {
    // A name of one of agent_a1's outlets, which agent_a sees too (its sub-agent's).
    const outlets = await c.app.inject({
      method: "GET",
      url: "/merchant/shop-list?page=1&limit=1",
      headers: { authorization: `Bearer ${await tokenOf("agent_a1")}` },
    });
    const name = (outlets.json() as { data: { list: { name: string }[] } }).data.list[0].name;
    const filtered = `${PATH}?${new URLSearchParams({
      "filters[0][field]": "name",
      "filters[0][operator]": "contains",
      "filters[0][value]": name,
    })}`;
    const view = "Team outlets";

    // agent_a: the list filtered by that name (in the address, so no default view of its own takes over),
    // saved under a name, shared with its sub-agents.
    const sharer = await openPage(c);
    try {
      const { page } = sharer;
      await signIn(c, page, "agent_a");
      await go(page, filtered);
      await settled(page);
      await expect.poll(() => filterField(page, PATH, "name").inputValue(), { timeout: 30_000 }).toBe(name);
      await onPage(page, PATH, ".view-picker").getByRole("button", { name: common.views.save }).click();
      const dialog = page.getByRole("dialog", { name: common.views.saveTitle });
      await dialog.getByLabel(common.views.name).fill(view);
      await dialog.getByRole("checkbox", { name: common.views.share }).check();
      await dialog.getByRole("button", { name: common.views.save }).click();
      await dialog.waitFor({ state: "hidden", timeout: 30_000 });
      await expect.poll(() => picked(page).innerText(), { timeout: 30_000 }).toContain(view);
      // Its own: the actions on it are offered (to compare with agent_a1's below).
      await onPage(page, PATH, ".view-picker").getByRole("button", { name: common.views.more }).waitFor();
      expect(sharer.errors).toEqual([]);
    } finally {
      await sharer.context.close();
    }

    // agent_a1: the list as it comes, then the shared view picked from the picker, marked "Shared".
    const { page, context, errors } = await openPage(c);
    page.setDefaultTimeout(30_000);
    try {
      await signIn(c, page, "agent_a1");
      await go(page, PATH);
      await settled(page);
      await onPage(page, PATH, ".view-select").click();
      const option = page.locator(".ant-select-dropdown:visible").getByTitle(view);
      await expect.poll(() => option.innerText(), { timeout: 30_000 }).toContain(common.views.shared);
      await option.click();
      await expect.poll(() => picked(page).innerText(), { timeout: 30_000 }).toBe(view);

      // Its filter applied: in the filter bar, in the address, and on the rows shown.
      await expect.poll(() => filterField(page, PATH, "name").inputValue(), { timeout: 30_000 }).toBe(name);
      await page.waitForURL((url) => [...url.searchParams.values()].includes(name), { timeout: 30_000 });
      await settled(page);
      const rows = onPage(page, PATH, ".ant-table-tbody tr.ant-table-row");
      await expect
        .poll(
          async () => {
            const texts = await rows.allInnerTexts();
            return texts.length > 0 && texts.every((text) => text.includes(name));
          },
          { timeout: 30_000 },
        )
        .toBe(true);

      // Read-only: no actions on it (save changes to it, default, share, delete); "Save view" alone, for
      // a copy of one's own.
      const picker = onPage(page, PATH, ".view-picker");
      await picker.getByRole("button", { name: common.views.save }).waitFor();
      expect(await picker.getByRole("button", { name: common.views.more }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("set a column's width by dragging its header's edge, or with the arrow keys, as the chooser and a view keep it", async () => {
    const { page, context, errors } = await openPage(c);
    page.setDefaultTimeout(30_000);
    try {
      await signIn(c, page, "agent_b");
      await go(page, PATH);
      await settled(page);
      const label = shop.fields.name.label as string;
      const header = onPage(page, PATH, ".ant-table-thead th").filter({ hasText: label }).first();
      const edge = header.getByRole("separator", { name: common.list.width.replace("{{column}}", label) });
      const before = (await header.boundingBox())!.width;
      const address = page.url();

      // Dragged 120 px to the right, in steps as a hand moves.
      const box = (await edge.boundingBox())!;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width / 2, y);
      await page.mouse.down();
      for (let step = 1; step <= 6; step++) await page.mouse.move(box.x + box.width / 2 + step * 20, y);
      await page.mouse.up();
      // The width chosen follows the pointer; the header is drawn wider.
      await expect
        .poll(async () => Number(await edge.getAttribute("aria-valuenow")), { timeout: 30_000 })
        .toBeGreaterThan(0);
      const dragged = Number(await edge.getAttribute("aria-valuenow"));
      expect(Math.abs(dragged - (before + 120))).toBeLessThanOrEqual(4);
      await expect.poll(async () => (await header.boundingBox())!.width).toBeGreaterThan(before + 20);
      // The drag did not sort by the column (a click on its header would).
      expect(page.url()).toBe(address);

      // Then 10 px more with the arrow key on the focused edge.
      await edge.focus();
      await page.keyboard.press("ArrowRight");
      await expect.poll(async () => Number(await edge.getAttribute("aria-valuenow"))).not.toBe(dragged);
      const width = Number(await edge.getAttribute("aria-valuenow"));
      expect(width).toBe(dragged + 10);

      // The chooser's width of the column is that width.
      await onPage(page, PATH, ".list-toolbar").getByRole("button", { name: common.list.columns }).click();
      const chooser = page.locator(".column-chooser");
      await expect
        .poll(() => chooser.locator(".column-chooser-row[data-column=name]").getByRole("spinbutton").inputValue())
        .toBe(String(width));
      await page.keyboard.press("Escape");

      // Saved with a view.
      await onPage(page, PATH, ".view-picker").getByRole("button", { name: common.views.save }).click();
      const dialog = page.getByRole("dialog", { name: common.views.saveTitle });
      await dialog.getByLabel(common.views.name).fill("Wide names");
      await dialog.getByRole("button", { name: common.views.save }).click();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => picked(page).innerText()).toBe("Wide names");
      const views = await c.app.inject({
        method: "GET",
        url: "/merchant/saved-view-list?list=shop_list",
        headers: { authorization: `Bearer ${await tokenOf("agent_b")}` },
      });
      const saved = (
        views.json() as { data: { list: { name: string; columns: { key: string; width?: number }[] }[] } }
      ).data.list.find((view) => view.name === "Wide names");
      expect(saved?.columns.find((column) => column.key === "name")?.width).toBe(width);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the view picker open at 1440 px and 390 px in the five languages", async () => {
    mkdirSync(SCRATCH, { recursive: true });
    // Views to pick from: agent_a's own, and one the platform shared with every agent.
    await keepView("agent_a", { name: "Open late, newest first", sort: { field: "created_at", order: "desc" } });
    await keepView("admin", { name: "Whole network", shared: true });
    for (const lng of LANGUAGES)
      await inLanguage(c, lng, "agent_a", async ({ page }, viewport) => {
        await go(page, PATH);
        await onPage(page, PATH, ".view-select").waitFor();
        await onPage(page, PATH, ".view-select").click();
        await page.locator(".ant-select-dropdown:visible").waitFor();
        await expectFits(page, viewport.width);
        await page.screenshot({
          path: join(SCRATCH, `saved-views-${lng}-${viewport.width}.png`),
          animations: "disabled",
        });
        await page.keyboard.press("Escape");
      });
  });
});

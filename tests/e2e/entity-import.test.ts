// The import of an entity that declares x-import, as agent_a works it in Chromium: goods from an XLSX
// workbook with Thai headers and one header in words of its own, mapped by hand in the wizard opened
// from the goods list's toolbar, checked, imported; the same file again finds its column mapped (the
// server remembered it) and its goods already there. Then the wizard with its mapping and problems in
// the five languages at 1440 and 390 px (screenshots in .scratch/, looked at by hand).
import ExcelJS from "exceljs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Console,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  ROOT,
  signIn,
  startConsole,
  type Tab,
} from "./harness.ts";
import type { Page } from "playwright-core";

const SCRATCH = join(ROOT, ".scratch");
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const wizard = (lng: string) => locale(lng, "entity_import").wizard;
const goodsFields = (lng: string) => locale(lng, "goods").fields;

let c: Console;
let tab: Tab;
/** A category of agent_a's, by name, and an image the demo data has. */
let category: string;
let image: string;

beforeAll(async () => {
  mkdirSync(SCRATCH, { recursive: true });
  c = await startConsole();
  tab = await openPage(c);
  await signIn(c, tab.page, "agent_a");
  category = (
    await c.db.query<{ name: string }>(
      `select g.name from goods_category g join agent a on a.id = g.agent_id where a.account = 'agent_a' order by g.id limit 1`,
    )
  ).rows[0].name;
  image = (await c.db.query<{ pic_url: string }>(`select pic_url from goods order by id limit 1`)).rows[0].pic_url;
});

afterAll(async () => {
  await tab?.context.close();
  await c?.close();
});

/** The goods columns as the Thai template heads them, the title's header in words of the file's own. */
const headers = (titleHeader: string) => {
  const th = goodsFields("th");
  return [
    titleHeader,
    th.cate_id.label,
    th.unit_price.label,
    th.cost_price.label,
    th.down_price.label,
    th.stock.label,
    th.pic_url.label,
    th.detail_url.label,
    th.carousel_url.label,
    th.description.label,
  ];
};

async function file(titleHeader: string, titles: string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("สินค้า");
  sheet.addRow(headers(titleHeader));
  for (const title of titles) sheet.addRow([title, category, "12.50", "8", "10.00", 5, image, image, image, "ขนม"]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The goods list's Import, the wizard in its dialog, and a file put into it. */
async function upload(page: Page, lng: string, data: Buffer) {
  await page.goto(`${c.url}/goods/list`);
  await page
    .locator(".list-toolbar")
    .getByRole("button", { name: wizard(lng).open })
    .click();
  await page.locator(".import-dialog .import-wizard").waitFor();
  await page
    .locator(".import-wizard input[type=file]")
    .setInputFiles({ name: "goods.xlsx", mimeType: XLSX, buffer: data });
}

async function count(like: string): Promise<number> {
  const { rows } = await c.db.query<{ n: number }>(
    `select count(*)::int as n from goods where title like $1 and deleted_at is null`,
    [like],
  );
  return rows[0].n;
}

describe("the goods import wizard", () => {
  it("maps a header by hand, imports, and finds the mapping remembered the next time", async () => {
    const { page, errors } = tab;
    const en = wizard("en");
    const data = await file("Product name", ["E2E Import Cola", "E2E Import Tea"]);
    await upload(page, "en", data);
    // The title's column is not recognised: it is missing, and offered for mapping.
    const mapping = page.locator(".import-wizard-mapping");
    await mapping.waitFor();
    expect(await mapping.locator(".ant-form-item-label").allTextContents()).toEqual(["Product name"]);
    const problems = page.locator(".import-wizard-problems .ant-table-tbody tr.ant-table-row");
    expect(await problems.first().locator("td").allTextContents()).toEqual([
      "1",
      goodsFields("en").title.label,
      locale("en", "entity_import").problems.columnMissing,
    ]);
    await mapping.locator(".import-wizard-map").click();
    await page
      .locator(".ant-select-item-option")
      .filter({ hasText: new RegExp(`^${goodsFields("en").title.label}$`) })
      .click();
    await page.getByRole("button", { name: en.checkAgain }).click();
    const confirm = page.getByRole("button", { name: en.confirm.replace("{{count}}", "2") });
    await confirm.waitFor();
    await page.screenshot({ path: join(SCRATCH, "entity-import-mapped-en-1440.png") });
    expect(await count("E2E Import %")).toBe(0);
    await confirm.click();
    await page.getByText(en.doneTitle.replace("{{count}}", "2")).waitFor();
    expect(await count("E2E Import %")).toBe(2);
    await page.getByRole("button", { name: en.toList }).click();
    await page.locator(".import-dialog").waitFor({ state: "detached" });

    // The same file again: "Product name" is the title now, and both goods are there already.
    await upload(page, "en", data);
    await page.getByText(en.readySkipped.replace("{{count}}", "2")).waitFor();
    expect(await page.locator(".import-wizard-mapping").count()).toBe(0);
    expect(await count("E2E Import %")).toBe(2);
    expect(errors).toEqual([]);
  });

  it("shows how far the check and the import of 10,000 rows have got, as the server tells it", async () => {
    const { page, errors } = tab;
    const en = wizard("en");
    const titles = Array.from({ length: 10_000 }, (_, i) => `E2E Bulk ${i}`);
    const data = await file(goodsFields("th").title.label, titles);
    await page.goto(`${c.url}/goods/list`);
    // Every text the progress line shows, recorded as the page draws it (it passes in a second or two).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        for (const line of document.querySelectorAll(".import-wizard-progress .ant-typography"))
          if (line.textContent && seen.at(-1) !== line.textContent) seen.push(line.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.locator(".list-toolbar").getByRole("button", { name: en.open }).click();
    await page
      .locator(".import-wizard input[type=file]")
      .setInputFiles({ name: "bulk.xlsx", mimeType: XLSX, buffer: data });
    const confirm = page.getByRole("button", { name: en.confirm.replace("{{count}}", "10000") });
    await confirm.waitFor({ timeout: 120_000 });
    await confirm.click();
    await page.getByText(en.doneTitle.replace("{{count}}", "10000")).waitFor({ timeout: 120_000 });
    expect(await count("E2E Bulk %")).toBe(10_000);
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    // The upload, then the check's rows in batches of about 2,000 (the first batch's always told), then the import's.
    const checking = en.checking.replace("{{name}}", "bulk.xlsx");
    const told = (template: string) =>
      seen.filter((text) => new RegExp(`^${template.replace("{{rows}}", "\\d{1,2},\\d{3}")}$`).test(text));
    expect(seen[0]).toBe(en.uploading.replace("{{name}}", "bulk.xlsx"));
    expect(told(checking).length).toBeGreaterThan(0);
    expect(told(en.importing).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  }, 240_000);

  it.each(LANGUAGES)("speaks %s at 1440 and 390 px (screenshots in .scratch/)", async (lng) => {
    await inLanguage(c, lng, "agent_a", async ({ page }, viewport) => {
      // A header of the file's own each time, so that no remembered mapping takes it.
      await upload(page, lng, await file(`Item ${lng} ${viewport.width}`, [`E2E ${lng} ${viewport.width}`]));
      await page.locator(".import-wizard-mapping").waitFor();
      await page.locator(".import-wizard-problems").waitFor();
      expect(await page.locator(".import-wizard .ant-card-head-title").first().textContent()).toBe(
        wizard(lng).title.replace("{{entity}}", locale(lng, "goods").name),
      );
      await page.screenshot({ path: join(SCRATCH, `entity-import-${lng}-${viewport.width}.png`) });
    });
  });
});

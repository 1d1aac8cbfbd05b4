// Devices in and out, as the admin works them in Chromium: the import wizard (the template downloaded,
// a file with a bad row shows its problem by row and column and imports nothing, the corrected file
// imports every row), screenshots of the wizard's problems in the five languages, and a device's QR
// code shown and downloaded from the device list, a ZIP for the selected devices.
import ExcelJS from "exceljs";
import { importFile } from "../support/import-file.ts";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Console, locale, openPage, SHOTS, signIn, startConsole, type Tab, tableRows } from "./harness.ts";

const wizard = (lng: string) => locale(lng, "entity_import").wizard;
/** The wizard's title for devices, in a language: the generic words with the entity's name. */
const title = (lng: string) => wizard(lng).title.replace("{{entity}}", locale(lng, "machine").name);
const machine = locale("en", "machine");

let c: Console;
let tab: Tab;
/** Names of records the demo data holds, for the files. */
let names: { model: string; spec: string; protocol: string; shop: string };

beforeAll(async () => {
  c = await startConsole();
  tab = await openPage(c);
  await signIn(c, tab.page, "admin");
  const first = async (table: string) =>
    (await c.db.query<{ name: string }>(`select name from ${table} order by id limit 1`)).rows[0].name;
  names = {
    model: await first("machine_model"),
    spec: await first("machine_spec"),
    protocol: await first("machine_protocol"),
    shop: (
      await c.db.query<{ name: string }>(
        `select name from shop where deleted_at is null and name not in (select name from shop where deleted_at is null group by name having count(*) > 1) order by id limit 1`,
      )
    ).rows[0].name,
  };
});

afterAll(async () => {
  await tab?.context.close();
  await c?.close();
});

const xlsx = (rows: (string | null)[][]) => importFile(rows);

const row = (code: string, hw: string | null) => [
  code,
  hw,
  "Vending machine",
  names.model,
  names.spec,
  names.protocol,
  names.shop,
  "B1",
  "2027-12-31",
  null,
];

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function count(prefix: string): Promise<number> {
  const { rows } = await c.db.query<{ n: number }>(
    `select count(*)::int as n from machine where mac_name like $1 and deleted_at is null`,
    [`${prefix}%`],
  );
  return rows[0].n;
}

describe("the device import wizard", () => {
  it("downloads the template, shows a bad row's problem, then imports the corrected file", async () => {
    const { page, errors } = tab;
    const en = wizard("en");
    await page.goto(`${c.url}/machine/import`);
    await page.locator(".import-wizard").waitFor();
    expect(await page.locator(".import-wizard .ant-card-head-title").textContent()).toBe(title("en"));
    // The import screen is named by its menu entry in the tab bar.
    expect(await page.locator(".ant-tabs-tab-active").textContent()).toBe(locale("en", "menu").routes.machine_import);
    await page.screenshot({ path: join(SHOTS, "machine-import-upload-en.png") });

    const [template] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: en.downloadTemplate }).click(),
    ]);
    expect(template.suggestedFilename()).toBe("Device import template.xlsx");

    const bad = await xlsx([row("E2E-IMP-1", "E2EHW00001"), row("E2E-IMP-2", null)]);
    await page
      .locator(".import-wizard input[type=file]")
      .setInputFiles({ name: "bad.xlsx", mimeType: XLSX, buffer: bad });
    const problems = page.locator(".import-wizard-problems .ant-table-tbody tr.ant-table-row");
    await problems.first().waitFor();
    expect(await problems.count()).toBe(1);
    expect(await problems.first().locator("td").allTextContents()).toEqual([
      "3",
      machine.fields.mac_id.label,
      `${machine.fields.mac_id.label} is required`,
    ]);
    await page.screenshot({ path: join(SHOTS, "machine-import-problems-en.png") });
    expect(await count("E2E-IMP-")).toBe(0);

    await page.getByRole("button", { name: en.fixAndRetry }).click();
    const good = await xlsx([row("E2E-IMP-1", "E2EHW00001"), row("E2E-IMP-2", "E2EHW00002")]);
    await page
      .locator(".import-wizard input[type=file]")
      .setInputFiles({ name: "good.xlsx", mimeType: XLSX, buffer: good });
    const confirm = page.getByRole("button", { name: en.confirm.replace("{{count}}", "2") });
    await confirm.waitFor();
    await page.screenshot({ path: join(SHOTS, "machine-import-ready-en.png") });
    await confirm.click();
    await page.getByText(en.doneTitle.replace("{{count}}", "2")).waitFor();
    await page.screenshot({ path: join(SHOTS, "machine-import-done-en.png") });
    expect(await count("E2E-IMP-")).toBe(2);
    // Its way back is the device list, which shows the imported devices.
    await page.getByRole("button", { name: en.toList }).click();
    await page.waitForURL(/\/machine\/list/);
    await page.getByText("E2E-IMP-1").first().waitFor();
    expect(errors).toEqual([]);
  });

  it.each(["zh", "km", "th", "tw"])("speaks %s (screenshot kept)", async (lng) => {
    const other = await openPage(c, { lang: lng });
    try {
      await signIn(c, other.page, "admin");
      await other.page.goto(`${c.url}/machine/import`);
      await other.page.locator(".import-wizard").waitFor();
      expect(await other.page.locator(".import-wizard .ant-card-head-title").textContent()).toBe(title(lng));
      const bad = await xlsx([row(`E2E-${lng}-1`, null)]);
      await other.page
        .locator(".import-wizard input[type=file]")
        .setInputFiles({ name: "bad.xlsx", mimeType: XLSX, buffer: bad });
      const problem = other.page.locator(".import-wizard-problems .ant-table-tbody tr.ant-table-row").first();
      await problem.waitFor();
      const label = locale(lng, "machine").fields.mac_id.label as string;
      expect(await problem.locator("td").nth(1).textContent()).toBe(label);
      await other.page.screenshot({ path: join(SHOTS, `machine-import-problems-${lng}.png`) });
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});

describe("QR codes", () => {
  it("shows a device's QR code with a download, and downloads a ZIP for the selected devices", async () => {
    const { page, errors } = tab;
    const name = locale("en", "machine").operations["machine-qrcode"].name as string;
    await page.goto(`${c.url}/machine/list`);
    const rows = tableRows(page);
    await rows.nth(1).waitFor();
    // The selection box, then the device code.
    const code = (await rows.first().locator("td").nth(1).textContent())!.trim();
    // Row actions beyond details, edit and delete are in the row's "More" menu.
    await rows
      .first()
      .getByRole("button", { name: locale("en", "common").actions.more })
      .click();
    await page.getByRole("menuitem", { name, exact: true }).click();
    const image = page.locator(".ant-modal .operation-file img");
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);
    expect(await page.locator(".ant-modal-title").textContent()).toBe(`${name}: ${code}`);
    await page.screenshot({ path: join(SHOTS, "machine-qrcode-en.png") });
    const [png] = await Promise.all([
      page.waitForEvent("download"),
      page
        .locator(".ant-modal")
        .getByRole("button", { name: locale("en", "common").actions.download })
        .click(),
    ]);
    expect(png.suggestedFilename()).toBe(`${code}.png`);
    await page
      .locator(".ant-modal-footer")
      .getByRole("button", { name: locale("en", "common").actions.close })
      .click();
    await page.locator(".ant-modal .operation-file").waitFor({ state: "detached" });

    await rows.nth(0).locator(".ant-checkbox-input").check();
    await rows.nth(1).locator(".ant-checkbox-input").check();
    const [zip] = await Promise.all([
      page.waitForEvent("download"),
      page.locator(".list-toolbar").getByRole("button", { name }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/^qrcodes-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(errors).toEqual([]);
  });
});

describe("exports", () => {
  it("the list's export button downloads an XLSX workbook with the list's rows", async () => {
    const { page, errors } = tab;
    await page.goto(`${c.url}/machine/list`);
    await tableRows(page).first().waitFor();
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: locale("en", "common").actions.export }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^Device-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await file.path())!);
    const live = await c.db.query<{ n: number }>(`select count(*)::int as n from machine where deleted_at is null`);
    expect(workbook.worksheets[0].rowCount).toBe(1 + live.rows[0].n);
    expect(errors).toEqual([]);
  });

  it("the order list's export reads like the list: names, not numbers, and times as dates at the business's clock", async () => {
    const { page, errors } = tab;
    // An outlet with a few orders, its orders as the database has them (names joined, the order time
    // read on Bangkok's clock by PostgreSQL).
    const { rows: shops } = await c.db.query<{ id: number; n: number }>(
      `select shop_id as id, count(*)::int as n from "order" where shop_id is not null
        group by shop_id having count(*) between 5 and 500 order by count(*) desc limit 1`,
    );
    const shop = shops[0];
    await page.goto(
      `${c.url}/order/applicationList?filters[0][field]=shop_id&filters[0][operator]=eq&filters[0][value]=${shop.id}`,
    );
    await tableRows(page).first().waitFor();
    const order = locale("en", "order").fields;
    const headers = (await page.locator(".ant-table-thead th").allInnerTexts()).map((text) => text.trim());
    const numberAt = headers.indexOf(order.order_no.label);
    expect(numberAt).toBeGreaterThanOrEqual(0);
    const firstShown = (await tableRows(page).first().locator("td").nth(numberAt).innerText()).trim();
    const { rows: expected } = await c.db.query<{
      agent: string;
      outlet: string;
      application: string | null;
      at: string;
    }>(
      `select a.nickname as agent, s.name as outlet, ap.name as application,
              to_char(o.order_time at time zone 'Asia/Bangkok', 'YYYY-MM-DD HH24:MI:SS') as at
         from "order" o join agent a on a.id = o.agent_id join shop s on s.id = o.shop_id
         left join application ap on ap.id = o.application_id
        where o.order_no = $1`,
      [firstShown],
    );
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: locale("en", "common").actions.export }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^Order-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await file.path())!);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(1 + shop.n);
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const cell = (label: string) => sheet.getRow(2).getCell(header.indexOf(label) + 1);
    // The first row is the list's first row, named as the screen names it.
    expect(cell(order.order_no.label).value).toBe(firstShown);
    expect(cell(order.agent_id.label).value).toBe(expected[0].agent);
    expect(cell(order.shop_id.label).value).toBe(expected[0].outlet);
    if (expected[0].application) expect(cell(order.application_id.label).value).toBe(expected[0].application);
    const time = cell(`${order.order_time.label} (UTC+7)`);
    expect(time.value).toBeInstanceOf(Date);
    expect((time.value as Date).toISOString().slice(0, 19).replace("T", " ")).toBe(expected[0].at);
    expect(time.numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(errors).toEqual([]);
  });

  it("on a phone, an agent's order list (cards) exports its own rows, the button in reach", async () => {
    const phone = await openPage(c, { touch: true, lang: "km" });
    try {
      const { page, errors } = phone;
      await signIn(c, page, "agent_a1");
      await page.goto(`${c.url}/order/applicationList`);
      await page.locator(".row-card").first().waitFor();
      const button = page.getByRole("button", { name: locale("km", "common").actions.export });
      // In the window, not scrolled sideways out of it.
      const box = (await button.boundingBox())!;
      const width = page.viewportSize()!.width;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const [file] = await Promise.all([page.waitForEvent("download"), button.tap()]);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile((await file.path())!);
      // agent_a1's subtree's orders, counted apart from the export.
      const { rows } = await c.db.query<{ n: number }>(
        `select count(*)::int as n from "order" o join agent a on a.id = o.agent_id
          where a.agent_path like (select agent_path from agent where account = 'agent_a1') || '%'`,
      );
      expect(rows[0].n).toBeGreaterThan(0);
      expect(workbook.worksheets[0].rowCount).toBe(1 + rows[0].n);
      // The header in Khmer, as the list's columns are.
      const header = (workbook.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
      expect(header).toContain(locale("km", "order").fields.order_no.label);
      expect(errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});

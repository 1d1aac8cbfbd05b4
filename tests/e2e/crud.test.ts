// The generated screens at work in Chromium, as an admin uses them: for goods, outlets and devices,
// create (a validation error shown, then fixed), edit, delete to the recycle bin, restore, delete
// again and destroy for good; a state action with its confirmation, and one that asks for input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import {
  filterField,
  go,
  onPage,
  openPage,
  ROOT,
  SHOTS,
  signIn,
  startConsole,
  tableRows,
  type Console,
  type Tab,
  rowAction,
  rowActionNames,
} from "./harness.ts";

const en = (ns: string) => JSON.parse(readFileSync(join(ROOT, `locales/en/${ns}.json`), "utf8"));
const common = en("common");
const validation = en("validation");

let c: Console;
let tab: Tab;

beforeAll(async () => {
  c = await startConsole();
  tab = await openPage(c);
  await signIn(c, tab.page, "admin");
});

afterAll(async () => {
  await tab?.context.close();
  await c?.close();
});

/** A real 8×8 PNG (the server checks uploads by content). */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const raw = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array(24).fill(200)])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The form item of a top-level field (form items nest: the root object is one too). */
const field = (page: Page, name: string) =>
  page.locator(`.ant-form-item:has(> .ant-form-item-row > .ant-form-item-label > label[for="root_${name}"])`);
const fieldError = (page: Page, name: string) => field(page, name).locator(".ant-form-item-explain-error");

/** Opens a select and takes its first option (with the keyboard, as dropdowns animate). */
async function pick(page: Page, name: string) {
  const select = page.locator(`#root_${name}`);
  await select.click();
  await page.locator(".ant-select-dropdown .ant-select-item-option").locator("visible=true").first().waitFor();
  await select.press("Enter");
  await expect.poll(() => field(page, name).locator(".ant-select-selection-item").count()).toBe(1);
}

async function upload(page: Page, name: string) {
  const before = await field(page, name).locator(".ant-upload-list-item").count();
  await field(page, name)
    .locator("input[type=file]")
    .setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png() });
  await expect.poll(() => field(page, name).locator(".ant-upload-list-item").count()).toBe(before + 1);
}

async function save(page: Page) {
  await page.locator(".form-actions .ant-btn-primary").click();
}

/**
 * Filters the list by a text filter and answers the rows shown: opened in-app, as from the menu (a list
 * left earlier shows again, fetching what went stale); the same filter again asks the list's refresh.
 */
async function search(page: Page, path: string, name: string, text: string) {
  if (new URL(page.url()).pathname !== path) await go(page, path);
  await onPage(page, path, ".ant-table").first().waitFor();
  const filter = filterField(page, path, name);
  // The list's answer to this filter, then its rows drawn.
  const answered = page.waitForResponse((r) => [...new URL(r.url()).searchParams.values()].includes(text));
  if ((await filter.inputValue()) === text)
    await onPage(page, path, ".list-toolbar").getByRole("button", { name: common.actions.refresh }).click();
  else {
    await filter.fill(text);
    await onPage(page, path, ".filter-bar button[type=submit]").click();
  }
  await answered;
  await onPage(page, path, ".ant-spin-spinning").first().waitFor({ state: "detached" });
  return onPage(page, path, ".ant-table-tbody tr.ant-table-row");
}

/** Says yes to the confirmation a row's delete, restore or destroy asks. */
async function confirmRow(page: Page) {
  await page.locator(".ant-modal-confirm-btns button").last().click();
  await page.locator(".ant-modal-confirm").waitFor({ state: "detached" });
}

interface Case {
  entity: string;
  list: string;
  recycle: string;
  filter: string;
  /** Fills a valid record named `name` in the create form. */
  fill(page: Page, name: string): Promise<void>;
  /** The field left empty first to see the required message. */
  required: string;
  /** The field edited afterwards (cleared to see the error, then given `name`). */
  edited: string;
}

const CASES: Case[] = [
  {
    entity: "goods",
    list: "/goods/list",
    recycle: "/goods/recoveryList",
    filter: "title",
    required: "title",
    edited: "title",
    async fill(page, name) {
      await page.locator("#root_title").fill(name);
      await pick(page, "cate_id");
      await upload(page, "pic_url");
      await upload(page, "detail_url");
      await upload(page, "carousel_url");
      await page.locator("#root_unit_price").fill("3.5");
      await page.locator("#root_cost_price").fill("1.8");
      await page.locator("#root_down_price").fill("2.6");
      await page.locator("#root_description").fill("Made by the browser test.");
    },
  },
  {
    entity: "shop",
    list: "/shop/list",
    recycle: "/shop/recoveryList",
    filter: "name",
    required: "name",
    edited: "name",
    async fill(page, name) {
      await page.locator("#root_name").fill(name);
      await page.locator("#root_phone").fill("+855 12 888 999");
      await page.locator("#root_province").fill("Phnom Penh");
      await page.locator("#root_city").fill("Phnom Penh");
      await page.locator("#root_district").fill("Daun Penh");
      await page.locator("#root_address").fill("1 Sisowath Quay");
      await page.locator("#root_longitude").fill("104.9282");
      await page.locator("#root_latitude").fill("11.5696");
    },
  },
  {
    entity: "machine",
    list: "/machine/list",
    recycle: "/machine/recoveryList",
    filter: "mac_name",
    required: "mac_name",
    edited: "mac_name",
    async fill(page, name) {
      await page.locator("#root_mac_name").fill(name);
      await page.locator("#root_mac_id").fill(`86${Date.now()}`.slice(0, 15));
      await pick(page, "kind");
      await pick(page, "protocol_id");
      await pick(page, "model_id");
      await pick(page, "spec_id");
    },
  },
];

/** A record made through the create form, as a user would: each test makes the one it works on. */
async function createThroughForm(page: Page, kase: Case, name: string) {
  await page.goto(`${c.url}${kase.list}`);
  await page.locator(".list-toolbar .ant-btn-primary").click();
  await page.locator(".schema-form").waitFor();
  await kase.fill(page, name);
  await save(page);
  await page.waitForURL(new RegExp(kase.list));
}

describe.each(CASES)("$entity", (kase) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const name = `E2E-${kase.entity}-${stamp}`.replace(/_/g, "-");

  it("creates a record: the missing field is reported in words, then the record saves", async () => {
    const { page, errors } = tab;
    await page.goto(`${c.url}${kase.list}`);
    await page.locator(".list-toolbar .ant-btn-primary").click();
    await page.locator(".schema-form").waitFor();
    await kase.fill(page, name);
    await page.locator(`#root_${kase.required}`).fill("");
    await save(page);
    const label = en(kase.entity).fields[kase.required].label;
    await expect
      .poll(() => fieldError(page, kase.required).first().textContent())
      .toBe(validation.required.replace("{{field}}", label));
    await page.screenshot({ path: join(SHOTS, `form-error-${kase.entity}.png`) });
    await page.locator(`#root_${kase.required}`).fill(name);
    await save(page);
    await page.waitForURL(new RegExp(kase.list));
    const rows = await search(page, kase.list, kase.filter, name);
    await expect.poll(() => rows.count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("edits a record, refusing an empty required field until it is filled", async () => {
    const { page, errors } = tab;
    const own = `${name}-E`;
    const renamed = `${own}-B`;
    await createThroughForm(page, kase, own);
    const rows = await search(page, kase.list, kase.filter, own);
    await expect.poll(() => rows.count()).toBe(1);
    await rowAction(rows.first(), common.actions.edit);
    await page.locator(".schema-form").waitFor();
    await expect.poll(() => page.locator(`#root_${kase.edited}`).inputValue()).toBe(own);
    await page.locator(`#root_${kase.edited}`).fill("");
    await save(page);
    await expect.poll(() => fieldError(page, kase.edited).count()).toBeGreaterThan(0);
    await page.locator(`#root_${kase.edited}`).fill(renamed);
    await save(page);
    await page.waitForURL(new RegExp(kase.list));
    await expect.poll(async () => (await search(page, kase.list, kase.filter, renamed)).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("deletes to the recycle bin after asking, restores, deletes again and destroys for good", async () => {
    const { page, errors } = tab;
    const renamed = `${name}-D`;
    await createThroughForm(page, kase, renamed);
    let rows = await search(page, kase.list, kase.filter, renamed);
    await expect.poll(() => rows.count()).toBe(1);
    await rowAction(rows.first(), common.actions.delete);
    await confirmRow(page);
    await expect.poll(async () => (await search(page, kase.list, kase.filter, renamed)).count()).toBe(0);

    rows = await search(page, kase.recycle, kase.filter, renamed);
    await expect.poll(() => rows.count()).toBe(1);
    await rowAction(rows.first(), common.actions.restore);
    await confirmRow(page);
    await expect.poll(async () => (await search(page, kase.recycle, kase.filter, renamed)).count()).toBe(0);
    await expect.poll(async () => (await search(page, kase.list, kase.filter, renamed)).count()).toBe(1);

    // Bulk: select the row and delete with the toolbar button (a confirm dialog first).
    rows = await search(page, kase.list, kase.filter, renamed);
    await rows.first().locator(".ant-checkbox-input").check();
    await onPage(page, kase.list, ".list-toolbar .ant-btn-dangerous").click();
    await page.locator(".ant-modal-confirm-btns button").last().click();
    await expect.poll(async () => (await search(page, kase.list, kase.filter, renamed)).count()).toBe(0);

    rows = await search(page, kase.recycle, kase.filter, renamed);
    await rowAction(rows.first(), common.actions.destroy);
    await confirmRow(page);
    await expect.poll(async () => (await search(page, kase.recycle, kase.filter, renamed)).count()).toBe(0);
    const table = kase.entity === "machine" ? "machine" : kase.entity;
    const left = await c.db.query(`select id from "${table}" where ${kase.filter} = $1`, [renamed]);
    expect(left.rows).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("state actions", () => {
  it("accepts a pending work order after a confirmation, then finishes it with a reply", async () => {
    const { page, errors } = tab;
    const so = en("service_order");
    await page.goto(
      `${c.url}/order/ServiceList?filters[0][field]=status&filters[0][operator]=in&filters[0][value][0]=pending`,
    );
    const row = tableRows(page).first();
    await row.waitFor();
    const id = await row.getAttribute("data-row-key");
    // Only the transitions allowed from "pending" are offered.
    const offered = await rowActionNames(row);
    expect(offered).toContain(so.actions.accept);
    expect(offered).not.toContain(so.actions.finish);
    await rowAction(row, so.actions.accept);
    // The confirmation names the action and the record: "Accept Work order “VM-PP-0012”?"
    const { rows } = await c.db.query<{ mac_name: string }>(`select mac_name from service_order where id = $1`, [id]);
    await expect
      .poll(() => page.locator(".ant-modal-confirm-content").textContent())
      .toBe(`${so.actions.accept} ${so.name} “${rows[0].mac_name}”?`);
    await page.locator(".ant-modal-confirm-btns .ant-btn-primary").click();
    await expect
      .poll(
        async () =>
          (await c.db.query<{ status: string }>(`select status from service_order where id = $1`, [id])).rows[0].status,
      )
      .toBe("processing");

    await page.goto(`${c.url}/order/ServiceList/show/${id}`);
    await page.getByRole("button", { name: so.actions.finish }).click();
    await page.locator(".ant-modal .schema-form").waitFor();
    await page.locator(".ant-modal #root_reply").fill("Refunded at the counter; lane 4 cleaned.");
    await page.locator(".ant-modal .form-actions .ant-btn-primary").click();
    await expect
      .poll(
        async () =>
          (await c.db.query<{ status: string }>(`select status from service_order where id = $1`, [id])).rows[0].status,
      )
      .toBe("completed");
    // The audit history shows both actions.
    await expect.poll(() => page.locator(".history-entry").count()).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });
});

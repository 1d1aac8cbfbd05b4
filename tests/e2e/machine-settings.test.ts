// Device settings and operator bindings in Chromium, as the platform admin: a vending device's max cups
// set through its dialog (which starts from the current value) and shown on the device; an operator
// bound to a device with a percent share through the binding form, then unbound after the confirmation.
// The dialogs are photographed in the five languages (tests/e2e/screenshots/settings-*.png).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { join } from "node:path";
import {
  type Console,
  detailTab,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  SHOTS,
  signIn,
  startConsole,
  type Tab,
  tableRows,
  WIDTHS,
  rowAction,
} from "./harness.ts";

let c: Console;
let tab: Tab;
let machine: { id: number; mac_name: string };
let operator: { id: number; nickname: string };
let carWash: number;

beforeAll(async () => {
  c = await startConsole();
  // A device and an operator of agent_a's of their own, so no demo binding shares the device.
  const { rows: devices } = await c.db.query<{ id: number; mac_name: string }>(
    `insert into machine (mac_name, mac_id, kind, protocol_id, model_id, spec_id, network_type, mode, last_report_at, maxnumber, agent_id, agent_path)
     select 'E2E-CUPS-1', 'E2ECUPS00001', kind, protocol_id, model_id, spec_id, network_type, 'normal', now(), 120, agent_id, agent_path
       from machine where kind = 'vending' and agent_id = (select id from agent where account = 'agent_a') limit 1
     returning id, mac_name`,
  );
  machine = { id: Number(devices[0].id), mac_name: devices[0].mac_name };
  const { rows: operators } = await c.db.query<{ id: number; nickname: string }>(
    `insert into operator (nickname, account, password, refill, agent_id, agent_path)
     select 'E2E Binder', 'e2e_binder', 'x', 1, id, agent_path from agent where account = 'agent_a'
     returning id, nickname`,
  );
  operator = { id: Number(operators[0].id), nickname: operators[0].nickname };
  const { rows: washes } = await c.db.query<{ id: number }>(
    `insert into machine (mac_name, mac_id, kind, protocol_id, model_id, spec_id, network_type, mode, last_report_at, agent_id, agent_path)
     select 'E2E-WASH-1', 'E2EWASH00001', 'car_wash', protocol_id, model_id, spec_id, network_type, 'normal', now(), agent_id, agent_path
       from machine where id = $1 returning id`,
    [machine.id],
  );
  carWash = Number(washes[0].id);
  tab = await openPage(c);
  await signIn(c, tab.page, "admin");
}, 120_000);

afterAll(async () => {
  await tab?.context.close();
  await c?.close();
});

/** Waits until nothing on the page moves (a dialog's opening animation), for a photograph of it. */
const still = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === "running").length))
    .toBe(0);

const modal = (page: Page) => page.locator(".ant-modal:not(.ant-modal-confirm)").locator("visible=true");

/** Types into a searchable relation picker and takes the option named `text`. */
async function pickNamed(page: Page, name: string, text: string) {
  const select = page.locator(`#root_${name}`);
  await select.click();
  await select.fill(text);
  // The option itself, once the search has answered (Enter would take whichever option is active).
  await page.locator(".ant-select-dropdown .ant-select-item-option", { hasText: text }).locator("visible=true").click();
  // Form items nest (the root object is one too): the item whose own label is the field's.
  const item = page.locator(
    `.ant-form-item:has(> .ant-form-item-row > .ant-form-item-label > label[for="root_${name}"])`,
  );
  await expect.poll(() => item.locator(".ant-select-selection-item").textContent()).toBe(text);
}

describe("device settings", () => {
  it("sets a vending device's max cups through its dialog and shows the new value", async () => {
    const { page, errors } = tab;
    const m = locale("en", "machine");
    await page.goto(`${c.url}/machine/list/show/${machine.id}?tab=information`);
    await page.getByRole("button", { name: m.operations["machine-cup-set"].name }).click();
    const dialog = modal(page);
    await dialog.locator("#root_maxnumber").waitFor();
    // The dialog starts from the device's current value and names the device and the action.
    expect(await dialog.locator("#root_maxnumber").inputValue()).toBe("120");
    await expect
      .poll(() => dialog.locator(".operation-confirm").textContent())
      .toBe(`Change the max cups of device ${machine.mac_name} (now 120)?`);
    await dialog.locator("#root_maxnumber").fill("345");
    await dialog.locator(".form-actions .ant-btn-primary").click();
    await expect
      .poll(
        async () =>
          (await c.db.query<{ n: number }>(`select maxnumber as n from machine where id = $1`, [machine.id])).rows[0].n,
      )
      .toBe(345);
    await dialog.waitFor({ state: "detached" });
    // The detail reloads: the field shows the new value.
    const value = page
      .locator(".detail-descriptions th.ant-descriptions-item-label", { hasText: m.fields.maxnumber.label })
      .locator("xpath=following-sibling::td[1]");
    await expect.poll(() => value.textContent()).toBe("345");
    // The history names the call: "Set max cups", 120 → 345.
    await detailTab(page, "records");
    await expect
      .poll(() => page.locator(".history-entry").first().locator(".ant-tag").textContent())
      .toBe(m.operations["machine-cup-set"].name);
    await expect
      .poll(() => page.locator(".history-entry").first().locator(".history-changes li").first().textContent())
      .toBe(`${m.fields.maxnumber.label}: 120 → 345`);
    // The device list offers the settings on each row, for the kinds they apply to.
    await page.goto(`${c.url}/machine/list`);
    await tableRows(page).first().waitFor();
    await page.screenshot({ path: join(SHOTS, "settings-machine-list-en.png") });
    expect(errors).toEqual([]);
  });

  it("binds an operator to the device with a percent share, and unbinds it after the confirmation", async () => {
    const { page, errors } = tab;
    const ob = locale("en", "operator_binding");
    const common = locale("en", "common");
    await page.goto(`${c.url}/operator/machineList`);
    await tableRows(page).first().waitFor();
    await page.getByRole("button", { name: common.actions.create }).click();
    await page.locator("#root_operator_id").waitFor();
    await pickNamed(page, "operator_id", operator.nickname);
    await pickNamed(page, "machine_id", machine.mac_name);
    await page.getByRole("radio", { name: locale("en", "defs").enum.profitType.percent }).check();
    await page.locator("#root_profit_percent").fill("40");
    await page.screenshot({ path: join(SHOTS, "settings-bind-en.png") });
    await page.locator(".form-actions .ant-btn-primary").click();
    const bound = async () =>
      (
        await c.db.query<{ id: number; profit_percent: number }>(
          `select id, profit_percent from operator_binding where operator_id = $1 and machine_id = $2`,
          [operator.id, machine.id],
        )
      ).rows;
    await expect.poll(async () => (await bound()).map((r) => r.profit_percent)).toEqual([0.4]);
    const bindingId = Number((await bound())[0].id);

    await page.goto(
      `${c.url}/operator/machineList?filters[0][field]=machine_id&filters[0][operator]=eq&filters[0][value]=${machine.id}`,
    );
    const row = page.locator(`.ant-table-tbody tr[data-row-key="${bindingId}"]`);
    await row.waitFor();
    const unbind = ob.operations["operator-unbind-machine"];
    await rowAction(row, unbind.name);
    const confirm = page.locator(".ant-modal-confirm");
    await expect.poll(() => confirm.locator(".ant-modal-confirm-content").textContent()).toBe(unbind.confirm);
    // Cancelled first: nothing changes.
    await confirm.locator(".ant-modal-confirm-btns button").first().click();
    await confirm.waitFor({ state: "detached" });
    expect(await bound()).toHaveLength(1);
    await rowAction(row, unbind.name);
    // The confirmation has finished opening before its button is pressed, and the call's answer is
    // what the test waits for (a lost click or a refusal then says so, not a count that stays 1).
    await expect.poll(() => confirm.locator(".ant-modal-confirm-content").textContent()).toBe(unbind.confirm);
    await still(page);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/operator-unbind-machine"));
    await confirm.locator(".ant-modal-confirm-btns .ant-btn-primary").click();
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(200);
    await expect.poll(async () => (await bound()).length).toBe(0);
    await row.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  });

  it("shows the dialogs in the five languages", async () => {
    // A binding to unbind, put in place directly.
    const { rows } = await c.db.query<{ id: number }>(
      `insert into operator_binding (operator_id, machine_id, profit_type, profit_percent, agent_id, agent_path)
       select $1, $2, 'percent', 0.2, agent_id, agent_path from operator where id = $1
       on conflict (operator_id, machine_id) do update set profit_percent = excluded.profit_percent returning id`,
      [operator.id, machine.id],
    );
    for (const lng of LANGUAGES) {
      const look = async ({ page }: Tab) => {
        const m = locale(lng, "machine");
        await page.goto(`${c.url}/machine/list/show/${machine.id}`);
        await page.getByRole("button", { name: m.operations["machine-cup-set"].name }).click();
        const dialog = modal(page);
        await dialog.locator("#root_maxnumber").waitFor();
        await expect
          .poll(() => dialog.locator(".ant-form-item-label label").first().textContent())
          .toBe(m.operations["machine-cup-set"].fields.maxnumber.label);
        await still(page);
        await page.screenshot({ path: join(SHOTS, `settings-cups-${lng}.png`) });
        await dialog.locator(".form-actions button:not(.ant-btn-primary)").click();
        await dialog.waitFor({ state: "detached" });

        // The towel dialog: a choice and a price, on a car-wash unit.
        await page.goto(`${c.url}/machine/list/show/${carWash}`);
        await page.getByRole("button", { name: m.operations["machine-towel-set"].name }).click();
        const towels = modal(page);
        await towels
          .getByRole("radio", { name: m.operations["machine-towel-set"].enum.towel_mode.paid, exact: true })
          .check();
        await still(page);
        await page.screenshot({ path: join(SHOTS, `settings-towels-${lng}.png`) });
        await towels.locator(".form-actions button:not(.ant-btn-primary)").click();
        await towels.waitFor({ state: "detached" });

        const unbind = locale(lng, "operator_binding").operations["operator-unbind-machine"];
        await page.goto(
          `${c.url}/operator/machineList?filters[0][field]=machine_id&filters[0][operator]=eq&filters[0][value]=${machine.id}`,
        );
        const row = page.locator(`.ant-table-tbody tr[data-row-key="${rows[0].id}"]`);
        await rowAction(row, unbind.name);
        await expect.poll(() => page.locator(".ant-modal-confirm-content").textContent()).toBe(unbind.confirm);
        await still(page);
        await page.screenshot({ path: join(SHOTS, `settings-unbind-${lng}.png`) });
        await page.locator(".ant-modal-confirm-btns button").first().click();
      };
      await inLanguage(c, lng, "admin", look, { widths: [WIDTHS[0]] });
    }
  }, 180_000);
});

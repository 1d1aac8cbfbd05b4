// Money in the console, as an admin works it: a partial refund from the order's detail page (the dialog
// shows what was paid, refunded and can still be refunded; a refund above that is refused on the field
// and the typed amount stays), the detail showing the new state and the ledger entry at once; the
// withdrawal review queue (approve, then refuse with a reason, each confirmation and message naming the
// amount and the person).
// Screenshots of the refund dialog and the queue in the five languages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  openPage,
  ROOT,
  rowAction,
  rowActionNames,
  SHOTS,
  signIn,
  startConsole,
  tableRows,
  type Console,
  type Tab,
} from "./harness.ts";

const en = (ns: string) => JSON.parse(readFileSync(join(ROOT, `locales/en/${ns}.json`), "utf8"));
const order = en("order");
const withdrawal = en("withdrawal");
const ledger = en("payment_record");
const payoutMethods = en("defs").enum.payoutMethod as Record<string, string>;

let c: Console;

beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

/** A paid order of the demo data worth at least the amount, not refunded yet. */
async function paidOrder(min: number): Promise<{ id: number; order_no: string; money: number }> {
  const { rows } = await c.db.query<{ id: number; order_no: string; money: number }>(
    `select id, order_no, money::int from "order" where pay_status = 'paid' and refund_money = 0 and money >= $1 order by id limit 1`,
    [min],
  );
  expect(rows[0], "a paid order in the demo data").toBeDefined();
  return rows[0];
}

const money = (minor: number) => (minor / 100).toFixed(2);
/** An amount as the screens show it: the demo business keeps US dollars (system settings). */
const dollars = (minor: number) => `$${money(minor)}`;
const dialog = (page: Page) => page.locator(".ant-modal:visible");
/** The value beside a label in a bordered description list (a record's details, an operation's summary). */
const descriptionOf = (scope: ReturnType<Page["locator"]> | Page, label: string) =>
  scope.locator(`xpath=.//th[normalize-space()="${label}"]/following-sibling::td[1]`).first();

describe("a refund from the order's detail", () => {
  let tab: Tab;
  beforeAll(async () => {
    tab = await openPage(c);
    await signIn(c, tab.page, "admin");
  });
  afterAll(() => tab?.context.close());

  it("shows paid, refunded and refundable, refuses too much on the field, and shows the new state at once", async () => {
    const { page } = tab;
    const target = await paidOrder(300);
    await page.goto(`${c.url}/order/applicationList/show/${target.id}`);
    await page.getByRole("button", { name: order.operations["order-refund"].name, exact: true }).click();
    const modal = dialog(page);
    await modal.locator(".operation-summary").waitFor();
    await expect.poll(() => descriptionOf(modal, order.fields.money.label).innerText()).toBe(dollars(target.money));
    await expect
      .poll(() => descriptionOf(modal, order.fields.refundable_money.label).innerText())
      .toBe(dollars(target.money));

    const amount = modal.locator("#root_refund_money");
    // The amount takes the focus as the dialog opens: typing starts there.
    await expect.poll(() => amount.evaluate((input) => input === document.activeElement)).toBe(true);
    await amount.fill(money(target.money + 100));
    await modal.locator("button[type=submit]").click();
    await expect
      .poll(() => modal.locator(".ant-form-item-explain-error").innerText())
      .toBe(`The refund is more than the ${dollars(target.money)} that can still be refunded`);
    await expect.poll(() => amount.inputValue()).toBe(money(target.money + 100));

    await amount.fill("1");
    await modal.locator("button[type=submit]").click();
    await modal.waitFor({ state: "hidden" });
    // The message says how much was refunded, of which order.
    await page
      .locator(".ant-message")
      .getByText(`Refunded $1.00 of order ${target.order_no}`, { exact: true })
      .waitFor();
    await expect
      .poll(() => descriptionOf(page, order.fields.pay_status.label).innerText())
      .toBe(order.enum.pay_status.partial_refund);
    await expect.poll(() => descriptionOf(page, order.fields.refund_money.label).innerText()).toBe("$1.00");
    await expect
      .poll(() => descriptionOf(page, order.fields.refundable_money.label).innerText())
      .toBe(dollars(target.money - 100));
    // The ledger panel of the order lists the refund, without a reload.
    const panel = page.locator(".related-list", { hasText: ledger.name });
    await expect.poll(() => panel.locator("tr", { hasText: ledger.enum.kind.refund }).count()).toBe(1);
    // The one refusal answered 400 (the browser logs it too); nothing else went wrong.
    expect(tab.errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([
      "HTTP 400 /merchant/order-refund",
    ]);
  });
});

describe("the withdrawal review queue", () => {
  let tab: Tab;
  beforeAll(async () => {
    tab = await openPage(c);
    await signIn(c, tab.page, "admin");
  });
  afterAll(() => tab?.context.close());

  it("approves a request and refuses another with a reason, each amount and person named", async () => {
    const { page } = tab;
    const { rows: pending } = await c.db.query<{
      id: number;
      legal_name: string;
      amount: number;
      agent_id: number;
      payout_method: string;
      account_number: string;
    }>(
      `select id, legal_name, amount::int, agent_id, payout_method, account_number from "withdrawal"
       where status = 'pending' order by request_time limit 2`,
    );
    expect(pending).toHaveLength(2);
    await page.goto(`${c.url}/data/withdrawalReview`);
    const row = (id: number) => page.locator(`.ant-table-tbody tr.ant-table-row[data-row-key="${id}"]`);
    await row(pending[0].id).waitFor();

    await rowAction(row(pending[0].id), withdrawal.actions.approve);
    const confirm = page.locator(".ant-modal-confirm");
    await expect
      .poll(() => confirm.locator(".ant-modal-confirm-content").innerText())
      .toBe(
        `Approve the withdrawal of ${dollars(pending[0].amount)} to ${pending[0].legal_name} ` +
          `(${payoutMethods[pending[0].payout_method]}, ${pending[0].account_number})?`,
      );
    await confirm.locator(".ant-btn-primary").click();
    // The message says what happened: the amount approved, and to whom.
    await page
      .locator(".ant-message")
      .getByText(`Approved ${dollars(pending[0].amount)} to ${pending[0].legal_name}`, { exact: true })
      .waitFor();
    // Approved, it moves behind the pending requests (the queue's order) and is no longer offered approval.
    // (Off the page once it has moved, it is offered nothing there.)
    const offered = async (id: number) => ((await row(id).count()) ? rowActionNames(row(id)) : []);
    await expect.poll(() => offered(pending[0].id)).not.toContain(withdrawal.actions.approve);
    await expect
      .poll(
        async () => (await c.db.query(`select status from "withdrawal" where id = $1`, [pending[0].id])).rows[0].status,
      )
      .toBe("approved");

    const { rows: before } = await c.db.query<{ withdrawable: number }>(
      `select withdrawable::int from "agent" where id = $1`,
      [pending[1].agent_id],
    );
    await rowAction(row(pending[1].id), withdrawal.actions.refuse);
    const modal = dialog(page);
    await expect
      .poll(() => modal.locator(".transition-confirm").innerText())
      .toBe(
        `Refuse the withdrawal of ${dollars(pending[1].amount)} to ${pending[1].legal_name}? ` +
          "The amount returns to the agent's balance.",
      );
    await modal.locator("#root_refuse_reason").fill("The account name does not match.");
    await modal.locator("button[type=submit]").click();
    // The dialog closes on success (it stays open, with the server's words, on an error).
    await modal.waitFor({ state: "hidden" });
    await page
      .locator(".ant-message")
      .getByText(
        `Refused ${dollars(pending[1].amount)} to ${pending[1].legal_name}; the amount is back in the balance`,
        { exact: true },
      )
      .waitFor();
    // Refused requests leave the queue at once.
    await row(pending[1].id).waitFor({ state: "detached" });
    const { rows: after } = await c.db.query<{ withdrawable: number }>(
      `select withdrawable::int from "agent" where id = $1`,
      [pending[1].agent_id],
    );
    expect(after[0].withdrawable).toBe(before[0].withdrawable + pending[1].amount);
    expect(tab.errors).toEqual([]);
  });
});

describe("money screens in every language", () => {
  it.each(["en", "zh", "km", "th", "tw"])(
    "%s: the refund dialog and the review queue (screenshots kept)",
    async (lng) => {
      const tab = await openPage(c, { lang: lng });
      try {
        const { page } = tab;
        await signIn(c, page, "admin");
        const target = await paidOrder(200);
        await page.goto(`${c.url}/order/applicationList/show/${target.id}`);
        const refund = JSON.parse(readFileSync(join(ROOT, `locales/${lng}/order.json`), "utf8")).operations[
          "order-refund"
        ];
        await page.getByRole("button", { name: refund.name, exact: true }).click();
        await dialog(page).locator(".operation-summary").waitFor();
        await dialog(page).locator(".operation-confirm").waitFor();
        // The form loads with the dialog: its field and submit button, not the placeholder, are shown.
        await dialog(page).locator("#root_refund_money").waitFor();
        await dialog(page).locator("button[type=submit]").waitFor();
        await page.screenshot({ path: join(SHOTS, `refund-dialog-${lng}.png`), animations: "disabled" });
        const text = await dialog(page).innerText();
        expect(text).not.toMatch(/operations\.|fields\.|undefined|\{\{/);
        await page.goto(`${c.url}/data/withdrawalReview`);
        await tableRows(page).first().waitFor();
        await page.screenshot({ path: join(SHOTS, `withdrawal-review-${lng}.png`), animations: "disabled" });
        expect(await page.locator(".ant-table").innerText()).not.toMatch(/enum\.|fields\.|undefined/);
        expect(tab.errors).toEqual([]);
      } finally {
        await tab.context.close();
      }
    },
  );
});

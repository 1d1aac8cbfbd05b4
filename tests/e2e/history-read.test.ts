// A record's history read in Khmer (and English), as agent_a reads it: an order refunded in part and a
// device moved to another outlet and its room changed. Each line is words in the reader's language: no
// key-shaped text ("actions.refund", "fields.x.label"), no "#12", the value before beside the value after.
// Photographed at 1440 and 390 px (tests/e2e/screenshots/history-*.png).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type Console, detailTab, inLanguage, locale, openPage, shot, signIn, startConsole } from "./harness.ts";

let c: Console;
let order: { id: number; order_no: string; money: number };
let device: { id: number; mac_name: string; from: string; to: string };

/** A call of the API as the page's signed-in user. */
async function call(page: Page, path: string, body: unknown): Promise<{ code: number; data: unknown }> {
  return page.evaluate(
    async ({ path, body }) => {
      const token = localStorage.getItem("merchant_token");
      const response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { code: response.status, data: (await response.json()) as unknown };
    },
    { path, body },
  );
}

beforeAll(async () => {
  c = await startConsole();
  const { rows: orders } = await c.db.query<{ id: number; order_no: string; money: number }>(
    `select o.id, o.order_no, o.money::int from "order" o join agent a on a.id = o.agent_id
      where a.account = 'agent_a' and o.pay_status = 'paid' and o.refund_money = 0 and o.money >= 200
      order by o.id limit 1`,
  );
  order = { ...orders[0], id: Number(orders[0].id) };
  const { rows: devices } = await c.db.query<{
    id: number;
    mac_name: string;
    from: string;
    to: string;
    version: number;
  }>(
    `select m.id, m.mac_name, m.version, s.name as from, t.name as to
       from machine m join agent a on a.id = m.agent_id join shop s on s.id = m.shop_id
       join shop t on t.agent_id = m.agent_id and t.id <> m.shop_id and t.deleted_at is null
      where a.account = 'agent_a' and m.deleted_at is null and m.kind = 'vending' order by m.id, t.id limit 1`,
  );
  device = { ...devices[0], id: Number(devices[0].id) };
  await c.db.query(`update machine set room_number = 'Lobby A' where id = $1`, [device.id]);
  const tab = await openPage(c);
  try {
    await signIn(c, tab.page, "agent_a");
    const refund = await call(tab.page, "/merchant/order-refund", { id: order.id, refund_money: 100 });
    expect(refund.code, JSON.stringify(refund.data)).toBe(200);
    const { rows: shops } = await c.db.query<{ id: number }>(`select id from shop where name = $1 limit 1`, [
      device.to,
    ]);
    const moved = await call(tab.page, "/merchant/machine-update", {
      id: device.id,
      version: Number(
        (await c.db.query<{ version: number }>(`select version from machine where id = $1`, [device.id])).rows[0]
          .version,
      ),
      shop_id: Number(shops[0].id),
      room_number: "Gate 3",
    });
    expect(moved.code, JSON.stringify(moved.data)).toBe(200);
  } finally {
    await tab.context.close();
  }
}, 180_000);

afterAll(async () => {
  await c?.close();
});

/** The history's lines as a person reads them: every entry's tag, time and changes. */
async function historyText(page: Page): Promise<string[]> {
  // A record with a panel (a device) has its history one tab away; an order has it on the page.
  await page.locator(".detail-head").waitFor();
  if (await page.locator('.detail-head .ant-tabs-tab[data-node-key="records"]').count())
    await detailTab(page, "records");
  await page.locator(".history-entry").first().waitFor();
  return page.locator(".history-entry").allInnerTexts();
}

const KEY_SHAPED = /\b[a-z_]+\.[a-z_]+(\.[a-z_]+)*\b|#\d+/;

describe("a record's history in Khmer", () => {
  for (const lng of ["km", "en"] as const) {
    it(`reads in words in ${lng}: the refund and the device's move, with the values before`, async () => {
      const o = locale(lng, "order");
      const m = locale(lng, "machine");
      await inLanguage(c, lng, "agent_a", async ({ page }, { width }) => {
        await page.goto(`${c.url}/order/applicationList/show/${order.id}`);
        const orderLines = await historyText(page);
        const refund = orderLines.find((t) => t.includes(o.operations["order-refund"].name));
        expect(refund, orderLines.join("\n---\n")).toBeDefined();
        expect(refund).toContain(`${o.fields.refund_money.label}: `);
        expect(refund).toMatch(/→/);
        for (const text of orderLines) expect(text).not.toMatch(KEY_SHAPED);
        await shot(page, `history-order-${lng}-${width}`, { fullPage: true });

        await page.goto(`${c.url}/machine/list/show/${device.id}`);
        const deviceLines = await historyText(page);
        const edit = deviceLines.find((t) => t.includes(device.to));
        expect(edit, deviceLines.join("\n---\n")).toBeDefined();
        // The outlet before and after by their names, the room before and after.
        expect(edit).toContain(`${m.fields.shop_id.label}: ${device.from} → ${device.to}`);
        expect(edit).toContain(`${m.fields.room_number.label}: Lobby A → Gate 3`);
        for (const text of deviceLines) expect(text).not.toMatch(KEY_SHAPED);
        await shot(page, `history-machine-${lng}-${width}`, { fullPage: true });
      });
    });
  }
});

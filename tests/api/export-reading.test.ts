// Exports read like the screen (issue 31): the list's default columns in its order, headers in the
// caller's language, related records by name, enum values as words, times as date cells at the
// business's clock (Asia/Bangkok, UTC+7), money in the business's currency format; the caller's scope
// and the export permission. Read back with exceljs, as the other export tests do.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";
import { entityView } from "../../src/crud/model.ts";
import type { EntityName } from "../../src/generated/types.ts";
import { translate } from "../../server/core/i18n.ts";

let t: TestApp;
let fx: Fixtures;
let machine: Row, page: Row, application: Row, shop: Row;

// Order time 2026-03-14 17:45:30 UTC is 2026-03-15 00:45:30 in Bangkok: the next day there.
const ORDER_TIME = "2026-03-14T17:45:30.000Z";
const PAY_TIME = "2026-03-14T17:46:05.000Z";

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  await t.db.query(`update "agent" set nickname = 'Mekong Trading Co.' where account = 'agent_a'`);
  await t.db.query(`update "agent" set nickname = 'Angkor Supplies' where account = 'agent_b'`);
  await t.db.query(
    `insert into "system_setting" (singleton_key, currency) values ('global', 'USD')
     on conflict (singleton_key) do update set currency = 'USD'`,
  );
  application = await fx.insertRecord("application", "admin", { name: "Smart Vending Export" });
  shop = await fx.insertRecord("shop", "agent_a", { name: "Riverside Market" });
  page = await fx.insertRecord("page", "agent_a", { name: "Riverside snacks", application_id: application.id });
  machine = await fx.insertRecord("machine", "agent_a", {
    mac_name: "VM-RIV-01",
    mac_id: "EXPRIV0001",
    kind: "vending",
    shop_id: shop.id,
  });
  await fx.insertRecord("order", "agent_a", {
    order_no: "EXPREAD-A1",
    mac_name: "VM-RIV-01",
    machine_id: machine.id,
    application_id: application.id,
    page_id: page.id,
    shop_id: shop.id,
    order_time: ORDER_TIME,
    pay_time: PAY_TIME,
    pay_type: 3,
    pay_status: "refund_success",
    money: 123456,
    refund_money: 2050,
    channel_number: 4,
    quantity: 2,
    use_status: "ended",
  });
  await fx.insertRecord("order", "agent_b", { order_no: "EXPREAD-B1", money: 700, order_time: ORDER_TIME });
  await fx.insertRecord("profit_record", "agent_a", {
    order_no: "EXPREAD-A1",
    page_id: page.id,
    machine_id: machine.id,
    application_id: application.id,
    amount: 1999,
    status: "shared",
    type: "normal",
  });
}, 60_000);
afterAll(() => t?.close());

async function exported(account: string, url: string, lng = "en") {
  const { token } = await fx.client(account);
  const response = await t.app.inject({
    method: "GET",
    url,
    headers: { authorization: `Bearer ${token}`, locale: lng, source: "pc" },
  });
  return { status: response.statusCode, body: response.rawPayload, text: response.body };
}

async function sheetOf(body: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  return workbook.worksheets[0];
}

/** A sheet's row as { header: cell }. */
function record(sheet: ExcelJS.Worksheet, row: number): Record<string, ExcelJS.Cell> {
  const header = sheet.getRow(1);
  const out: Record<string, ExcelJS.Cell> = {};
  header.eachCell((cell, i) => (out[String(cell.value)] = sheet.getRow(row).getCell(i)));
  return out;
}

const headerOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1);

describe("exports read like the screen", () => {
  it("the order list in English: its columns, names, a date cell at Bangkok's clock, words, the currency", async () => {
    const reply = await exported("agent_a", "/merchant/order-export?order_no_like=EXPREAD");
    expect(reply.status).toBe(200);
    const sheet = await sheetOf(reply.body);
    expect(headerOf(sheet)).toEqual([
      "Order number",
      "Device code",
      "Application",
      "Agent",
      "Outlet",
      "Order time (UTC+7)",
      "Pay time (UTC+7)",
      "Pay type",
      "Pay status",
      "Amount",
      "Refund amount",
      "Lane",
      "Quantity",
      "Usage status",
      "Created at (UTC+7)",
    ]);
    // agent_b's order is not there.
    expect(sheet.rowCount).toBe(2);
    const row = record(sheet, 2);
    expect(row["Order number"].value).toBe("EXPREAD-A1");
    expect(row["Device code"].value).toBe("VM-RIV-01");
    expect(row["Application"].value).toBe("Smart Vending Export");
    expect(row["Agent"].value).toBe("Mekong Trading Co.");
    expect(row["Outlet"].value).toBe("Riverside Market");
    // A date cell (exceljs reads a number with a date format as a Date of the sheet's clock, in UTC).
    expect(row["Order time (UTC+7)"].type).toBe(ExcelJS.ValueType.Date);
    expect(row["Order time (UTC+7)"].value).toEqual(new Date("2026-03-15T00:45:30.000Z"));
    expect(row["Order time (UTC+7)"].numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(row["Pay time (UTC+7)"].value).toEqual(new Date("2026-03-15T00:46:05.000Z"));
    expect(row["Pay type"].value).toBe("Online wallet");
    expect(row["Pay status"].value).toBe("Refunded");
    expect(row["Usage status"].value).toBe("Ended");
    expect(row["Amount"].value).toBe(1234.56);
    expect(row["Amount"].numFmt).toBe('"$"#,##0.00');
    expect(row["Refund amount"].value).toBe(20.5);
    expect(row["Quantity"].value).toBe(2);
    expect(row["Lane"].value).toBe(4);
    // Nothing reads as a record's number or a translation key.
    for (const cell of Object.values(row)) expect(String(cell.value)).not.toMatch(/^#\d|^\w+:\w|\.label$/);
  });

  it("in Chinese: Chinese headers and words, the same names, dates and amounts", async () => {
    const reply = await exported("agent_a", "/merchant/order-export?order_no_like=EXPREAD", "zh");
    expect(reply.status).toBe(200);
    const sheet = await sheetOf(reply.body);
    expect(headerOf(sheet)).toEqual([
      "订单号",
      "设备编号",
      "应用",
      "代理商",
      "网点",
      "下单时间（UTC+7）",
      "支付时间（UTC+7）",
      "支付方式",
      "支付状态",
      "金额",
      "退款金额",
      "货道",
      "数量",
      "使用状态",
      "创建时间（UTC+7）",
    ]);
    expect(sheet.rowCount).toBe(2);
    const row = record(sheet, 2);
    expect(row["代理商"].value).toBe("Mekong Trading Co.");
    expect(row["网点"].value).toBe("Riverside Market");
    expect(row["下单时间（UTC+7）"].value).toEqual(new Date("2026-03-15T00:45:30.000Z"));
    expect(row["支付方式"].value).toBe("在线钱包");
    expect(row["支付状态"].value).toBe("已退款");
    expect(row["使用状态"].value).toBe("已结束");
    expect(row["金额"].value).toBe(1234.56);
    expect(row["金额"].numFmt).toBe('"US$"#,##0.00');
  });

  it("agent_b sees its own order only, named as its own agent", async () => {
    const sheet = await sheetOf((await exported("agent_b", "/merchant/order-export?order_no_like=EXPREAD")).body);
    expect(sheet.rowCount).toBe(2);
    const row = record(sheet, 2);
    expect(row["Order number"].value).toBe("EXPREAD-B1");
    expect(row["Agent"].value).toBe("Angkor Supplies");
  });

  it("profit records name their agent, page, device and application", async () => {
    const reply = await exported("agent_a", "/merchant/data-profit-export?order_no_like=EXPREAD");
    expect(reply.status).toBe(200);
    const sheet = await sheetOf(reply.body);
    expect(headerOf(sheet)).toEqual([
      "Order number",
      "Agent",
      "Page",
      "Device",
      "Application",
      "Amount",
      "Reversed",
      "Status",
      "Type",
      "Withdrawable from (UTC+7)",
      "Created at (UTC+7)",
    ]);
    expect(sheet.rowCount).toBe(2);
    const row = record(sheet, 2);
    expect(row["Agent"].value).toBe("Mekong Trading Co.");
    expect(row["Page"].value).toBe("Riverside snacks");
    expect(row["Device"].value).toBe("VM-RIV-01");
    expect(row["Application"].value).toBe("Smart Vending Export");
    expect(row["Amount"].value).toBe(19.99);
    expect(row["Status"].value).toBe("Shared");
    expect(row["Type"].value).toBe("Normal");
  });

  it("CSV reads the same: names, words and the time at Bangkok's clock", async () => {
    const reply = await exported("agent_a", "/merchant/order-export?order_no_like=EXPREAD&format=csv");
    expect(reply.status).toBe(200);
    const lines = reply.text.split("\r\n");
    expect(lines[0]).toBe(
      "\uFEFFOrder number,Device code,Application,Agent,Outlet,Order time (UTC+7),Pay time (UTC+7),Pay type," +
        "Pay status,Amount,Refund amount,Lane,Quantity,Usage status,Created at (UTC+7)",
    );
    expect(lines[1]).toMatch(
      /^EXPREAD-A1,VM-RIV-01,Smart Vending Export,Mekong Trading Co\.,Riverside Market,2026-03-15 00:45:30,2026-03-15 00:46:05,Online wallet,Refunded,1234\.56,20\.50,4,2,Ended,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    expect(lines).toHaveLength(3);
  });

  it("refuses a role without the export permission, and a bad format", async () => {
    // operator_a has no order permissions; agent_a1's role lists orders but may not export them.
    expect((await exported("operator_a", "/merchant/order-export")).status).toBe(403);
    expect((await exported("agent_a1", "/merchant/order-export")).status).toBe(403);
    expect((await exported("agent_a1", "/merchant/order-list")).status).toBe(200);
    expect((await exported("agent_a", "/merchant/order-export?format=ods")).status).toBe(400);
  });

  it("every export has its list's default columns, in the list's order (the console's view of the schema)", async () => {
    const exports = (Object.keys(entitySchemas) as EntityName[]).filter(
      (e) => entitySchemas[e]["x-entity"].calls.export,
    );
    expect(exports.length).toBeGreaterThanOrEqual(3);
    for (const entity of exports) {
      const view = entityView(entity);
      const expected = [
        ...view.columns
          .filter((f) => !f.writeOnly)
          .map((f) => ({ label: translate("en", f.label), time: f.kind === "datetime" })),
        { label: translate("en", "common:fields.created_at"), time: true },
      ].map(({ label, time }) => (time ? `${label} (UTC+7)` : label));
      const reply = await exported("admin", `/merchant/${view.x.calls.export}`);
      expect(reply.status, entity).toBe(200);
      expect(headerOf(await sheetOf(reply.body)), entity).toEqual(expected);
    }
  });
});

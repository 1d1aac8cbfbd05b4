// The generic import (x-import; server/entities/import/, server/domain/imports/): for each entity that
// declares it, its template, a good file (XLSX and CSV), a bad one (every problem by row and column in the
// caller's language, nothing written), the same file twice (created once), headers in Khmer and Thai,
// another agent's related records, a role without the permission (403) and no session (401); each
// template's sample row, made from the schema, checked as it is.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Reply, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";
import type { JsonSchemaEntity } from "../../src/schema/types.ts";
import { importingEntities } from "../../src/schema/imports.ts";
import { EMPTY_DOMAIN } from "../../server/entities/domain.ts";
import { templateWorkbook, type TemplateSource } from "../../server/entities/import/template.ts";
import { modelOf } from "../../server/model/model.ts";

let t: TestApp;
let fx: Fixtures;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  await fx.createRecord("goods_category", "agent_a", { name: "Imp Drinks" });
  await fx.createRecord("goods_category", "agent_b", { name: "Imp Snacks B" });
  await fx.createRecord("shop_group", "agent_a", { name: "Imp Group A" });
  await fx.createRecord("shop_group", "agent_b", { name: "Imp Group B" });
  // An outlet manager of agent_a's: it reads its outlets' records and writes none.
  const outlet = (await fx.createRecord("shop", "agent_a", { name: "Imp Managed" })).id as number;
  await fx.outletManager([outlet]);
}, 60_000);
afterAll(() => t?.close());

interface Problem {
  row: number;
  column: string;
  field: string;
  message: string;
}
interface ImportAnswer {
  rows: number;
  headers: { header: string; field: string | null }[];
  created: number;
  skipped: number;
  problem_count: number;
  problems: Problem[];
}

type Cell = string | number | null;

async function xlsx(headers: string[], rows: Cell[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Sheet");
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvCell = (value: Cell) => {
  const text = value === null ? "" : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const csv = (headers: string[], rows: Cell[][]): Buffer =>
  Buffer.from([headers, ...rows].map((r) => r.map(csvCell).join(",")).join("\r\n"), "utf8");

/** POSTs a file as multipart, the way the console's FormData sends it; no account: no session. */
/** A refusal's field errors (a 400's data). */
const errorsOf = (reply: Reply<ImportAnswer>) =>
  (reply.body.data as unknown as { errors: { field: string; keyword: string; message: string }[] }).errors;

async function upload(
  account: string | undefined,
  call_: string,
  data: Buffer,
  lng = "en",
  name = "file.xlsx",
): Promise<Reply<ImportAnswer>> {
  const headers: Record<string, string> = { locale: lng, source: "pc" };
  if (account) headers.authorization = `Bearer ${(await fx.client(account)).token}`;
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(data)]), name);
  return call<ImportAnswer>(t.app, { method: "POST", url: `/merchant/${call_}`, headers, payload: form });
}

async function count(table: string, column: string, like: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    `select count(*)::int as n from ${table} where ${column} like $1 and deleted_at is null`,
    [like],
  );
  return rows[0].n;
}

it("declares the import calls of goods, devices, outlets and operators", () => {
  expect(importingEntities(entitySchemas as unknown as Record<string, JsonSchemaEntity>)).toEqual([
    "goods",
    "machine",
    "operator",
    "shop",
  ]);
});

/** A role without the permission, an operator and an outlet manager are refused (403), and no session (401); nothing is written. */
async function refused(entity: string, data: Buffer) {
  for (const step of ["check", "confirm"]) {
    const call_ = `${entity}-import-${step}`;
    expect((await upload("agent_a1", call_, data)).status, call_).toBe(403);
    expect((await upload("operator_a", call_, data)).status, call_).toBe(403);
    expect((await upload("manager_a", call_, data)).status, call_).toBe(403);
    expect((await upload(undefined, call_, data)).status, call_).toBe(401);
  }
  const template = await t.app.inject({ method: "GET", url: `/merchant/${entity}-import-template` });
  expect(template.statusCode).toBe(401);
  for (const account of ["agent_a1", "operator_a", "manager_a"]) {
    const { token } = await fx.client(account);
    const asked = await t.app.inject({
      method: "GET",
      url: `/merchant/${entity}-import-template`,
      headers: { authorization: `Bearer ${token}`, locale: "en", source: "pc" },
    });
    expect(asked.statusCode, `${account} ${entity}-import-template`).toBe(403);
  }
}

// ---------------------------------------------------------------- goods

describe("goods import", () => {
  const EN = [
    "Title",
    "Category",
    "Retail price",
    "Cost price",
    "Wholesale price",
    "Stock",
    "Stock warning",
    "Shelf life",
    "Main image",
    "Detail images",
    "Gallery",
    "Description",
  ];
  const FIELDS = [
    "title",
    "cate_id",
    "unit_price",
    "cost_price",
    "down_price",
    "stock",
    "stock_warning",
    "valid_days",
    "pic_url",
    "detail_url",
    "carousel_url",
    "description",
  ];
  const TH = [
    "ชื่อสินค้า",
    "หมวดหมู่",
    "ราคาขายปลีก",
    "ราคาทุน",
    "ราคาส่ง",
    "สต็อก",
    "แจ้งเตือนสต็อก",
    "อายุการเก็บรักษา",
    "รูปหลัก",
    "รูปรายละเอียด",
    "รูปสไลด์",
    "คำอธิบาย",
  ];
  const KM = [
    "ចំណងជើង",
    "ប្រភេទ",
    "តម្លៃលក់រាយ",
    "តម្លៃដើម",
    "តម្លៃលក់ដុំ",
    "ស្តុក",
    "ការព្រមានស្តុក",
    "អាយុកាលទំនិញ",
    "រូបភាពមេ",
    "រូបភាពលម្អិត",
    "វិចិត្រសាលរូបភាព",
    "ការពិពណ៌នា",
  ];
  const good = (title: string, category = "Imp Drinks"): Cell[] => [
    title,
    category,
    "3.50",
    "2",
    "2.80",
    10,
    2,
    30,
    "/uploads/cola.png",
    "/uploads/d1.png, /uploads/d2.png",
    "/uploads/c1.png",
    "Cold and fizzy",
  ];

  it("answers the template in the caller's language, which checks as it is", async () => {
    const { token } = await fx.client("agent_a");
    const reply = await t.app.inject({
      method: "GET",
      url: "/merchant/goods-import-template",
      headers: { authorization: `Bearer ${token}`, locale: "th", source: "pc" },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(reply.rawPayload as unknown as ExcelJS.Buffer);
    expect((workbook.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(TH);
    expect(workbook.worksheets[1].rowCount).toBeGreaterThan(12);
  });

  it("imports a good XLSX file once, however often it is confirmed", async () => {
    const data = await xlsx(EN, [good("IMP Cola"), good("IMP Tea")]);
    const checked = await upload("agent_a", "goods-import-check", data);
    expect(checked.status).toBe(200);
    expect(checked.body.data).toEqual({
      rows: 2,
      headers: EN.map((header, i) => ({ header, field: FIELDS[i] })),
      created: 0,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
    expect(await count("goods", "title", "IMP %")).toBe(0);

    const first = await upload("agent_a", "goods-import-confirm", data);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ rows: 2, created: 2, skipped: 0, problem_count: 0 });
    const { rows } = await t.db.query<Record<string, unknown>>(
      `select title, unit_price, cost_price, down_price, stock, detail_url, agent_id from goods where title = 'IMP Cola'`,
    );
    expect(rows[0]).toMatchObject({
      unit_price: 350,
      cost_price: 200,
      down_price: 280,
      detail_url: ["/uploads/d1.png", "/uploads/d2.png"],
    });
    expect(Number(rows[0].agent_id)).toBe(t.ids.agent_a);
    const { rows: audit } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from sys_audit where entity = 'goods' and action = 'create'
          and record_id in (select id from goods where title like 'IMP %')`,
    );
    expect(audit[0].n).toBe(2);

    const again = await upload("agent_a", "goods-import-confirm", data);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ rows: 2, created: 0, skipped: 2 });
    expect(await count("goods", "title", "IMP %")).toBe(2);
  });

  it("imports a CSV file the same way", async () => {
    const data = csv(EN, [good("IMP CSV Juice")]);
    const reply = await upload("agent_a", "goods-import-confirm", data, "en", "goods.csv");
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ rows: 1, created: 1, skipped: 0 });
  });

  it("reads headers in Khmer and Thai", async () => {
    const km = await upload("agent_a", "goods-import-check", await xlsx(KM, [good("IMP KM")]), "km");
    expect(km.body.data).toMatchObject({ rows: 1, problem_count: 0 });
    const th = await upload("agent_a", "goods-import-confirm", await xlsx(TH, [good("IMP TH")]), "th");
    expect(th.body.data).toMatchObject({ rows: 1, created: 1, problem_count: 0 });
  });

  it("reports every problem by row and column in the caller's language, and writes nothing", async () => {
    const data = await xlsx(EN, [
      good("IMP Bad 1"),
      [null, ...good("x").slice(1)],
      good("IMP Bad 3", "Nope"),
      good("IMP Bad 4", "Imp Snacks B"),
      ["IMP Bad 5", "Imp Drinks", "cheap", ...good("x").slice(3)],
      good("IMP Bad 1"),
      good("IMP Cola").map((v, i) => (i === 5 ? 99 : v)),
      ["IMP Bad 8", "Imp Drinks", "1", "1", "1", -3, 0, 30, "/uploads/a.png", "/uploads/b.png", "/uploads/c.png", "d"],
    ]);
    const en = await upload("agent_a", "goods-import-check", data);
    expect(en.status).toBe(200);
    expect(en.body.data).toEqual({
      rows: 8,
      headers: EN.map((header, i) => ({ header, field: FIELDS[i] })),
      created: 0,
      skipped: 0,
      problem_count: 7,
      problems: [
        { row: 3, column: "Title", field: "title", message: "Title is required" },
        { row: 4, column: "Category", field: "cate_id", message: "No Goods category is named “Nope”" },
        { row: 5, column: "Category", field: "cate_id", message: "No Goods category is named “Imp Snacks B”" },
        { row: 6, column: "Retail price", field: "unit_price", message: "Retail price has the wrong type" },
        { row: 7, column: "Title", field: "title", message: "“IMP Bad 1” is also on row 2" },
        { row: 8, column: "Title", field: "title", message: "“IMP Cola” is already used by another record" },
        { row: 9, column: "Stock", field: "stock", message: "Stock must be at least 0" },
      ],
    });
    const zh = await upload("agent_a", "goods-import-check", data, "zh");
    expect(zh.body.data.problems[1]).toEqual({
      row: 4,
      column: "分类",
      field: "cate_id",
      message: expect.stringContaining("“Nope”") as string,
    });
    expect(zh.body.data.problems[1].message).not.toBe(en.body.data.problems[1].message);
    const confirm = await upload("agent_a", "goods-import-confirm", data);
    expect(confirm.status).toBe(400);
    expect(confirm.body.message).toBe("The file has 7 problems; nothing was imported");
    expect(await count("goods", "title", "IMP Bad%")).toBe(0);
  });

  it("takes a header in words of its own as the user maps it, and remembers the mapping per user", async () => {
    const own = ["Product", ...EN.slice(1)];
    const data = await xlsx(own, [good("IMP Mapped")]);
    const unmapped = await upload("agent_a", "goods-import-check", data);
    expect(unmapped.body.data.headers[0]).toEqual({ header: "Product", field: null });
    expect(unmapped.body.data.problems).toEqual([
      { row: 1, column: "Title", field: "title", message: "This column is missing" },
    ]);
    const mapping = encodeURIComponent(JSON.stringify({ Product: "title" }));
    const mapped = await upload("agent_a", `goods-import-check?mapping=${mapping}`, data);
    expect(mapped.body.data.problem_count).toBe(0);
    expect(mapped.body.data.headers[0]).toEqual({ header: "Product", field: "title" });
    // The check remembers nothing; the confirm does.
    expect((await upload("agent_a", "goods-import-check", data)).body.data.problem_count).toBe(1);
    expect((await upload("agent_a", `goods-import-confirm?mapping=${mapping}`, data)).body.data.created).toBe(1);
    const again = await upload("agent_a", "goods-import-check", await xlsx(own, [good("IMP Mapped 2")]));
    expect(again.body.data.problem_count).toBe(0);
    expect(again.body.data.headers[0]).toEqual({ header: "Product", field: "title" });
    // Another user's mapping is its own.
    const b = await upload("agent_b", "goods-import-check", await xlsx(own, [good("IMP Mapped B", "Imp Snacks B")]));
    expect(b.body.data.problems.map((p) => p.message)).toEqual(["This column is missing"]);
  });

  it("refuses a mapping that is not headers to the entity's import columns, in the caller's language", async () => {
    const data = await xlsx(["Product", ...EN.slice(1)], [good("IMP Badly mapped")]);
    const fields =
      "title, cate_id, unit_price, cost_price, down_price, stock, stock_warning, valid_days, pic_url, detail_url, carousel_url, description";
    for (const sent of ["{not json", "[]", JSON.stringify({ Product: 7 }), JSON.stringify({ Product: "agent_id" })]) {
      for (const callName of ["goods-import-check", "goods-import-confirm"]) {
        const reply = await upload("agent_a", `${callName}?mapping=${encodeURIComponent(sent)}`, data);
        expect(reply.status, `${callName} ${sent}`).toBe(400);
        expect(errorsOf(reply)).toEqual([
          {
            field: "mapping",
            keyword: "badMapping",
            message: `The column mapping is not understood: give each header one of these fields: ${fields}`,
          },
        ]);
      }
    }
    const th = await upload("agent_a", `goods-import-check?mapping=${encodeURIComponent("[]")}`, data, "th");
    expect(errorsOf(th)[0].message).toBe(`ไม่เข้าใจการจับคู่คอลัมน์: ให้แต่ละหัวคอลัมน์เป็นฟิลด์ใดฟิลด์หนึ่งต่อไปนี้: ${fields}`);
    expect(await count("goods", "title", "IMP Badly mapped")).toBe(0);
  });

  it("checks a file of 100,000 rows, the most one may hold, and refuses one more", async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => good(`IMP Bulk ${i}`));
    const checked = await upload("agent_a", "goods-import-check", csv(EN, rows), "en", "bulk.csv");
    expect(checked.body.data).toMatchObject({ rows: 100_000, problem_count: 0, created: 0, skipped: 0 });
    const tooMany = await upload(
      "agent_a",
      "goods-import-check",
      csv(EN, [...rows, good("IMP Bulk x")]),
      "en",
      "b.csv",
    );
    expect(tooMany.status).toBe(400);
    expect(errorsOf(tooMany)[0]).toMatchObject({ field: "file", keyword: "tooMany" });
    expect(await count("goods", "title", "IMP Bulk %")).toBe(0);
  }, 180_000);

  it("writes a file of several batches all or nothing: a problem on its last rows writes none of the first", async () => {
    const rows = Array.from({ length: 4_500 }, (_, i) => good(`IMP Batch ${i}`));
    // Row 4,400 of the file (its 4,399th record) names a category agent_a does not have; row 4,501 repeats row 2.
    const bad = rows.map((r, i) => (i === 4_398 ? good(`IMP Batch ${i}`, "No such group") : r));
    bad.push(good("IMP Batch 0"));
    const refused = await upload("agent_a", "goods-import-confirm", csv(EN, bad), "en", "batches.csv");
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatchObject({ rows: 4_501, created: 0, problem_count: 2 });
    expect(refused.body.data.problems.map((p) => [p.row, p.field])).toEqual([
      [4_400, "cate_id"],
      [4_502, "title"],
    ]);
    expect(await count("goods", "title", "IMP Batch %")).toBe(0);
    const confirmed = await upload("agent_a", "goods-import-confirm", csv(EN, rows), "en", "batches.csv");
    expect(confirmed.body.data).toMatchObject({ rows: 4_500, created: 4_500, skipped: 0, problem_count: 0 });
    expect(await count("goods", "title", "IMP Batch %")).toBe(4_500);
    const again = await upload("agent_a", "goods-import-confirm", csv(EN, rows), "en", "batches.csv");
    expect(again.body.data).toMatchObject({ created: 0, skipped: 4_500 });
    expect(await count("goods", "title", "IMP Batch %")).toBe(4_500);
  }, 180_000);

  it("tells its progress as JSON lines when asked, and ends with the answer's envelope", async () => {
    const rows = Array.from({ length: 6_000 }, (_, i) => good(`IMP Lines ${i}`));
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(csv(EN, rows))]), "lines.csv");
    const headers = {
      authorization: `Bearer ${(await fx.client("agent_a")).token}`,
      locale: "km",
      source: "pc",
      accept: "application/x-ndjson",
    };
    const reply = await t.app.inject({ method: "POST", url: "/merchant/goods-import-check", headers, payload: form });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toContain("application/x-ndjson");
    const lines = reply.body
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { progress?: { rows: number; read: number }; code?: number; data?: unknown });
    const last = lines.pop()!;
    expect(last).toMatchObject({ code: 200, message: "ok", data: { rows: 6_000, problem_count: 0 } });
    // Progress lines (at most five a second: none when the machine is quick), each rows checked and share read.
    for (const line of lines) {
      expect(line.progress!.rows % 2_000).toBe(0);
      expect(line.progress!.read).toBeGreaterThan(0);
      expect(line.progress!.read).toBeLessThanOrEqual(1);
    }
    // A refusal after the reply has started is the last line, with its status as code, in the caller's language.
    const badForm = new FormData();
    badForm.append("file", new Blob([new Uint8Array(csv(EN, [good("IMP Lines x", "No such group")]))]), "b.csv");
    const refused = await t.app.inject({
      method: "POST",
      url: "/merchant/goods-import-confirm",
      headers,
      payload: badForm,
    });
    const envelope = JSON.parse(refused.body.trim().split("\n").pop()!) as { code: number; message: string };
    expect(envelope.code).toBe(400);
    expect(envelope.message).toBe("ឯកសារមានបញ្ហា 1 មិនបាននាំចូលអ្វីទេ");
    expect(await count("goods", "title", "IMP Lines %")).toBe(0);
  });

  it("uses the caller's own related records only: agent_b's category is agent_b's", async () => {
    const data = await xlsx(EN, [good("IMP B Crisps", "Imp Snacks B")]);
    const a = await upload("agent_a", "goods-import-check", data);
    expect(a.body.data.problems.map((p) => p.field)).toEqual(["cate_id"]);
    const b = await upload("agent_b", "goods-import-confirm", data);
    expect(b.body.data).toMatchObject({ created: 1, problem_count: 0 });
    // agent_a's "IMP Cola" is agent_a's: agent_b may have one of its own.
    const cola = await upload("agent_b", "goods-import-check", await xlsx(EN, [good("IMP Cola", "Imp Snacks B")]));
    expect(cola.body.data).toMatchObject({ problem_count: 0, skipped: 0 });
  });

  it("refuses a role without the permission (403) and no session (401)", async () => {
    await refused("goods", await xlsx(EN, [good("IMP Refused")]));
    expect(await count("goods", "title", "IMP Refused")).toBe(0);
  });
});

// ---------------------------------------------------------------- outlets

describe("outlet import", () => {
  const EN = ["Branch name", "Phone", "Group", "Province", "City", "District", "Address", "Longitude", "Latitude"];
  const TH = ["ชื่อสาขา", "เบอร์โทรศัพท์", "กลุ่ม", "จังหวัด", "เมือง", "อำเภอ/เขต", "ที่อยู่", "ลองจิจูด", "ละติจูด"];
  const KM = ["ឈ្មោះសាខា", "លេខទូរស័ព្ទ", "ក្រុម", "ខេត្ត/រាជធានី", "ក្រុង", "ស្រុក/ខណ្ឌ", "អាសយដ្ឋាន", "រយៈបណ្ដោយ", "រយៈទទឹង"];
  const good = (name: string, group: string | null = "Imp Group A"): Cell[] => [
    name,
    "+855 12 345 678",
    group,
    "Phnom Penh",
    "Phnom Penh",
    "Daun Penh",
    "1 Riverside",
    104.92,
    11.56,
  ];

  it("imports a good XLSX and CSV file once, however often it is confirmed", async () => {
    const data = await xlsx(EN, [good("IMP Shop 1"), good("IMP Shop 2", null)]);
    expect((await upload("agent_a", "shop-import-check", data)).body.data).toMatchObject({ rows: 2, problem_count: 0 });
    expect((await upload("agent_a", "shop-import-confirm", data)).body.data).toMatchObject({ created: 2 });
    expect((await upload("agent_a", "shop-import-confirm", data)).body.data).toMatchObject({ created: 0, skipped: 2 });
    const fromCsv = await upload("agent_a", "shop-import-confirm", csv(EN, [good("IMP Shop 3")]), "en", "s.csv");
    expect(fromCsv.body.data).toMatchObject({ created: 1 });
    const { rows } = await t.db.query<{ longitude: number; cate_id: unknown }>(
      `select longitude, cate_id from shop where name = 'IMP Shop 1'`,
    );
    expect(Number(rows[0].longitude)).toBe(104.92);
    expect(await count("shop", "name", "IMP Shop %")).toBe(3);
  });

  it("reads headers in Khmer and Thai", async () => {
    const km = await upload("agent_a", "shop-import-check", await xlsx(KM, [good("IMP Shop KM")]), "km");
    expect(km.body.data).toMatchObject({ rows: 1, problem_count: 0 });
    const th = await upload("agent_a", "shop-import-check", await xlsx(TH, [good("IMP Shop TH")]), "th");
    expect(th.body.data).toMatchObject({ rows: 1, problem_count: 0 });
  });

  it("reports every problem by row and column, another agent's group among them, and writes nothing", async () => {
    const data = await xlsx(EN, [
      good("IMP Shop Bad", "Imp Group B"),
      good("IMP Shop Bad 2").map((v, i) => (i === 1 ? "call me" : i === 7 ? 200 : v)),
      good("IMP Shop 1").map((v, i) => (i === 6 ? "2 Elsewhere" : v)),
    ]);
    const reply = await upload("agent_a", "shop-import-confirm", data);
    expect(reply.status).toBe(400);
    expect(reply.body.data.problems).toEqual([
      { row: 2, column: "Group", field: "cate_id", message: "No Outlet group is named “Imp Group B”" },
      { row: 3, column: "Phone", field: "phone", message: "Phone is not in the right format" },
      { row: 3, column: "Longitude", field: "longitude", message: "Longitude must be at most 180" },
      { row: 4, column: "Branch name", field: "name", message: "“IMP Shop 1” is already used by another record" },
    ]);
    expect(await count("shop", "name", "IMP Shop Bad%")).toBe(0);
    const b = await upload("agent_b", "shop-import-check", await xlsx(EN, [good("IMP Shop B", "Imp Group B")]));
    expect(b.body.data).toMatchObject({ problem_count: 0 });
  });

  it("refuses a role without the permission (403) and no session (401)", async () => {
    await refused("shop", await xlsx(EN, [good("IMP Shop Refused")]));
    expect(await count("shop", "name", "IMP Shop Refused")).toBe(0);
  });
});

// ---------------------------------------------------------------- operators

describe("operator import", () => {
  const EN = ["Nickname", "Account", "Password", "Phone", "Restock permission", "Remark"];
  const TH = ["ชื่อเล่น", "บัญชีผู้ใช้", "รหัสผ่าน", "เบอร์โทรศัพท์", "สิทธิ์เติมสินค้า", "หมายเหตุ"];
  const KM = ["ឈ្មោះហៅក្រៅ", "គណនី", "ពាក្យសម្ងាត់", "លេខទូរស័ព្ទ", "សិទ្ធិបំពេញស្តុក", "កំណត់សម្គាល់"];
  const good = (account: string): Cell[] => [`Op ${account}`, account, "secret123", "+855 11 222 333", 1, null];

  it("imports operators once, who sign in with the file's password", async () => {
    const data = await xlsx(EN, [good("imp_op1"), good("imp_op2")]);
    expect((await upload("agent_a", "operator-import-confirm", data)).body.data).toMatchObject({ created: 2 });
    // The same file again: the same operators (their passwords, stored hashed, aside).
    expect((await upload("agent_a", "operator-import-confirm", data)).body.data).toMatchObject({ skipped: 2 });
    const fromCsv = await upload("agent_a", "operator-import-confirm", csv(EN, [good("imp_op3")]), "en", "o.csv");
    expect(fromCsv.body.data).toMatchObject({ created: 1 });
    const login = await call<{ token: string }>(t.app, {
      method: "POST",
      url: "/merchant/login",
      headers: { source: "pc" },
      payload: { account: "imp_op1", password: "secret123" },
    });
    expect(login.status).toBe(200);
    const { rows } = await t.db.query<{ password: string }>(`select password from operator where account = 'imp_op1'`);
    expect(rows[0].password).not.toBe("secret123");
  });

  it("reads headers in Khmer and Thai", async () => {
    const km = await upload("agent_a", "operator-import-check", await xlsx(KM, [good("imp_op_km")]), "km");
    expect(km.body.data).toMatchObject({ rows: 1, problem_count: 0 });
    const th = await upload("agent_a", "operator-import-check", await xlsx(TH, [good("imp_op_th")]), "th");
    expect(th.body.data).toMatchObject({ rows: 1, problem_count: 0 });
  });

  it("reports every problem by row and column, and writes nothing", async () => {
    const data = await xlsx(EN, [
      good("imp op bad"),
      ["Op short", "imp_op_short", "123", null, 1, null],
      ["Op switch", "imp_op_switch", "secret123", null, 5, null],
      good("imp_op_dup"),
      good("imp_op_dup"),
    ]);
    const reply = await upload("agent_a", "operator-import-check", data);
    expect(reply.body.data.problems).toEqual([
      { row: 2, column: "Account", field: "account", message: "Account is not in the right format" },
      { row: 3, column: "Password", field: "password", message: "Password must have at least 6 characters" },
      { row: 4, column: "Restock permission", field: "refill", message: "“5” is not one of: 0, 1" },
      { row: 6, column: "Account", field: "account", message: "“imp_op_dup” is also on row 5" },
    ]);
    expect((await upload("agent_a", "operator-import-confirm", data)).status).toBe(400);
    expect(await count("operator", "account", "imp_op_dup")).toBe(0);
  });

  it("refuses a role without the permission (403) and no session (401)", async () => {
    await refused("operator", await xlsx(EN, [good("imp_op_refused")]));
    expect(await count("operator", "account", "imp_op_refused")).toBe(0);
  });
});

// ---------------------------------------------------------------- the templates' sample row

describe("the templates' sample row", () => {
  /** A template as the caller downloads it: the file, its first sheet's rows as texts, its notes. */
  async function template(entity: string, lng = "en") {
    const { token } = await fx.client("agent_a");
    const reply = await t.app.inject({
      method: "GET",
      url: `/merchant/${entity}-import-template`,
      headers: { authorization: `Bearer ${token}`, locale: lng, source: "pc" },
    });
    expect(reply.statusCode).toBe(200);
    return read(Buffer.from(reply.rawPayload));
  }
  async function read(data: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
    const [sheet, notes] = workbook.worksheets;
    const texts = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    return { data, rows: sheet.rowCount, header: texts(1), sample: texts(2), notes: notes.getColumn(1).values };
  }
  /** agent_a as the template's source: the principal the server would load for its session. */
  async function agentA(): Promise<TemplateSource> {
    const { rows } = await t.db.query<{ agent_path: string }>(`select agent_path from agent where id = $1`, [
      t.ids.agent_a,
    ]);
    const principal = {
      kind: "agent" as const,
      id: t.ids.agent_a,
      agentId: t.ids.agent_a,
      agentPath: rows[0].agent_path,
      isAdmin: false,
      permissions: new Set<string>(),
      name: "agent_a",
      account: "agent_a",
    };
    return { db: t.db, ctx: { db: t.db, principal, lng: "en", domain: EMPTY_DOMAIN } };
  }

  it("is one row under the header, each column's example from the schema as the file takes it", async () => {
    const goods = await template("goods");
    expect(goods.rows).toBe(2);
    expect(goods.sample).toEqual([
      "Cola 330ml",
      // A category of agent_a's own (the first no other of its records shares).
      "Imp Drinks",
      "3.50",
      "1.80",
      "2.50",
      120,
      10,
      270,
      "/uploads/goods/cola.jpg",
      "/uploads/goods/cola-detail-1.jpg",
      "/uploads/goods/cola-1.jpg, /uploads/goods/cola-2.jpg",
      "Chilled cola in a 330 ml can.",
    ]);
    expect(goods.notes).toContain(
      "Row 2 (grey, in italics) is a sample that passes the check as it is: replace it with your own records, or delete it, before importing.",
    );
    const operator = await template("operator", "th");
    expect(operator.sample).toEqual([
      "Sokha Chan",
      "sokha_ops",
      "restock-2026",
      "+855 17 888 204",
      "1",
      expect.any(String),
    ]);
  });

  it("checks as it is when the template is sent straight back (goods, outlets, operators)", async () => {
    for (const [entity, lng] of [
      ["goods", "th"],
      ["shop", "en"],
      ["operator", "km"],
    ]) {
      const { data } = await template(entity, lng);
      const checked = await upload("agent_a", `${entity}-import-check`, data, lng);
      expect(checked.status, entity).toBe(200);
      expect(checked.body.data, entity).toMatchObject({ rows: 1, problem_count: 0, problems: [] });
    }
  });

  it("given the caller's records, names one of its categories and a title it has not used, and checks as it is", async () => {
    const source = await agentA();
    await fx.createRecord("goods_category", "agent_a", { name: "Imp Sample category" });
    const first = await read(Buffer.from(await templateWorkbook(modelOf("goods"), "en", source)));
    const category = first.sample[1] as string;
    const { rows: own } = await t.db.query(`select id from goods_category where name = $1 and agent_id = $2`, [
      category,
      t.ids.agent_a,
    ]);
    expect(own.length, category).toBe(1);
    const checked = await upload("agent_a", "goods-import-check", first.data);
    expect(checked.body.data).toMatchObject({ rows: 1, problem_count: 0, problems: [] });

    // The example's title taken by a goods of the caller's with other values: the sample's is another.
    const confirmed = await upload("agent_a", "goods-import-confirm", first.data);
    expect(confirmed.body.data).toMatchObject({ created: 1 });
    await t.db.query(`update goods set stock = 7 where title = 'Cola 330ml' and agent_id = $1`, [t.ids.agent_a]);
    const second = await read(Buffer.from(await templateWorkbook(modelOf("goods"), "en", source)));
    expect(second.sample[0]).toBe("Cola 330ml-2");
    const again = await upload("agent_a", "goods-import-check", second.data);
    expect(again.body.data).toMatchObject({ rows: 1, problem_count: 0, problems: [] });
  });
});

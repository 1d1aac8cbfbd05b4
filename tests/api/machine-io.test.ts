// Devices in and out: the QR codes (machine-qrcode), the import (machine-import-template, -check,
// -confirm) and the XLSX / CSV exports (machine-export, order-export, data-profit-export). Each call with
// valid input, invalid input, another agent's records and a role without the permission.
import ExcelJS from "exceljs";
import { unzipSync } from "fflate";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Reply, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";
import { EXPORT } from "../../server/entities/export.ts";
import { IMPORT_HEADERS, importFile } from "../support/import-file.ts";
import { tinyPng } from "../support/files.ts";

let t: TestApp;
let fx: Fixtures;
/** Named records the import files refer to. */
let model: Row, spec: Row, protocol: Row, shopA: Row;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  // Pages of 1,000 rows, so that a few thousand rows cross several.
  EXPORT.page = 1_000;
  model = await fx.createRecord("machine_model", "admin", { name: "IO Model" });
  spec = await fx.createRecord("machine_spec", "admin", { name: "IO Spec" });
  protocol = await fx.createRecord("machine_protocol", "admin", { name: "IO Protocol", code: "IOP" });
  shopA = await fx.createRecord("shop", "agent_a", { name: "IO Outlet A" });
  await fx.createRecord("shop", "agent_b", { name: "IO Outlet B" });
}, 60_000);
afterAll(() => t?.close());

/** A GET answering a file: status, headers and the bytes. */
async function file(account: string, url: string, lng = "en") {
  const { token } = await fx.client(account);
  const response = await t.app.inject({
    method: "GET",
    url,
    headers: { authorization: `Bearer ${token}`, locale: lng, source: "pc" },
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.rawPayload,
    json: () => response.json(),
  };
}

/** POSTs an XLSX file as multipart, the way the console's FormData sends it. */
async function upload<T = ImportAnswer>(account: string, call_: string, data: Buffer, lng = "en"): Promise<Reply<T>> {
  const { token } = await fx.client(account);
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(data)]), "devices.xlsx");
  return call<T>(t.app, {
    method: "POST",
    url: `/merchant/${call_}`,
    headers: { authorization: `Bearer ${token}`, locale: lng, source: "pc" },
    payload: form,
  });
}

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

const xlsx = importFile;

/** The device fields the template's columns fill, in its order (written here apart from the server's). */
const FIELDS = [
  "mac_name",
  "mac_id",
  "kind",
  "model_id",
  "spec_id",
  "protocol_id",
  "shop_id",
  "room_number",
  "expiry_date",
  "remark",
];
/** The answer's headers for a file headed in the template's order. */
const bound = (headers: string[]) => headers.map((header, i) => ({ header, field: FIELDS[i] }));

async function workbookOf(body: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  return workbook;
}

const values = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);

async function countDevices(like: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    `select count(*)::int as n from machine where mac_name like $1 and deleted_at is null`,
    [like],
  );
  return rows[0].n;
}

// ---------------------------------------------------------------- QR codes

describe("machine-qrcode", () => {
  it("answers a PNG for one device and an SVG holding its scan address", async () => {
    const device = await fx.createRecord("machine", "agent_a", { mac_name: "QR-ONE", mac_id: "QRHW000001" });
    const png = await file("agent_a", `/merchant/machine-qrcode?id=${device.id as number}`);
    expect(png.status).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["cache-control"]).toBe("no-store");
    expect(png.headers["content-disposition"]).toBe('attachment; filename="QR-ONE.png"');
    expect(png.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const svg = await file("agent_a", `/merchant/machine-qrcode?id=${device.id as number}&format=svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers["content-type"]).toBe("image/svg+xml");
    // No full domain in the settings: this server's own address (inject's host).
    const expected = await QRCode.toString("http://localhost:80/scan?mac=QR-ONE", {
      type: "svg",
      errorCorrectionLevel: "M",
      margin: 2,
      width: 512,
    });
    expect(svg.body.toString()).toBe(expected);
  });

  it("uses the system setting's full domain", async () => {
    const device = await fx.createRecord("machine", "agent_a", { mac_name: "QR-DOMAIN", mac_id: "QRHW000009" });
    await fx.insertRecord("system_setting", "admin", { singleton_key: "global", full_domain: "https://scan.example/" });
    try {
      const svg = await file("agent_a", `/merchant/machine-qrcode?id=${device.id as number}&format=svg`);
      const expected = await QRCode.toString("https://scan.example/scan?mac=QR-DOMAIN", {
        type: "svg",
        errorCorrectionLevel: "M",
        margin: 2,
        width: 512,
      });
      expect(svg.body.toString()).toBe(expected);
    } finally {
      await t.db.query(`delete from system_setting`);
    }
  });

  it("answers a ZIP with one PNG per device for several", async () => {
    const one = await fx.createRecord("machine", "agent_a", { mac_name: "QR-ZIP-1", mac_id: "QRHW000002" });
    const two = await fx.createRecord("machine", "agent_a", { mac_name: "QR-ZIP-2", mac_id: "QRHW000003" });
    const zip = await file("agent_a", `/merchant/machine-qrcode?id=${one.id as number},${two.id as number}`);
    expect(zip.status).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    expect(String(zip.headers["content-disposition"])).toMatch(
      /^attachment; filename="qrcodes-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const entries = unzipSync(new Uint8Array(zip.body));
    expect(Object.keys(entries).sort()).toEqual(["QR-ZIP-1.png", "QR-ZIP-2.png"]);
    expect(Buffer.from(entries["QR-ZIP-1.png"].subarray(0, 4)).toString("latin1")).toBe("\x89PNG");
  });

  it("answers 404 for another agent's device, 403 without the permission, 400 for bad input", async () => {
    const mine = await fx.createRecord("machine", "agent_a", { mac_name: "QR-MINE", mac_id: "QRHW000004" });
    const theirs = await fx.createRecord("machine", "agent_b", { mac_name: "QR-THEIRS", mac_id: "QRHW000005" });
    expect((await file("agent_a", `/merchant/machine-qrcode?id=${theirs.id as number}`)).status).toBe(404);
    const mixed = await file("agent_a", `/merchant/machine-qrcode?id=${mine.id as number},${theirs.id as number}`);
    expect(mixed.status).toBe(404);
    expect(mixed.json().message).toBe("The record does not exist or is not yours to see");
    expect((await file("admin", `/merchant/machine-qrcode?id=${theirs.id as number}`)).status).toBe(200);
    // operator_a may see devices bound to it, but has no QR code permission.
    const operator = await file("operator_a", `/merchant/machine-qrcode?id=${mine.id as number}`);
    expect(operator.status).toBe(403);
    for (const query of ["", "id=abc", "id=0", `id=${mine.id as number}&format=gif`, `id=${mine.id as number}&x=1`]) {
      const reply = await file("agent_a", `/merchant/machine-qrcode?${query}`);
      expect(reply.status, query).toBe(400);
    }
  });
});

// ---------------------------------------------------------------- import

describe("machine-import-template", () => {
  it("answers the columns, a sample row that passes the check, and notes, in the user's language", async () => {
    const reply = await file("agent_a", "/merchant/machine-import-template", "zh");
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(String(reply.headers["content-disposition"])).toContain('filename="machine-import-template.xlsx"');
    const workbook = await workbookOf(reply.body);
    const [devices, notes] = workbook.worksheets;
    expect(devices.name).toBe("设备");
    expect(values(devices.getRow(1))).toEqual([
      "设备编号",
      "硬件 ID",
      "设备类型",
      "型号",
      "规格",
      "协议",
      "网点",
      "房间号",
      "到期日期",
      "备注",
    ]);
    const sample = values(devices.getRow(2));
    // The schema's example device, its type by its label.
    expect(sample.slice(0, 3)).toEqual(["VM-PP-0012", "864512051234567", "售货机"]);
    // The sample names records the caller may use: its own outlet, never another agent's.
    const outlets = (
      await t.db.query<{ name: string }>(`select name from shop where agent_id = $1 order by id`, [t.ids.agent_a])
    ).rows;
    expect(outlets.map((o) => o.name)).toContain(sample[6]);
    expect(notes.name).toBe("说明");
    expect(values(notes.getRow(1))).toEqual(["列", "必填", "填写说明"]);
    // What a column takes, from the schema: its length, that it is unique, its field's help.
    expect(values(notes.getRow(2))).toEqual([
      "设备编号",
      "是",
      "文字，最多 64 个字符；不可与任何其他记录重复；可使用字母、数字、_ 和 -",
    ]);
    expect(values(notes.getRow(7))).toEqual(["协议", "是", "已有设备协议的名称或编码"]);
    expect(values(notes.getRow(8))).toEqual(["网点", "否", "您已有的网点的名称"]);
    expect(notes.rowCount).toBe(1 + 10 + 1 + 4);

    // Checked as it comes, in another language, the sample row passes.
    const checked = await upload("agent_a", "machine-import-check", reply.body, "en");
    expect(checked.status).toBe(200);
    expect(checked.body.data).toEqual({
      rows: 1,
      headers: bound(values(devices.getRow(1)) as string[]),
      created: 0,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
  });

  it("is refused without the permission and with unknown parameters", async () => {
    expect((await file("operator_a", "/merchant/machine-import-template")).status).toBe(403);
    expect((await file("agent_a", "/merchant/machine-import-template?colour=1")).status).toBe(400);
  });
});

describe("machine-import-check and -confirm", () => {
  const good = (code: string, hw: string, shop: string | null = "IO Outlet A") => [
    code,
    hw,
    "Vending machine",
    "IO Model",
    "IO Spec",
    "IO Protocol",
    shop,
    "B1",
    "2027-12-31",
    "imported",
  ];

  it("reports every bad row by row and column, in the user's language, and writes nothing", async () => {
    await fx.createRecord("machine", "agent_b", { mac_name: "IO-B-LIVE", mac_id: "IOHWB00001" });
    const data = await xlsx([
      good("IO-001", "IOHW000001"),
      ["IO-002", null, "Vending machine", "IO Model", "IO Spec", "IO Protocol", null, null, null, null],
      good("bad name!", "IOHW000003"),
      ["IO-004", "IOHW000004", "toaster", "IO Model", "IO Spec", "IOP", null, null, null, null],
      ["IO-005", "IOHW000005", "vending", "Nope", "IO Spec", "IO Protocol", null, null, null, null],
      good("IO-006", "IOHW000006", "IO Outlet B"),
      good("IO-001", "IOHW000007"),
      good("IO-008", "IOHWB00001"),
      ["IO-009", "IOHW000009", "dryer", "io model", "IO SPEC", "iop", null, null, "2027-02-30", null],
    ]);
    const reply = await upload("agent_a", "machine-import-check", data);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      rows: 9,
      headers: bound(IMPORT_HEADERS),
      created: 0,
      skipped: 0,
      problem_count: 8,
      problems: [
        { row: 3, column: "Hardware ID", field: "mac_id", message: "Hardware ID is required" },
        { row: 4, column: "Device code", field: "mac_name", message: "Device code is not in the right format" },
        {
          row: 5,
          column: "Device type",
          field: "kind",
          message: "“toaster” is not one of: Vending machine, Charging cable, Charging pile, Dryer, Car wash",
        },
        { row: 6, column: "Model", field: "model_id", message: "No Device model is named “Nope”" },
        { row: 7, column: "Outlet", field: "shop_id", message: "No Outlet is named “IO Outlet B”" },
        { row: 8, column: "Device code", field: "mac_name", message: "“IO-001” is also on row 2" },
        { row: 9, column: "Hardware ID", field: "mac_id", message: "“IOHWB00001” is already used by another record" },
        { row: 10, column: "Expiry date", field: "expiry_date", message: "Expiry date is not a valid date" },
      ],
    });
    expect(await countDevices("IO-0%")).toBe(0);
  });

  it("says an empty required cell as a spreadsheet's problem, a relation's too, in the user's language", async () => {
    const data = await xlsx([["IO-050", "IOHW000050", "Dryer", null, "IO Spec", "IOP", null, null, null, null]]);
    const en = await upload("agent_a", "machine-import-check", data);
    expect(en.body.data.problems).toEqual([
      { row: 2, column: "Model", field: "model_id", message: "Model is required" },
    ]);
    const zh = await upload("agent_a", "machine-import-check", data, "zh");
    expect(zh.body.data.problems).toEqual([{ row: 2, column: "型号", field: "model_id", message: "型号不能为空" }]);
  });

  it("finds the impossible date too, and speaks the user's language", async () => {
    const data = await xlsx([
      ["IO-009", "IOHW000009", "dryer", "io model", "IO SPEC", "iop", null, null, "2027-02-30", null],
      ["IO-010", "IOHW000010", "售货机", "IO Model", "IO Spec", "IO Protocol", "IO Outlet B", null, null, null],
    ]);
    const en = await upload("agent_a", "machine-import-check", data);
    expect(en.body.data.problems).toEqual([
      { row: 2, column: "Expiry date", field: "expiry_date", message: "Expiry date is not a valid date" },
      { row: 3, column: "Outlet", field: "shop_id", message: "No Outlet is named “IO Outlet B”" },
    ]);
    const zh = await upload("agent_a", "machine-import-check", data, "zh");
    expect(zh.body.data.problems).toEqual([
      // The format by its name in the language, not the schema's word.
      { row: 2, column: "到期日期", field: "expiry_date", message: "到期日期不是有效的日期" },
      { row: 3, column: "网点", field: "shop_id", message: "没有名为“IO Outlet B”的网点" },
    ]);
    const th = await upload("agent_a", "machine-import-check", data, "th");
    expect(th.body.data.problems[0].message).toBe("วันหมดอายุ ไม่ใช่วันที่ที่ถูกต้อง");
    // The same file from agent_b: its own outlet is known, and nothing else changes.
    const b = await upload("agent_b", "machine-import-check", data);
    expect(b.body.data.problems.map((p) => p.row)).toEqual([2]);
  });

  it("confirming a file with problems writes none of its rows", async () => {
    const data = await xlsx([good("IO-101", "IOHW000101"), good("IO-102", "IOHW000102", "Nowhere")]);
    const reply = await upload("agent_a", "machine-import-confirm", data);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("The file has 1 problem; nothing was imported");
    expect(reply.body.data.problems).toEqual([
      { row: 3, column: "Outlet", field: "shop_id", message: "No Outlet is named “Nowhere”" },
    ]);
    expect(await countDevices("IO-10%")).toBe(0);
  });

  it("writes every row of a good file, and nothing new when the same file comes again", async () => {
    const data = await xlsx([
      good("IO-201", "IOHW000201"),
      good("IO-202", "IOHW000202", null),
      ["IO-203", "IOHW000203", "Charging pile", "IO Model", "IO Spec", "IOP", "IO Outlet A", null, null, null],
    ]);
    const checked = await upload("agent_a", "machine-import-check", data);
    expect(checked.body.data).toEqual({
      rows: 3,
      headers: bound(IMPORT_HEADERS),
      created: 0,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
    expect(await countDevices("IO-20%")).toBe(0);

    const first = await upload("agent_a", "machine-import-confirm", data);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      rows: 3,
      headers: bound(IMPORT_HEADERS),
      created: 3,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
    const { rows } = await t.db.query<Row>(
      `select mac_name, mac_id, kind, model_id, spec_id, protocol_id, shop_id, room_number, remark, agent_id, status, mode
         from machine_live where mac_name like 'IO-20%' order by mac_name`,
    );
    expect(
      rows.map((r) => ({
        ...r,
        model_id: Number(r.model_id),
        spec_id: Number(r.spec_id),
        protocol_id: Number(r.protocol_id),
        shop_id: r.shop_id === null ? null : Number(r.shop_id),
        agent_id: Number(r.agent_id),
      })),
    ).toEqual([
      {
        mac_name: "IO-201",
        mac_id: "IOHW000201",
        kind: "vending",
        model_id: model.id,
        spec_id: spec.id,
        protocol_id: protocol.id,
        shop_id: shopA.id,
        room_number: "B1",
        remark: "imported",
        agent_id: t.ids.agent_a,
        status: "inactive",
        mode: "normal",
      },
      {
        mac_name: "IO-202",
        mac_id: "IOHW000202",
        kind: "vending",
        model_id: model.id,
        spec_id: spec.id,
        protocol_id: protocol.id,
        shop_id: null,
        room_number: "B1",
        remark: "imported",
        agent_id: t.ids.agent_a,
        status: "inactive",
        mode: "normal",
      },
      {
        mac_name: "IO-203",
        mac_id: "IOHW000203",
        kind: "charging_pile",
        model_id: model.id,
        spec_id: spec.id,
        protocol_id: protocol.id,
        shop_id: shopA.id,
        room_number: null,
        remark: null,
        agent_id: t.ids.agent_a,
        status: "inactive",
        mode: "normal",
      },
    ]);
    // Each is audited as created, and shows in agent_a's list.
    const audited = await t.db.query<{ n: number }>(
      `select count(*)::int as n from sys_audit where entity = 'machine' and action = 'create' and record_id in (select id from machine where mac_name like 'IO-20%')`,
    );
    expect(audited.rows[0].n).toBe(3);
    const list = await (
      await fx.client("agent_a")
    ).get<{ total: number }>("/merchant/machine-list?mac_name_like=IO-20");
    expect(list.body.data.total).toBe(3);

    const again = await upload("agent_a", "machine-import-confirm", data);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({
      rows: 3,
      headers: bound(IMPORT_HEADERS),
      created: 0,
      skipped: 3,
      problem_count: 0,
      problems: [],
    });
    expect(await countDevices("IO-20%")).toBe(3);

    // agent_b sends the same file: the devices exist, but are not its own: duplicates, nothing written.
    const other = await upload("agent_b", "machine-import-confirm", data);
    expect(other.status).toBe(400);
    // Each device code and hardware id is taken, and agent_a's outlet is not agent_b's.
    expect(other.body.data.problem_count).toBe(8);
    expect(other.body.data.problems.map((p) => `${p.row} ${p.field}`)).toEqual([
      "2 mac_name",
      "2 mac_id",
      "2 shop_id",
      "3 mac_name",
      "3 mac_id",
      "4 mac_name",
      "4 mac_id",
      "4 shop_id",
    ]);
    expect(await countDevices("IO-20%")).toBe(3);
  });

  it("reads a CSV file like a workbook: its header names the columns, each line a device", async () => {
    const header = "Device code,Hardware ID,Device type,Model,Spec,Protocol,Outlet,Room number,Expiry date,Remark";
    const line = (row: (string | null)[]) => row.map((v) => (v?.includes(",") ? `"${v}"` : (v ?? ""))).join(",");
    const csv = Buffer.from(
      `\uFEFF${header}\r\n${line(good("IO-CSV1", "IOHWCSV001"))}\r\n${line(good("IO-CSV2", "IOHWCSV002", null))}\r\n`,
    );
    const checked = await upload("agent_a", "machine-import-check", csv);
    expect(checked.body.data).toEqual({
      rows: 2,
      // "Room number" is not the room's header ("Room"): told, for the console to offer it by hand.
      headers: bound(header.split(",")).map((h) => (h.header === "Room number" ? { ...h, field: null } : h)),
      created: 0,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
    const confirmed = await upload("agent_a", "machine-import-confirm", csv);
    expect(confirmed.body.data).toEqual({
      rows: 2,
      // "Room number" is not the room's header ("Room"): told, for the console to offer it by hand.
      headers: bound(header.split(",")).map((h) => (h.header === "Room number" ? { ...h, field: null } : h)),
      created: 2,
      skipped: 0,
      problem_count: 0,
      problems: [],
    });
    expect(await countDevices("IO-CSV%")).toBe(2);
  });

  it("never answers 500 when a device of the file is added by hand while it is imported (PostgreSQL races them)", async () => {
    const agent = await fx.client("agent_a");
    const base = await fx.makeRecord("machine", "agent_a");
    for (let round = 0; round < 8; round++) {
      const code = `IO-RACE${round}`;
      const hardware = `IOHWRACE0${round}`;
      const file = await xlsx([good(code, hardware)]);
      const [confirmed, added] = await Promise.all([
        upload("agent_a", "machine-import-confirm", file),
        agent.post("/merchant/machine-add", { ...base, mac_name: code, mac_id: hardware }),
      ]);
      // One of the two makes the device; the other is refused in words, never with a 500: the add by the
      // unique code, the import by a problem of the device's row (found by its check, or, added between
      // its check and its insert, by the unique index).
      if (confirmed.status === 200) expect(added.status).toBe(400);
      else {
        expect(added.status).toBe(200);
        expect(confirmed.status).toBe(400);
        // By the check: both its codes; by the unique index: the one it names.
        const problems = confirmed.body.data.problems;
        expect(problems.length).toBeGreaterThan(0);
        for (const problem of problems)
          expect(problem).toEqual(
            problem.field === "mac_name"
              ? {
                  row: 2,
                  column: "Device code",
                  field: "mac_name",
                  message: `“${code}” is already used by another record`,
                }
              : {
                  row: 2,
                  column: "Hardware ID",
                  field: "mac_id",
                  message: `“${hardware}” is already used by another record`,
                },
          );
      }
      expect(await countDevices(code)).toBe(1);
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "names the row of a device added by hand between the confirm's check and its insert",
    async () => {
      const file = await xlsx([good("IO-HELD1", "IOHWHELD01"), good("IO-HELD2", "IOHWHELD02")]);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let added!: () => void;
      const inserted = new Promise<void>((resolve) => (added = resolve));
      // Another connection adds the second device and holds its transaction open.
      const other = t.db.transaction(async (tx) => {
        await tx.query(
          `insert into machine (mac_name, mac_id, kind, model_id, spec_id, protocol_id, agent_id, agent_path)
             select 'IO-HELD2', 'IOHWHELD99', 'vending', $1, $2, $3, id, agent_path from agent where account = 'agent_a'`,
          [model.id, spec.id, protocol.id],
        );
        added();
        await held;
      });
      await inserted;
      const confirming = upload("agent_a", "machine-import-confirm", file);
      // The confirm's check does not see the uncommitted device; its insert waits on the unique index.
      for (;;) {
        const { rows } = await t.db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      await other;
      const confirmed = await confirming;
      expect(confirmed.status).toBe(400);
      expect(confirmed.body.data).toMatchObject({ created: 0, problem_count: 1 });
      expect(confirmed.body.data.problems).toEqual([
        { row: 3, column: "Device code", field: "mac_name", message: "“IO-HELD2” is already used by another record" },
      ]);
      expect(await countDevices("IO-HELD1")).toBe(0);
      expect(await countDevices("IO-HELD2")).toBe(1);
    },
  );

  it("takes a header in words of the file's own as the user maps it, and remembers it for that user", async () => {
    // The device code's column headed as an accounting system's export heads it.
    const headers = ["Kode mesin", ...IMPORT_HEADERS.slice(1)];
    const data = await importFile([good("IO-MAP1", "IOHWMAP001")], headers);
    const unmapped = await upload("agent_a", "machine-import-check", data);
    expect(unmapped.status).toBe(200);
    expect(unmapped.body.data.headers[0]).toEqual({ header: "Kode mesin", field: null });
    expect(unmapped.body.data.headers[1]).toEqual({ header: "Hardware ID", field: "mac_id" });
    expect(unmapped.body.data.problems).toEqual([
      { row: 1, column: "Device code", field: "mac_name", message: "This column is missing" },
    ]);
    const mapping = `?mapping=${encodeURIComponent(JSON.stringify({ "Kode mesin": "mac_name" }))}`;
    const mapped = await upload("agent_a", `machine-import-check${mapping}`, data);
    expect(mapped.body.data).toMatchObject({ rows: 1, problem_count: 0 });
    expect(mapped.body.data.headers[0]).toEqual({ header: "Kode mesin", field: "mac_name" });
    expect(await countDevices("IO-MAP%")).toBe(0);
    const confirmed = await upload("agent_a", `machine-import-confirm${mapping}`, data);
    expect(confirmed.body.data).toMatchObject({ created: 1, problem_count: 0 });
    expect(await countDevices("IO-MAP1")).toBe(1);
    // The next file with the same header checks without the mapping being sent again: for agent_a only.
    const next = await importFile([good("IO-MAP2", "IOHWMAP002")], headers);
    const remembered = await upload("agent_a", "machine-import-check", next);
    expect(remembered.body.data).toMatchObject({ rows: 1, problem_count: 0 });
    const other = await upload("agent_b", "machine-import-check", next);
    expect(other.body.data.problems.filter((p) => p.row === 1).map((p) => p.field)).toEqual(["mac_name"]);
    // A mapping to what is not a device import field is refused, in the caller's language.
    const bad = await upload(
      "agent_a",
      `machine-import-check?mapping=${encodeURIComponent(JSON.stringify({ "Kode mesin": "agent_id" }))}`,
      next,
    );
    expect(bad.status).toBe(400);
    expect((bad.body.data as unknown as { errors: { field: string; message: string }[] }).errors).toEqual([
      {
        field: "mapping",
        keyword: "badMapping",
        message:
          "The column mapping is not understood: give each header one of these fields: mac_name, mac_id, kind, model_id, spec_id, protocol_id, shop_id, room_number, expiry_date, remark",
      },
    ]);
  });

  it("quotes at most 100 characters of a cell in a problem, however long the cell", async () => {
    const long = `Unknown model ${"x".repeat(100_000)}`;
    const reply = await upload(
      "agent_a",
      "machine-import-check",
      await xlsx([
        ["IO-LONG1", "IOHWLONG01", "Vending machine", long, "IO Spec", "IO Protocol", null, null, null, null],
      ]),
    );
    expect(reply.status).toBe(200);
    const [problem] = reply.body.data.problems;
    expect(problem).toMatchObject({ row: 2, field: "model_id" });
    expect(problem.message).toContain(`Unknown model ${"x".repeat(85)}…`);
    expect(problem.message).not.toContain("x".repeat(86));
    expect(reply.raw.length).toBeLessThan(2_000);
  });

  it("refuses what is not a spreadsheet, an empty one, a missing column, and a role without the permission", async () => {
    const notSheet = [
      { keyword: "notSheet", message: "The file is not a spreadsheet: upload an Excel workbook (.xlsx) or a CSV file" },
    ];
    for (const data of [tinyPng(), Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]), Buffer.from("PK\u0003\u0004broken")]) {
      const refused = await upload("agent_a", "machine-import-check", data);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toEqual({ errors: notSheet.map((e) => ({ field: "file", ...e })) });
    }
    const big = await upload("agent_a", "machine-import-check", Buffer.alloc(20 * 1024 * 1024 + 1, 1));
    expect(big.status).toBe(400);
    expect(big.body.data).toEqual({
      errors: [{ field: "file", keyword: "tooLarge", message: "The file is larger than 20 MB" }],
    });
    const empty = await upload("agent_a", "machine-import-check", await xlsx([]));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Please correct the highlighted fields");
    const noColumn = await upload(
      "agent_a",
      "machine-import-check",
      await xlsx(
        [["IO-301", "Vending machine", "IO Model", "IO Spec", "IO Protocol"]],
        ["Device code", "Device type", "Model", "Spec", "Protocol"],
      ),
    );
    expect(noColumn.body.data.problems).toEqual([
      { row: 1, column: "Hardware ID", field: "mac_id", message: "This column is missing" },
    ]);
    const { token } = await fx.client("agent_a");
    const json = await call(t.app, {
      method: "POST",
      url: "/merchant/machine-import-check",
      headers: { authorization: `Bearer ${token}`, locale: "en" },
      payload: { file: "x" },
    });
    expect(json.status).toBe(400);
    const data = await xlsx([good("IO-401", "IOHW000401")]);
    expect((await upload("operator_a", "machine-import-check", data)).status).toBe(403);
    expect((await upload("operator_a", "machine-import-confirm", data)).status).toBe(403);
    // An outlet manager reads its outlets' devices and writes none.
    const outlet = (await fx.createRecord("shop", "agent_a", { name: "IO Managed" })).id as number;
    await fx.outletManager([outlet]);
    for (const call_ of ["machine-import-check", "machine-import-confirm"])
      expect((await upload("manager_a", call_, data)).status, call_).toBe(403);
    expect((await file("manager_a", "/merchant/machine-import-template")).status).toBe(403);
    expect(await countDevices("IO-401")).toBe(0);
  });
});

/** A device of the owner's with takings: one paid order of that amount (its takings are worked out from orders). */
async function deviceWithTakings(owner: "agent_a" | "agent_b", values: Row, takings = 0): Promise<Row> {
  const device = await fx.insertRecord("machine", owner, values);
  if (takings > 0)
    await fx.insertRecord("order", owner, {
      machine_id: device.id,
      money: takings,
      refund_money: 0,
      pay_status: "paid",
      pay_time: new Date().toISOString(),
    });
  return device;
}

// ---------------------------------------------------------------- exports

describe("exports", () => {
  it("machine-export: translated headers, neutralised formula cells, the filters and the caller's scope", async () => {
    await deviceWithTakings("agent_a", { mac_name: "=EXP(1)", mac_id: "EXPHW00001" }, 123456);
    await deviceWithTakings("agent_a", { mac_name: "+EXP-2", mac_id: "EXPHW00002" }, 5);
    await fx.insertRecord("machine", "agent_b", { mac_name: "@EXP-B", mac_id: "EXPHW00003" });
    const reply = await file("agent_a", "/merchant/machine-export?mac_name_like=EXP");
    expect(reply.status).toBe(200);
    expect(reply.headers["cache-control"]).toBe("no-store");
    expect(reply.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(String(reply.headers["content-disposition"])).toMatch(
      /^attachment; filename="machine-\d{4}-\d{2}-\d{2}\.xlsx"; filename\*=UTF-8''Device-\d{4}-\d{2}-\d{2}\.xlsx$/,
    );
    const sheet = (await workbookOf(reply.body)).worksheets[0];
    const header = values(sheet.getRow(1)) as string[];
    // The list's default columns: the record's number, hidden on screen, is not among them.
    expect(header.slice(0, 3)).toEqual(["Device code", "Hardware ID", "Device type"]);
    expect(sheet.rowCount).toBe(3);
    const code = header.indexOf("Device code") + 1;
    const money = header.indexOf("Total turnover") + 1;
    expect(money).toBeGreaterThan(0);
    expect(sheet.getRow(2).getCell(code).value).toBe("'+EXP-2");
    expect(sheet.getRow(3).getCell(code).value).toBe("'=EXP(1)");
    expect(sheet.getRow(3).getCell(money).value).toBe(1234.56);
    expect(sheet.getRow(3).getCell(money).numFmt).toBe("#,##0.00");
    expect(sheet.getRow(2).getCell(money).value).toBe(0.05);

    // In Chinese, the headers are Chinese; agent_b sees only its own.
    const zh = await file("agent_b", "/merchant/machine-export?mac_name_like=EXP", "zh");
    const zhSheet = (await workbookOf(zh.body)).worksheets[0];
    expect((values(zhSheet.getRow(1)) as string[]).slice(0, 2)).toEqual(["设备编号", "硬件 ID"]);
    expect(zhSheet.rowCount).toBe(2);
    expect(zhSheet.getRow(2).getCell(1).value).toBe("'@EXP-B");
  });

  it("format=csv keeps CSV, neutralised the same way; a bad format or a missing permission is refused", async () => {
    await deviceWithTakings("agent_a", { mac_name: "-CSV-1", mac_id: "CSVHW00001" }, 250);
    const reply = await file("agent_a", "/merchant/machine-export?mac_name_like=CSV-1&format=csv");
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const text = reply.body.toString("utf8");
    const lines = text.split("\r\n");
    expect(lines[0].startsWith("\uFEFFDevice code,Hardware ID,")).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith("'-CSV-1,CSVHW00001,")).toBe(true);
    expect(lines[1]).toContain(",2.50,");
    expect((await file("agent_a", "/merchant/machine-export?format=pdf")).status).toBe(400);
    expect((await file("agent_a", "/merchant/machine-export?colour=red")).status).toBe(400);
    expect((await file("operator_a", "/merchant/machine-export")).status).toBe(403);
  });

  it("order-export pages through every row once, in the list's order, money as amounts", async () => {
    const device = await fx.createRecord("machine", "agent_a", { mac_name: "EXP-ORDERS", mac_id: "EXPHW00100" });
    const { id: agentId, path } = await fx.owner("agent_a");
    // 2,345 orders with one order time, to the microsecond (now() in one statement): ties broken by id
    // across the 1,000-row pages, the time compared at its full precision (a JavaScript Date has ms only).
    await t.db.query(
      `insert into "order" (order_no, machine_id, order_time, pay_status, money, agent_id, agent_path)
       select 'EXPO' || lpad(g::text, 6, '0'), $1, now(), 'paid', g, $2, $3 from generate_series(1, 2345) g`,
      [device.id, agentId, path],
    );
    await fx.insertRecord("order", "agent_b", { order_no: "EXPO-B", money: 1 });
    const reply = await file("agent_a", "/merchant/order-export?order_no_like=EXPO");
    expect(reply.status).toBe(200);
    const sheet = (await workbookOf(reply.body)).worksheets[0];
    expect(sheet.rowCount).toBe(1 + 2345);
    const header = values(sheet.getRow(1)) as string[];
    const no = header.indexOf("Order number") + 1;
    const money = header.indexOf("Amount") + 1;
    expect(no).toBeGreaterThan(0);
    expect(money).toBeGreaterThan(0);
    const numbers = new Set<string>();
    let sum = 0;
    sheet.eachRow((row, i) => {
      if (i === 1) return;
      numbers.add(String(row.getCell(no).value));
      sum += Number(row.getCell(money).value);
    });
    expect(numbers.size).toBe(2345);
    expect(numbers.has("EXPO-B")).toBe(false);
    expect(Math.round(sum * 100)).toBe((2345 * 2346) / 2);
    // Same order time for all: by id, newest first.
    expect(sheet.getRow(2).getCell(no).value).toBe("EXPO002345");
    expect(sheet.getRow(2346).getCell(no).value).toBe("EXPO000001");
    expect(sheet.getRow(2).getCell(money).value).toBe(23.45);
  });

  it("data-profit-export: the caller's profit records, amounts in currency units", async () => {
    await fx.insertRecord("profit_record", "agent_a", { order_no: "=PROFIT-A", amount: 1999 });
    await fx.insertRecord("profit_record", "agent_b", { order_no: "PROFIT-B", amount: 1 });
    const reply = await file("agent_a", "/merchant/data-profit-export?order_no_like=PROFIT", "th");
    expect(reply.status).toBe(200);
    const sheet = (await workbookOf(reply.body)).worksheets[0];
    expect(sheet.rowCount).toBe(2);
    const header = values(sheet.getRow(1)) as string[];
    const th = (await import("../../locales/th/profit_record.json", { with: { type: "json" } })).default as {
      fields: Record<string, { label: string }>;
    };
    expect(header).toContain(th.fields.amount.label);
    expect(sheet.getRow(2).getCell(header.indexOf(th.fields.order_no.label) + 1).value).toBe("'=PROFIT-A");
    expect(sheet.getRow(2).getCell(header.indexOf(th.fields.amount.label) + 1).value).toBe(19.99);
    expect((await file("operator_a", "/merchant/data-profit-export")).status).toBe(403);
  });
});

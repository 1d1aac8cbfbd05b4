// The device import and export over 10,000 rows (issue 11: "checking 10,000 rows takes seconds"): a
// generated XLSX file checked, then confirmed, through the HTTP route as an agent, on a fresh database
// (PGlite, or PostgreSQL with DATABASE_URL); then the 10,000 devices exported as XLSX.
import ExcelJS from "exceljs";
import { performance } from "node:perf_hooks";
import { call, createTestApp } from "../api/helper.ts";
import { Fixtures } from "../api/fixtures.ts";

export type Row = [string, string];

export async function benchImport(rowsInFile = 10_000, log: (line: string) => void = () => {}): Promise<Row[]> {
  const t = await createTestApp();
  try {
    const fx = new Fixtures(t);
    await fx.createRecord("machine_model", "admin", { name: "Bench Model" });
    await fx.createRecord("machine_spec", "admin", { name: "Bench Spec" });
    await fx.createRecord("machine_protocol", "admin", { name: "Bench Protocol", code: "BENCH" });
    for (let i = 0; i < 20; i++) await fx.createRecord("shop", "agent_a", { name: `Bench Outlet ${i}` });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Devices");
    sheet.addRow([
      "Device code",
      "Hardware ID",
      "Device type",
      "Model",
      "Spec",
      "Protocol",
      "Outlet",
      "Room",
      "Expiry date",
      "Remark",
    ]);
    for (let i = 0; i < rowsInFile; i++) {
      const n = String(i).padStart(6, "0");
      sheet.addRow([
        `BENCH-${n}`,
        `BENCHHW${n}`,
        "Vending machine",
        "Bench Model",
        "Bench Spec",
        "BENCH",
        `Bench Outlet ${i % 20}`,
        "B1",
        "2027-12-31",
        "bench",
      ]);
    }
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    log(`import bench: a ${(data.length / 1024).toFixed(0)} KB file of ${rowsInFile.toLocaleString("en")} rows`);
    const { token } = await fx.client("agent_a");
    const post = async (name: string) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(data)]), "devices.xlsx");
      const start = performance.now();
      const reply = await call<{ created: number; problem_count: number }>(t.app, {
        method: "POST",
        url: `/merchant/${name}`,
        headers: { authorization: `Bearer ${token}`, locale: "en" },
        payload: form,
      });
      const ms = performance.now() - start;
      if (reply.status !== 200 || reply.body.data.problem_count !== 0)
        throw new Error(`${name}: ${reply.status} ${reply.raw.slice(0, 500)}`);
      return { ms, created: reply.body.data.created };
    };
    const check = await post("machine-import-check");
    const confirm = await post("machine-import-confirm");
    const again = await post("machine-import-confirm");
    const start = performance.now();
    const exported = await t.app.inject({
      method: "GET",
      url: "/merchant/machine-export?mac_name_like=BENCH-",
      headers: { authorization: `Bearer ${token}`, locale: "en" },
    });
    const exportMs = performance.now() - start;
    const rows = rowsInFile.toLocaleString("en");
    return [
      [`device import: check ${rows} rows (target: seconds)`, `${(check.ms / 1000).toFixed(2)} s`],
      [`device import: confirm ${rows} rows (created ${confirm.created})`, `${(confirm.ms / 1000).toFixed(2)} s`],
      [`device import: the same file again (created ${again.created})`, `${(again.ms / 1000).toFixed(2)} s`],
      [
        `device export: ${rows} devices as XLSX (${(exported.rawPayload.length / 1024).toFixed(0)} KB)`,
        `${(exportMs / 1000).toFixed(2)} s`,
      ],
    ];
  } finally {
    await t.close();
  }
}

// The device import and export over 10,000 rows (issue 11: "checking 10,000 rows takes seconds"): a
// generated XLSX file checked, then confirmed, through the HTTP route as an agent, on a fresh database
// (PGlite, or PostgreSQL with DATABASE_URL); then the 10,000 devices exported as XLSX, and 200,000 orders
// exported over a real socket (read and dropped as they come) while the server's memory is sampled.
import ExcelJS from "exceljs";
import { performance } from "node:perf_hooks";
import { call, createTestApp, type TestApp } from "../api/helper.ts";
import { Fixtures } from "../api/fixtures.ts";
import { setRollupTriggers } from "../../server/db/rollups.ts";
import { importFile } from "../support/import-file.ts";

export type Row = [string, string];

export async function benchImport(rowsInFile = 10_000, log: (line: string) => void = () => {}): Promise<Row[]> {
  const t = await createTestApp();
  try {
    const fx = new Fixtures(t);
    await fx.createRecord("machine_model", "admin", { name: "Bench Model" });
    await fx.createRecord("machine_spec", "admin", { name: "Bench Spec" });
    await fx.createRecord("machine_protocol", "admin", { name: "Bench Protocol", code: "BENCH" });
    for (let i = 0; i < 20; i++) await fx.createRecord("shop", "agent_a", { name: `Bench Outlet ${i}` });
    const fileRows: string[][] = [];
    for (let i = 0; i < rowsInFile; i++) {
      const n = String(i).padStart(6, "0");
      fileRows.push([
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
    const data = await importFile(fileRows);
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
    const big = await exportOrders(t, 200_000, token, log);
    return [
      ...big,
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

/** Exports `count` orders as XLSX over HTTP, the body read and dropped; answers the time and the peak RSS growth. */
async function exportOrders(t: TestApp, count: number, token: string, log: (line: string) => void): Promise<Row[]> {
  const fx = new Fixtures(t);
  const device = await fx.createRecord("machine", "agent_a", { mac_name: "BENCH-EXPORT", mac_id: "BENCHEXPORT1" });
  const { id, path } = await fx.owner("agent_a");
  // A bulk load, as the demo seed does it: the roll-up triggers set aside (they cost a statement a row).
  await setRollupTriggers(t.db, false);
  await t.db.query(
    `insert into "order" (order_no, machine_id, order_time, pay_status, money, agent_id, agent_path)
     select 'BX' || lpad(g::text, 8, '0'), $1, now() - make_interval(secs => g), 'paid', 100 + g % 5000, $2, $3
       from generate_series(1, $4::int) g`,
    [device.id, id, path, count],
  );
  await setRollupTriggers(t.db, true);
  log(`export bench: ${count.toLocaleString("en")} orders inserted`);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  global.gc?.();
  const before = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = before;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 50);
  const start = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/merchant/order-export?order_no_like=BX`, {
    headers: { authorization: `Bearer ${token}`, locale: "en" },
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const ms = performance.now() - start;
  clearInterval(sampler);
  if (response.status !== 200) throw new Error(`order-export: ${response.status}`);
  return [
    [
      `order export: ${count.toLocaleString("en")} rows as XLSX, streamed (${(bytes / 1024 / 1024).toFixed(1)} MB)`,
      `${(ms / 1000).toFixed(1)} s`,
    ],
    [
      "  server RSS before it, and its peak during it (sampled every 50 ms)",
      `${(before / 1024 / 1024).toFixed(0)} MiB, ${(peak / 1024 / 1024).toFixed(0)} MiB`,
    ],
    [
      "  JavaScript heap in use before it, and its peak during it",
      `${(heapBefore / 1024 / 1024).toFixed(0)} MiB, ${(heapPeak / 1024 / 1024).toFixed(0)} MiB`,
    ],
  ];
}

/**
 * The generic import at scale (issue 33): a goods workbook of `rowsInFile` rows checked, confirmed and
 * confirmed again by agent_a through the HTTP route on a fresh database, with the JavaScript heap held
 * sampled during each, after a full collection every 250 ms (the file is checked a batch at a time as it
 * is read, so what is held should not grow with it).
 */
export async function benchGoodsImport(rowsInFile = 100_000, log: (line: string) => void = () => {}): Promise<Row[]> {
  const t = await createTestApp();
  try {
    const fx = new Fixtures(t);
    for (let i = 0; i < 20; i++) await fx.createRecord("goods_category", "agent_a", { name: `Bench Group ${i}` });
    // Built apart, so the workbook's model is garbage before the heap is first measured.
    const data = await goodsWorkbook(rowsInFile);
    log(
      `goods import bench: a ${(data.length / 1024).toFixed(0)} KB workbook of ${rowsInFile.toLocaleString("en")} rows`,
    );
    const { token } = await fx.client("agent_a");
    const post = async (name: string) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(data)]), "goods.xlsx");
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      let samples = 0;
      // With --expose-gc (npm run bench), each sample follows a full collection: what is held, not garbage.
      const retained = Boolean(global.gc);
      const sampler = setInterval(
        () => {
          if (retained) global.gc!();
          samples++;
          heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        },
        retained ? 250 : 20,
      );
      const start = performance.now();
      const reply = await t.app.inject({
        method: "POST",
        url: `/merchant/${name}`,
        headers: { authorization: `Bearer ${token}`, locale: "en", accept: "application/x-ndjson" },
        payload: form,
      });
      const ms = performance.now() - start;
      clearInterval(sampler);
      const lines = reply.body.trim().split("\n");
      const envelope = JSON.parse(lines.at(-1)!) as { code: number; data: { created: number; problem_count: number } };
      if (envelope.code !== 200 || envelope.data.problem_count !== 0)
        throw new Error(`${name}: ${reply.statusCode} ${reply.body.slice(-500)}`);
      const growth = (heapPeak - heapBefore) / 1024 / 1024;
      log(
        `${name}: ${(ms / 1000).toFixed(1)} s, ${lines.length - 1} progress lines, heap ${(heapBefore / 1024 / 1024).toFixed(0)} MiB +${growth.toFixed(1)} MiB (${samples} samples)`,
      );
      return { ms, growth, created: envelope.data.created, progress: lines.length - 1 };
    };
    const check = await post("goods-import-check");
    const confirm = await post("goods-import-confirm");
    const again = await post("goods-import-confirm");
    const rows = rowsInFile.toLocaleString("en");
    const figure = (r: { ms: number; growth: number }) =>
      `${(r.ms / 1000).toFixed(1)} s, heap +${r.growth.toFixed(0)} MiB`;
    return [
      [`goods import: check ${rows} rows (${check.progress} progress lines; target: seconds)`, figure(check)],
      [`goods import: confirm ${rows} rows (created ${confirm.created})`, figure(confirm)],
      [`goods import: the same file again (created ${again.created})`, figure(again)],
    ];
  } finally {
    await t.close();
  }
}

/** A goods workbook of `rows` rows, its headers the field names, across 20 categories. */
async function goodsWorkbook(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Goods");
  sheet.addRow([
    "title",
    "cate_id",
    "unit_price",
    "cost_price",
    "down_price",
    "stock",
    "pic_url",
    "detail_url",
    "carousel_url",
    "description",
  ]);
  for (let i = 0; i < rows; i++)
    sheet.addRow([
      `Bench good ${String(i).padStart(6, "0")}`,
      `Bench Group ${i % 20}`,
      "3.50",
      "2.00",
      "3.00",
      i % 100,
      "/uploads/bench.png",
      "/uploads/bench-1.png, /uploads/bench-2.png",
      "/uploads/bench-3.png",
      `A good of the bench, number ${i}`,
    ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// Backup and restore (issue 34, README "Operations"): the demo business with its uploaded files written to
// one file and brought back into an empty database of the other engine, every table's rows, every file and
// every balance as they were; a file from an older version brought up to this one; a file cut short, not
// ours, damaged or from a newer version refused in words, the target untouched. On PostgreSQL (DATABASE_URL)
// the round trips are PostgreSQL → file → PGlite → file → PostgreSQL; on PGlite, PGlite → file → PGlite.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type Db } from "../../server/db/db.ts";
import { openDatabase } from "../support/template-db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { checkBackup, restoreBackup, writeBackup, type BackupSummary } from "../../server/db/backup.ts";
import { differences } from "../../server/domain/money/ledger.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { buildApp } from "../../server/app.ts";
import { call, openTestDb } from "./helper.ts";

const url = process.env.DATABASE_URL;
let source: { db: Db; drop: () => Promise<void> };
let dir: string;
/** The data folder of the source: its uploaded files. */
let sourceData: string;
/** The files put there, by path, and their bytes. */
const files = new Map<string, Buffer>();
/** Databases opened by the tests, closed (and their schemas dropped) at the end. */
const opened: { db: Db; drop: () => Promise<void> }[] = [];

/**
 * An empty database of the engine asked for: PGlite in memory (a copy of the run's migrated one), or a new
 * schema of DATABASE_URL.
 */
async function emptyDb(kind: "pglite" | "postgres"): Promise<Db> {
  if (kind === "pglite") {
    const db = await openDatabase(migrate);
    opened.push({ db, drop: () => db.close() });
    return db;
  }
  const schema = `backup_${randomBytes(6).toString("hex")}`;
  const db = await openPostgres(url!, schema);
  opened.push({
    db,
    drop: async () => {
      await db.query(`drop schema ${schema} cascade`);
      await db.close();
    },
  });
  return db;
}

/** Every table's rows, as the driver reads them, in an order of their own (the engines order alike). */
async function contents(db: Db): Promise<Record<string, string[]>> {
  const { rows: tables } = await db.query<{ t: string }>(
    `select table_name as t from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const all: Record<string, string[]> = {};
  for (const { t } of tables) {
    const { rows } = await db.query(`select * from "${t}"`);
    all[t] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return all;
}

async function backupOf(db: Db, dataDir: string | undefined, name: string): Promise<string> {
  const file = join(dir, name);
  await writeBackup(db, dataDir, createWriteStream(file));
  return file;
}

/** A backup file's lines rewritten by `edit` (its checksum and counts made right again, as a writer would). */
function rewrite(file: string, name: string, edit: (lines: unknown[]) => unknown[]): string {
  const lines = gunzipSync(readFileSync(file))
    .toString()
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
  const kept = edit(lines.slice(0, -1));
  const texts = kept.map((line) => JSON.stringify(line));
  const tables: Record<string, number> = {};
  let files = 0;
  for (const line of kept)
    if (Array.isArray(line) && line[0] === "end") tables[line[1] as string] = line[2] as number;
    else if (Array.isArray(line) && line[0] === "file") files++;
  const sha256 = createHash("sha256")
    .update(texts.map((t) => `${t}\n`).join(""))
    .digest("hex");
  const out = join(dir, name);
  writeFileSync(out, gzipSync([...texts, JSON.stringify(["done", { tables, files, sha256 }])].join("\n") + "\n"));
  return out;
}

const tableCount = async (db: Db) =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables where table_schema = current_schema()`,
    )
  ).rows[0].n;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "backup-test-"));
  sourceData = join(dir, "source");
  source = await openTestDb();
  await seedDemo(source.db, { orders: 400 });
  // Uploaded files, public and private (a certificate), as the upload area stores them.
  files.set("uploads/goods/2026-11/0123456789abcdef.png", randomBytes(3000));
  files.set("uploads/banner/2026-10/fedcba9876543210.jpg", randomBytes(1200));
  files.set("private/payment_setting/2026-11/00112233aabbccdd.pem", Buffer.from("-----BEGIN CERTIFICATE-----\n"));
  for (const [path, data] of files) {
    mkdirSync(join(sourceData, path, ".."), { recursive: true });
    writeFileSync(join(sourceData, path), data);
  }
}, 120_000);

afterAll(async () => {
  for (const { drop } of opened) await drop();
  await source?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a backup", () => {
  let summary: BackupSummary;
  let first: string;
  let expected: Record<string, string[]>;

  beforeAll(async () => {
    first = await backupOf(source.db, sourceData, "first.backup.gz");
    ({ summary } = await checkBackup(first));
    expected = await contents(source.db);
  }, 60_000);

  it("holds every table's rows and every file of the data folder", () => {
    expect(Object.keys(summary.tables).sort()).toEqual(Object.keys(expected).sort());
    for (const [table, rows] of Object.entries(expected)) expect(summary.tables[table], table).toBe(rows.length);
    expect(summary.tables.order).toBe(400);
    expect(summary.files).toBe(3);
  });

  it("comes back into an empty database of the other engine and back again, the same rows, files and balances", async () => {
    const there = await emptyDb("pglite");
    const thereData = join(dir, "there");
    const restored = await restoreBackup(first, there, { dataDir: thereData });
    expect(restored.broughtUp).toEqual([]);
    expect(restored.tables).toEqual(summary.tables);
    expect(await contents(there)).toEqual(expected);
    for (const [path, data] of files) expect(readFileSync(join(thereData, path)).equals(data), path).toBe(true);
    expect(await differences(there)).toEqual([]);

    const second = await backupOf(there, thereData, "second.backup.gz");
    const back = await emptyDb(url ? "postgres" : "pglite");
    const backData = join(dir, "back");
    await restoreBackup(second, back, { dataDir: backData });
    expect(await contents(back)).toEqual(expected);
    for (const [path, data] of files) expect(readFileSync(join(backData, path)).equals(data), path).toBe(true);
    expect(await differences(back)).toEqual([]);

    // The restored system serves: the demo's agent signs in with its password and lists its orders, and new
    // records take ids after the restored ones.
    const app = await buildApp({ db: back });
    try {
      const login = await call<{ token: string }>(app, {
        method: "POST",
        url: "/merchant/login",
        payload: { account: "agent_a", password: "demo123" },
      });
      expect(login.status, login.raw).toBe(200);
      const { rows } = await back.query<{ max: number }>(`select max(id)::int as max from "goods_category"`);
      const added = await call<{ id: number }>(app, {
        method: "POST",
        url: "/merchant/goods-cate-add",
        headers: { authorization: `Bearer ${login.body.data.token}`, locale: "en", source: "pc" },
        payload: { name: "After the restore", sort: 1 },
      });
      expect(added.status, added.raw).toBe(200);
      expect(Number(added.body.data.id)).toBeGreaterThan(rows[0].max);
    } finally {
      await app.close();
    }
  }, 120_000);

  it("of an older version (a table and a column this one added) comes back brought up to this one", async () => {
    const older = rewrite(first, "older.backup.gz", (lines) => {
      const header = lines[0] as { tables: { name: string; columns: string[] }[] };
      header.tables = header.tables
        .filter((t) => t.name !== "stock_consumption")
        .map((t) =>
          t.name === "operator"
            ? { ...t, columns: t.columns.filter((c) => c !== "earnings" && c !== "version") }
            : t.name === "clean_record"
              ? { ...t, columns: t.columns.filter((c) => c !== "operator_name") }
              : t,
        );
      let table = "";
      return lines.flatMap((line, i) => {
        if (i === 0) return [header];
        if (Array.isArray(line) && line[0] === "table") table = line[1] as string;
        if (table === "stock_consumption") {
          if (Array.isArray(line) && line[0] === "end") table = "";
          return [];
        }
        if (table === "operator" && !Array.isArray(line)) {
          const row = { ...(line as Record<string, unknown>) };
          delete row.earnings;
          delete row.version;
          return [row];
        }
        if (table === "clean_record" && !Array.isArray(line)) {
          const row = { ...(line as Record<string, unknown>) };
          delete row.operator_name;
          return [row];
        }
        return [line];
      });
    });
    const target = await emptyDb(url ? "postgres" : "pglite");
    const restored = await restoreBackup(older, target, { dataDir: join(dir, "older") });
    expect(restored.broughtUp).toEqual([
      "stock_consumption",
      "clean_record.operator_name",
      "operator.version",
      "operator.earnings",
    ]);
    // The roll-up the file lacked is worked out from the orders and restocks: what the source kept (in rows
    // of their own: ids and times are new).
    const figures = async (db: Db) =>
      (
        await db.query(
          `select machine_id, goods_id, "date"::text, agent_id, agent_path, quantity, money, restocked, goods_name, mac_name
             from stock_consumption order by machine_id, goods_id, "date"`,
        )
      ).rows;
    const kept = await figures(source.db);
    expect(kept.length).toBeGreaterThan(100);
    expect(await figures(target)).toEqual(kept);
    // The columns it lacked take their default: a version of 1, earnings none (null).
    const { rows } = await target.query(`select distinct version, earnings from "operator"`);
    expect(rows).toEqual([{ version: 1, earnings: null }]);
    // History's copy of a title it lacked is filled from the record it names, as the migration fills it.
    const named = await target.query<{ operator_name: string | null; nickname: string }>(
      `select c.operator_name, o.nickname from clean_record c join operator o on o.id = c.operator_id`,
    );
    expect(named.rows.length).toBeGreaterThan(10);
    for (const row of named.rows) expect(row.operator_name).toBe(row.nickname);
    const { rows: recorded } = await target.query<{ statement: string }>(
      `select statement from sys_migration order by id desc limit 1`,
    );
    expect(recorded[0].statement).toContain(
      "added by this version: stock_consumption, clean_record.operator_name, operator.version, operator.earnings",
    );
    expect((await migrate(target)).statements).toEqual([]);
  }, 60_000);
});

describe("a restore refuses", () => {
  let good: string;
  beforeAll(async () => {
    good = await backupOf(source.db, sourceData, "good.backup.gz");
  }, 60_000);

  /** The refusal's words, and a target with no table made and no file written. */
  async function refused(file: string): Promise<string> {
    const target = await emptyDb("pglite");
    const before = await tableCount(target);
    const data = join(dir, `refused-${randomBytes(4).toString("hex")}`);
    const error = await restoreBackup(file, target, { dataDir: data }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error, "the restore was refused").toBeInstanceOf(Error);
    expect(await tableCount(target)).toBe(before);
    expect(() => readFileSync(join(data, [...files.keys()][0]))).toThrow();
    return error!.message;
  }

  it("a file cut short, naming what is missing", async () => {
    const bytes = readFileSync(good);
    const cut = join(dir, "cut.backup.gz");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refused(cut)).toMatch(/cut short.*was not written to its end/);
    // Cut at the end of a line: the gzip is whole, the last line missing.
    const lines = gunzipSync(bytes).toString().trimEnd().split("\n");
    const whole = join(dir, "no-end.backup.gz");
    writeFileSync(whole, gzipSync(lines.slice(0, Math.floor(lines.length / 2)).join("\n") + "\n"));
    expect(await refused(whole)).toMatch(/cut short \(it ends in the rows of \w+\)/);
  });

  it("a file that is not ours: another gzip, plain text, an empty file", async () => {
    const other = join(dir, "other.gz");
    writeFileSync(other, gzipSync('{"hello":"world"}\n'));
    expect(await refused(other)).toMatch(/is not a backup of this console/);
    const text = join(dir, "notes.txt");
    writeFileSync(text, "orders of November\n");
    expect(await refused(text)).toMatch(/is not a backup of this console/);
    const empty = join(dir, "empty.gz");
    writeFileSync(empty, gzipSync(""));
    expect(await refused(empty)).toMatch(/is empty: it is not a backup/);
  });

  it("a damaged file: a row changed after it was written", async () => {
    const lines = gunzipSync(readFileSync(good)).toString().split("\n");
    const at = lines.findIndex((line) => line.includes('"nickname":"'));
    lines[at] = lines[at].replace('"nickname":"', '"nickname":"X');
    const damaged = join(dir, "damaged.backup.gz");
    writeFileSync(damaged, gzipSync(lines.join("\n")));
    expect(await refused(damaged)).toMatch(/is damaged: what it holds differs from what it says it holds/);
  });

  it("a file from a newer version, naming what this one does not know", async () => {
    const newer = rewrite(good, "newer.backup.gz", (lines) => {
      const header = lines[0] as { tables: { name: string; columns: string[] }[] };
      header.tables.push({ name: "loyalty_card", columns: ["id"] });
      return [header, ...lines.slice(1), ["table", "loyalty_card"], { id: 1 }, ["end", "loyalty_card", 1]];
    });
    expect(await refused(newer)).toMatch(/made by a newer version of the console: this one does not know loyalty_card/);
  });

  it("a file outside the upload folders", async () => {
    const climbing = rewrite(good, "climbing.backup.gz", (lines) => [
      ...lines,
      ["file", "uploads/../../etc/cron.d/x", Buffer.from("* * * * * root true").toString("base64")],
    ]);
    const target = await emptyDb("pglite");
    const before = await contents(target);
    await expect(restoreBackup(climbing, target, { dataDir: join(dir, "climbing") })).rejects.toThrow(
      /names a file outside the upload folders/,
    );
    // Refused with the rest of the file before anything is written: no row, no file.
    expect(await contents(target)).toEqual(before);
    expect(() => readFileSync(join(dir, "climbing", [...files.keys()][0]))).toThrow();
  });

  it("a target that is not empty: a database with rows, or upload folders with files", async () => {
    await expect(restoreBackup(good, source.db, { dataDir: join(dir, "unused") })).rejects.toThrow(
      /The target database is not empty \(.*rows\): a restore goes into an empty one only/,
    );
    const target = await emptyDb("pglite");
    await expect(restoreBackup(good, target, { dataDir: sourceData })).rejects.toThrow(
      /already holds uploaded files: a restore goes into empty upload folders only/,
    );
  });
});

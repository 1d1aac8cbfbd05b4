// A backup of the bench's database and its restore into an empty one, as an operator runs them
// (`npm run backup`, `npm run restore`, each a process of its own): their time, the file's size and the most
// memory each process held (README "Backup, restore and the move to PostgreSQL").
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { openPostgres } from "../../server/db/db.ts";

type Row = [string, string];
const ROOT = resolve(import.meta.dirname, "../..");

function cli(args: string[], env: Record<string, string>): string {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "server/backup-cli.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`backup-cli ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** "(…)" of the command's report line: size, time and memory. */
const figures = (out: string, line: RegExp): string => line.exec(out)?.[1] ?? "(not reported)";

/**
 * Backs up the database (PGlite in `dataDir`, closed by the caller first; or the `bench` schema of
 * DATABASE_URL) to a file in `dir`, then restores that file into an empty database of the same engine.
 */
export async function benchBackup(dir: string, dataDir: string, orders: number): Promise<Row[]> {
  const url = process.env.DATABASE_URL;
  const on = (schema: string) =>
    url ? `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}` : "";
  const file = join(dir, "bench.backup.gz");
  const made = cli(["backup", file], { DATABASE_URL: on("bench"), DATA_DIR: dataDir });
  const rows: Row[] = [
    [
      `npm run backup of ${orders.toLocaleString("en")} orders (file, time written and read back, memory)`,
      figures(made, /Backup written and read back: \S+ \(([^)]*)\)/),
    ],
  ];
  if (url) {
    const admin = await openPostgres(url);
    await admin.query("drop schema if exists bench_restore cascade; create schema bench_restore");
    await admin.close();
  }
  try {
    const restored = cli(["restore", file], { DATABASE_URL: on("bench_restore"), DATA_DIR: join(dir, "restored") });
    rows.push([
      `npm run restore of it into an empty database (time, memory)`,
      figures(restored, /Restored \S+ into [^(]+\(([^)]*)\)/),
    ]);
  } finally {
    if (url) {
      const admin = await openPostgres(url);
      await admin.query("drop schema if exists bench_restore cascade");
      await admin.close();
    }
  }
  return rows;
}

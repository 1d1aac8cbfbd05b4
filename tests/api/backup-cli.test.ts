// The commands as an operator runs them (README "Operations"): `npm run backup` while the server runs on
// its embedded database (the server writes it and serves on), `npm run restore FILE` into a new
// data folder, and, on PostgreSQL (DATABASE_URL), `npm run move-to-postgres` from that folder into an empty
// schema, which it then refuses to move into again.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { seedDemo } from "../../server/seed/demo.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const url = process.env.DATABASE_URL;
let dir: string;
let dataDir: string;
/** Rows per table of the seeded folder, counted before the server starts. */
let seeded: Record<string, number>;
const picture = randomBytes(2048);

/** A command of package.json's, as `npm run` runs it (tsx), with the environment given. */
function command(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "server/backup-cli.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", ...env },
    encoding: "utf8",
    timeout: 180_000,
  });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });

/** Rows per table of a PGlite folder (the tables a backup carries: those that hold rows). */
async function countsOf(folder: string): Promise<Record<string, number>> {
  const db = await openPglite(folder);
  try {
    const { rows } = await db.query<{ t: string }>(
      `select table_name as t from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const counts: Record<string, number> = {};
    for (const { t } of rows)
      counts[t] = (await db.query<{ n: number }>(`select count(*)::int as n from "${t}"`)).rows[0].n;
    return counts;
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "backup-cli-"));
  dataDir = join(dir, "data");
  const db = await openPglite(dataDir);
  try {
    await migrate(db);
    await seedDemo(db, { orders: 300 });
  } finally {
    await db.close();
  }
  mkdirSync(join(dataDir, "uploads/goods/2026-11"), { recursive: true });
  writeFileSync(join(dataDir, "uploads/goods/2026-11/a1b2c3d4e5f60718.png"), picture);
  seeded = await countsOf(dataDir);
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run backup and npm run restore", () => {
  it("backs up the running server's embedded database through the server, which serves on", async () => {
    const port = await freePort();
    const server = spawn(process.execPath, ["--import", "tsx", join(ROOT, "server/main.ts")], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: "",
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        SKIP_CONSOLE_BUILD: "1",
        SEED: "none",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
        createInterface({ input: server.stdout! }).on("line", (line) => {
          if (line.startsWith("Merchant console ready")) resolve();
        });
      });
      const file = join(dir, "running.backup.gz");
      const backup = spawn(process.execPath, ["--import", "tsx", join(ROOT, "server/backup-cli.ts"), "backup", file], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      backup.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      backup.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => backup.once("exit", resolve));
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(await exited, out).toBe(0);
      expect(out).toContain(`The server using ${dataDir} is running: it writes the backup.`);
      expect(out).toMatch(
        new RegExp(
          `Backup written and read back: ${file} \\([\\d.]+ MiB, [\\d.]+ s, at most \\d+ MiB\\): \\d+ tables, \\d+ rows, 1 files`,
        ),
      );
      expect(out).toMatch(new RegExp(`\\n  order +${seeded.order}\\n`));
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.removeAllListeners("exit");
        server.once("exit", () => resolve());
        server.kill("SIGTERM");
      });
    }
  }, 240_000);

  it("restores it into a new data folder: the same rows per table and the same file", async () => {
    const target = join(dir, "restored");
    const result = command(["restore", join(dir, "running.backup.gz")], { DATA_DIR: target });
    expect(result.status, result.out + result.err).toBe(0);
    expect(result.out).toContain("ledger: every balance equals its entries");
    expect(readFileSync(join(target, "uploads/goods/2026-11/a1b2c3d4e5f60718.png")).equals(picture)).toBe(true);
    const restored = await countsOf(target);
    // The running server's demo devices only update their machines' rows: every table counts as seeded.
    expect(restored).toEqual(seeded);
    // Once more into the same folder: refused, nothing changed.
    const again = command(["restore", join(dir, "running.backup.gz")], { DATA_DIR: target });
    expect(again.status).toBe(1);
    expect(again.err).toMatch(/The target database is not empty \(.+\): a restore goes into an empty one only\./);
    expect(await countsOf(target)).toEqual(restored);
  }, 240_000);

  it("says which file it wants, and refuses one that is not a backup", () => {
    expect(command(["restore"], { DATA_DIR: join(dir, "none") }).err).toContain(
      "Say which backup file to restore: npm run restore FILE",
    );
    writeFileSync(join(dir, "notes.txt"), "not a backup");
    const refused = command(["restore", join(dir, "notes.txt")], { DATA_DIR: join(dir, "none") });
    expect(refused.status).toBe(1);
    expect(refused.err).toContain("is not a backup of this console");
  }, 120_000);
});

describe.runIf(url)("npm run move-to-postgres", () => {
  const schema = `move_${randomBytes(6).toString("hex")}`;
  const target = `${url}${url?.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

  afterAll(async () => {
    const db = await openPostgres(url!);
    await db.query(`drop schema if exists ${schema} cascade`);
    await db.close();
  });

  it("moves the embedded database into an empty PostgreSQL, counting every table there, and refuses a second move", async () => {
    const db = await openPostgres(url!);
    await db.query(`create schema ${schema}`);
    await db.close();
    const source = await countsOf(dataDir);
    const moved = command(["move"], { DATA_DIR: dataDir, DATABASE_URL: target });
    expect(moved.status, moved.out + moved.err).toBe(0);
    expect(moved.out).toMatch(/Moved into PostgreSQL \([\d.]+ s, at most \d+ MiB\); rows counted there: \d+ tables/);
    expect(moved.out).toContain(`Files: 1 uploaded files stay in ${dataDir}`);
    expect(moved.out).toContain("ledger: every balance equals its entries");
    expect(readdirSync(join(dataDir, "backups")).some((name) => name.startsWith("before-move-"))).toBe(true);
    const there = await openPostgres(target);
    try {
      for (const [table, n] of Object.entries(source)) {
        const { rows } = await there.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
        expect(rows[0].n, table).toBe(n);
      }
    } finally {
      await there.close();
    }
    const again = command(["move"], { DATA_DIR: dataDir, DATABASE_URL: target });
    expect(again.status).toBe(1);
    expect(again.err).toMatch(
      /The PostgreSQL database of DATABASE_URL is not empty \(.+ hold rows\): nothing was moved\./,
    );
  }, 240_000);
});

// npm run backup [FILE], npm run restore FILE, npm run move-to-postgres (README "Operations"). They open the
// database the way the server does: DATABASE_URL, or PGlite in DATA_DIR (default ./data); the uploaded files
// are those of DATA_DIR. A backup of PGlite while its server runs is asked of that server (its socket in the
// data folder); on PostgreSQL it is read beside the running servers.
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { DataDirLockedError, openPglite, openPostgres, type Db } from "./db/db.ts";
import { backupSocketPath, BackupError, checkBackup, restoreBackup, rowsHeld, writeBackup } from "./db/backup.ts";
import { differences } from "./domain/money/ledger.ts";
import { ROOT } from "./core/root.ts";

const dataDir = resolve(process.env.DATA_DIR || "./data");
const databaseUrl = process.env.DATABASE_URL || undefined;
const [command, fileArgument] = process.argv.slice(2);

const stamp = () => new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
/** The time since `since`, and the most memory this process has held (what a machine must have for it). */
const seconds = (since: number) =>
  `${((performance.now() - since) / 1000).toFixed(1)} s, at most ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`;

/** Rows per table and files, as lines under a title. */
function report(title: string, tables: Record<string, number>, files: number): void {
  const rows = Object.values(tables).reduce((a, b) => a + b, 0);
  console.log(`${title}: ${Object.keys(tables).length} tables, ${rows} rows, ${files} files`);
  for (const [table, n] of Object.entries(tables)) if (n > 0) console.log(`  ${table.padEnd(28)} ${n}`);
}

/** The ledger checked after a restore or a move: each agent's and operator's figures against their entries. */
async function ledgerLine(db: Db): Promise<boolean> {
  const found = await differences(db);
  if (found.length === 0) console.log("ledger: every balance equals its entries (as npm run ledger:check)");
  else console.error(`ledger: ${found.length} figure(s) differ from the ledger; run npm run ledger:check`);
  return found.length === 0;
}

/** A backup of the database of DATA_DIR when no server has it open; the server's own when one has. */
async function backup(file: string): Promise<void> {
  const started = performance.now();
  mkdirSync(dirname(file), { recursive: true });
  const out = createWriteStream(file, { flags: "wx" });
  try {
    if (databaseUrl) {
      const db = await openPostgres(databaseUrl);
      try {
        await writeBackup(db, dataDir, out);
      } finally {
        await db.close();
      }
    } else {
      let db: Db | undefined;
      try {
        db = await openPglite(dataDir);
      } catch (error) {
        if (!(error instanceof DataDirLockedError)) throw error;
      }
      if (db) {
        try {
          await writeBackup(db, dataDir, out);
        } finally {
          await db.close();
        }
      } else {
        const path = backupSocketPath(dataDir);
        if (!path || !existsSync(path))
          throw new BackupError(
            `The server using ${dataDir} does not take backup requests (a version before backups, or a data folder path too long for its socket): stop it and run npm run backup again.`,
          );
        console.log(`The server using ${dataDir} is running: it writes the backup.`);
        const socket = connect(path);
        await once(socket, "connect");
        socket.write("backup\n");
        await pipeline(socket, out).catch((error: Error) => {
          throw new BackupError(`The server stopped writing the backup (${error.message}): nothing was kept.`);
        });
      }
    }
  } catch (error) {
    out.destroy();
    rmSync(file, { force: true });
    throw error;
  }
  // Read back before it is called a backup: a server that stopped half-way leaves a file cut short.
  const { summary } = await checkBackup(file).catch((error: unknown) => {
    rmSync(file, { force: true });
    throw error;
  });
  report(
    `Backup written and read back: ${file} (${mib(statSync(file).size)}, ${seconds(started)})`,
    summary.tables,
    summary.files,
  );
}

async function restore(file: string): Promise<void> {
  const started = performance.now();
  // A new embedded database is made by a process of its own, as npm start makes one: the memory PGlite's
  // initdb takes is not given back, and the restore needs it for the rows.
  if (!databaseUrl && !existsSync(join(dataDir, "pgdata", "PG_VERSION"))) {
    const made = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "server/db/create-cli.ts")], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (made.status !== 0) throw new Error(`Could not create the database in ${dataDir} (exit ${made.status})`);
  }
  const db = databaseUrl ? await openPostgres(databaseUrl) : await openPglite(dataDir);
  try {
    const restored = await restoreBackup(file, db, { dataDir });
    report(
      `Restored ${file} into ${databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`} (${seconds(started)})`,
      restored.tables,
      restored.files,
    );
    if (restored.broughtUp.length)
      console.log(`Brought up to this version (the file's lacked them): ${restored.broughtUp.join(", ")}`);
    if (!(await ledgerLine(db))) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

/**
 * The embedded database of DATA_DIR moved into the empty PostgreSQL of DATABASE_URL: a backup of it kept in
 * DATA_DIR/backups, restored there (the uploaded files stay in DATA_DIR, where the servers on PostgreSQL read
 * them), then every table's rows counted on both sides.
 */
async function move(): Promise<void> {
  if (!databaseUrl) throw new BackupError("Set DATABASE_URL to the empty PostgreSQL database to move into.");
  const started = performance.now();
  const target = await openPostgres(databaseUrl);
  try {
    const held = await rowsHeld(target);
    if (Object.keys(held).length)
      throw new BackupError(
        `The PostgreSQL database of DATABASE_URL is not empty (${Object.keys(held).slice(0, 5).join(", ")} hold rows): nothing was moved.`,
      );
    const file = join(dataDir, "backups", `before-move-${stamp()}.backup.gz`);
    mkdirSync(dirname(file), { recursive: true });
    const source = await openPglite(dataDir).catch((error: unknown) => {
      throw error instanceof DataDirLockedError
        ? new BackupError(`${error.message} (a move needs the embedded database to itself: stop the server first)`)
        : error;
    });
    try {
      await writeBackup(source, dataDir, createWriteStream(file, { flags: "wx" }));
    } finally {
      await source.close();
    }
    console.log(`The embedded database is kept as it was; its backup: ${file}`);
    const restored = await restoreBackup(file, target, { files: false });
    const counted: Record<string, number> = {};
    let differ = 0;
    for (const [table, n] of Object.entries(restored.tables)) {
      const { rows } = await target.query<{ n: number }>(`select count(*)::int as n from "${table}"`);
      counted[table] = rows[0].n;
      if (rows[0].n !== n) {
        differ++;
        console.error(`  ${table}: ${n} rows in the embedded database, ${rows[0].n} in PostgreSQL`);
      }
    }
    report(`Moved into PostgreSQL (${seconds(started)}); rows counted there`, counted, 0);
    const { summary } = await checkBackup(file);
    console.log(
      `Files: ${summary.files} uploaded files stay in ${dataDir} (uploads/, private/): start the servers with DATABASE_URL and this DATA_DIR.`,
    );
    if (differ) {
      console.error(`${differ} table(s) differ: do not switch to PostgreSQL before finding out why.`);
      process.exitCode = 1;
    }
    if (!(await ledgerLine(target))) process.exitCode = 1;
  } finally {
    await target.close();
  }
}

try {
  if (command === "backup") await backup(resolve(fileArgument ?? join("backups", `merchant-${stamp()}.backup.gz`)));
  else if (command === "restore") {
    if (!fileArgument) throw new BackupError("Say which backup file to restore: npm run restore FILE");
    await restore(resolve(fileArgument));
  } else if (command === "move") await move();
  else throw new BackupError(`Unknown command ${command ?? ""}: backup, restore or move.`);
} catch (error) {
  if (!(error instanceof BackupError || error instanceof DataDirLockedError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}

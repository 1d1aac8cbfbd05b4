// Backup and restore (README "Operations" → "Backup and restore"): the whole system, every table's rows and
// every uploaded file, in one gzip file of JSON lines, the same on PGlite and PostgreSQL, so a file made on
// one restores into the other.
//
// The file, line by line (uncompressed):
//   {"format":"merchant-console-backup","version":1,"made":…,"database":…,"tables":[{"name","columns"}]}
//   ["table","agent"]                 a table's section; its rows follow, one JSON object each
//   {"id":1,"nickname":"…",…}         (PostgreSQL's own row_to_json, read back by json_populate_recordset)
//   ["end","agent",12]                its row count
//   ["file","uploads/goods/2026-11/….png","<base64>"]   an uploaded file, by its path in the data folder
//   ["done",{"tables":{…},"files":3,"sha256":"…"}]       the counts and the SHA-256 of every line before it
// A restore reads the file through once before it touches anything: a file that is not ours, truncated or
// damaged is refused in words and the target is left as it was.
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import type { Writable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import { q } from "../core/sql.ts";
import type { Db, Queryable } from "./db.ts";
import { migrate, tableSpecs, titleCopies } from "./migrate.ts";
import { rebuildRollups, ROLLUP_TABLES } from "./rollups.ts";

export const BACKUP_FORMAT = "merchant-console-backup";
export const BACKUP_VERSION = 1;
/** The folders of the data folder a backup carries: public uploads and private ones (certificates). */
export const FILE_FOLDERS = ["uploads", "private"] as const;
/** Rows read (and written back) at a time. */
const BATCH = 2000;

export interface BackupHeader {
  format: string;
  version: number;
  made: string;
  database: "pglite" | "postgres";
  tables: { name: string; columns: string[] }[];
}

/** What a backup holds: rows per table and files (as the file's last line counts them). */
export interface BackupSummary {
  tables: Record<string, number>;
  files: number;
}

/** A backup or restore that cannot be done, said in words for whoever runs it. */
export class BackupError extends Error {}

/** The tables of the database's schema, and their columns in order. */
async function tablesOf(db: Queryable): Promise<{ name: string; columns: string[] }[]> {
  const { rows } = await db.query<{ t: string; c: string }>(
    `select c.table_name as t, c.column_name as c
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const row of rows) tables.set(row.t, [...(tables.get(row.t) ?? []), row.c]);
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

/** Every file under the data folder's upload folders, as paths relative to it ("uploads/…"). */
async function filesUnder(dataDir: string | undefined): Promise<string[]> {
  if (!dataDir) return [];
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (!existsSync(dir)) return;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(relative(dataDir, path).split(sep).join("/"));
    }
  };
  for (const folder of FILE_FOLDERS) await walk(join(dataDir, folder));
  return found.sort();
}

/** A line writer that keeps the SHA-256 of what it wrote and waits when the stream is full. */
function lineWriter(out: Writable) {
  const hash = createHash("sha256");
  return {
    async line(text: string, hashed = true): Promise<void> {
      const line = `${text}\n`;
      if (hashed) hash.update(line);
      if (!out.write(line)) await once(out, "drain");
    },
    digest: () => hash.digest("hex"),
  };
}

/**
 * Writes a backup of the database and the files of `dataDir` to `out` (gzip), and ends it. The rows are read
 * in one repeatable-read, read-only transaction: one moment of the database, while the server goes on
 * (PostgreSQL); on PGlite, which has one connection, other statements wait until the backup has read it.
 * Files are read after the rows: a file a row names was stored before the row (uploads store, then save).
 */
export async function writeBackup(db: Db, dataDir: string | undefined, out: Writable): Promise<BackupSummary> {
  const gzip = createGzip({ level: 6 });
  gzip.pipe(out);
  const writer = lineWriter(gzip);
  const summary: BackupSummary = { tables: {}, files: 0 };
  try {
    await rowsAndFiles();
  } catch (error) {
    gzip.unpipe(out);
    gzip.destroy();
    throw error;
  }
  await writer.line(JSON.stringify(["done", { ...summary, sha256: writer.digest() }]), false);
  gzip.end();
  await once(out, "finish");
  return summary;

  async function rowsAndFiles(): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.query(`set transaction isolation level repeatable read, read only`);
      const tables = await tablesOf(tx);
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        made: new Date().toISOString(),
        database: db.kind,
        tables,
      };
      await writer.line(JSON.stringify(header));
      for (const { name } of tables) {
        await writer.line(JSON.stringify(["table", name]));
        await tx.query(`declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${q(name)} t`);
        let count = 0;
        for (;;) {
          const { rows } = await tx.query<{ j: string }>(`fetch ${BATCH} from backup_rows`);
          if (rows.length === 0) break;
          for (const row of rows) await writer.line(row.j);
          count += rows.length;
        }
        await tx.query(`close backup_rows`);
        await writer.line(JSON.stringify(["end", name, count]));
        summary.tables[name] = count;
      }
    });
    for (const path of await filesUnder(dataDir)) {
      const data = await readFile(join(dataDir!, path)).catch(() => undefined);
      if (!data) continue; // swept between the listing and the read: no row names it
      await writer.line(JSON.stringify(["file", path, data.toString("base64")]));
      summary.files++;
    }
  }
}

type Line = Record<string, unknown> | unknown[];

/**
 * The file's lines, parsed, with what they were; errors of reading said in words. Read as the stream comes
 * (a line at a time is all that is held), so a backup of any size is read in the same memory.
 */
async function* linesOf(file: string): AsyncGenerator<{ text: string; value: Line }> {
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}.`);
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.once("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const decoder = new StringDecoder("utf8");
  const parsed = (text: string) => {
    try {
      return { text, value: JSON.parse(text) as Line };
    } catch {
      throw new BackupError(`${file} is not a backup of this console (a line of it is not JSON).`);
    }
  };
  let rest = "";
  try {
    for await (const chunk of gunzip) {
      rest += decoder.write(chunk as Buffer);
      let from = 0;
      for (let at = rest.indexOf("\n"); at >= 0; at = rest.indexOf("\n", from)) {
        yield parsed(rest.slice(from, at));
        from = at + 1;
      }
      rest = rest.slice(from);
    }
    rest += decoder.end();
    if (rest) yield parsed(rest);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw code === "Z_BUF_ERROR" || /unexpected end/i.test(message)
      ? new BackupError(`${file} is cut short: the backup was not written to its end (a copy stopped early?).`)
      : new BackupError(`${file} is not a backup of this console, or it is damaged (it cannot be uncompressed).`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/** A path of the data folder a file line may name: under an upload folder, nothing climbing out of it. */
const FILE_PATH = new RegExp(
  `^(${FILE_FOLDERS.join("|")})/([A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$`,
);

/**
 * Reads a backup file through and checks it: ours, whole (its last line and checksum) and in order.
 * Answers its header and what it holds; a BackupError says what is wrong.
 */
export async function checkBackup(file: string): Promise<{ header: BackupHeader; summary: BackupSummary }> {
  const hash = createHash("sha256");
  let header: BackupHeader | undefined;
  let table: string | undefined;
  let rows = 0;
  const counted: BackupSummary = { tables: {}, files: 0 };
  let done: (BackupSummary & { sha256: string }) | undefined;
  const notOurs = new BackupError(`${file} is not a backup of this console.`);
  for await (const { text, value } of linesOf(file)) {
    if (done) throw new BackupError(`${file} has lines after its end: it is damaged.`);
    if (!header) {
      const h = value as Partial<BackupHeader>;
      if (Array.isArray(value) || h.format !== BACKUP_FORMAT || !Array.isArray(h.tables)) throw notOurs;
      if (h.version !== BACKUP_VERSION)
        throw new BackupError(
          `${file} is a backup of format ${h.version}; this version reads format ${BACKUP_VERSION}.`,
        );
      header = h as BackupHeader;
      hash.update(`${text}\n`);
      continue;
    }
    if (Array.isArray(value) && value[0] === "done") {
      done = value[1] as BackupSummary & { sha256: string };
      continue;
    }
    hash.update(`${text}\n`);
    if (!Array.isArray(value)) {
      if (table === undefined) throw notOurs;
      rows++;
      continue;
    }
    const [kind, name] = value as [string, string];
    if (kind === "table" && table === undefined) [table, rows] = [name, 0];
    else if (kind === "end" && name === table) {
      counted.tables[table] = rows;
      table = undefined;
    } else if (kind === "file" && table === undefined) {
      if (!FILE_PATH.test(name) || name.split("/").includes(".."))
        throw new BackupError(`${file} names a file outside the upload folders (${name}): it is refused.`);
      counted.files++;
    } else throw notOurs;
  }
  if (!header) throw new BackupError(`${file} is empty: it is not a backup.`);
  if (!done)
    throw new BackupError(
      `${file} is cut short${table ? ` (it ends in the rows of ${table})` : ""}: the backup was not written to its end.`,
    );
  if (
    done.sha256 !== hash.digest("hex") ||
    JSON.stringify(done.tables) !== JSON.stringify(counted.tables) ||
    done.files !== counted.files
  )
    throw new BackupError(`${file} is damaged: what it holds differs from what it says it holds.`);
  return { header, summary: counted };
}

/** How a file's tables and columns fit this version: those it lacks (older), or a refusal (newer). */
function fitOf(file: string, header: BackupHeader): { missingTables: string[]; missingColumns: string[] } {
  const specs = new Map(tableSpecs().map((spec) => [spec.name, spec.columns.map(([c]) => c)]));
  const unknown: string[] = [];
  for (const table of header.tables) {
    const columns = specs.get(table.name);
    if (!columns) unknown.push(table.name);
    else unknown.push(...table.columns.filter((c) => !columns.includes(c)).map((c) => `${table.name}.${c}`));
  }
  if (unknown.length)
    throw new BackupError(
      `${file} was made by a newer version of the console: this one does not know ${unknown.slice(0, 5).join(", ")}` +
        `${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""}. Restore it with that version or a later one.`,
    );
  const inFile = new Map(header.tables.map((t) => [t.name, t.columns]));
  return {
    missingTables: [...specs.keys()].filter((name) => !inFile.has(name)),
    missingColumns: [...specs].flatMap(([name, columns]) =>
      inFile.has(name) ? columns.filter((c) => !inFile.get(name)!.includes(c)).map((c) => `${name}.${c}`) : [],
    ),
  };
}

/** Tables of the target that hold rows, with their counts (an empty target has none). */
export async function rowsHeld(db: Queryable): Promise<Record<string, number>> {
  const held: Record<string, number> = {};
  for (const { name } of await tablesOf(db)) {
    if (name === "sys_migration" || name === "sys_state") continue; // what creating the tables writes
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${q(name)}`);
    if (rows[0].n > 0) held[name] = rows[0].n;
  }
  return held;
}

export interface RestoreReport extends BackupSummary {
  /** The tables and columns this version has that the file's did not: brought up by the migrations. */
  broughtUp: string[];
}

/**
 * Restores a backup into an empty database (tables made by `migrate` may be there, without rows) and, unless
 * `files` is false, its files into the empty upload folders of `dataDir`. The file is checked first; the rows
 * are written in one transaction, the roll-ups' triggers set aside (the file holds the roll-ups as they were),
 * then the database is brought up to this version's schemas.
 */
export async function restoreBackup(
  file: string,
  db: Db,
  options: { dataDir?: string; files?: boolean } = {},
): Promise<RestoreReport> {
  const { header, summary } = await checkBackup(file);
  const fit = fitOf(file, header);
  const withFiles = options.files !== false && options.dataDir !== undefined;
  const held = await rowsHeld(db);
  if (Object.keys(held).length)
    throw new BackupError(
      `The target database is not empty (${Object.entries(held)
        .slice(0, 5)
        .map(([t, n]) => `${t}: ${n} rows`)
        .join(", ")}): a restore goes into an empty one only.`,
    );
  if (withFiles && (await filesUnder(options.dataDir)).length)
    throw new BackupError(
      `${options.dataDir} already holds uploaded files: a restore goes into empty upload folders only.`,
    );
  await migrate(db);
  const columnsOf = new Map(header.tables.map((t) => [t.name, t.columns]));
  const written: string[] = [];
  try {
    await db.transaction(async (tx) => {
      for (const { name } of header.tables) await tx.query(`alter table ${q(name)} disable trigger user`);
      // What creating the tables wrote is replaced by the file's own (its migrations' history).
      await tx.query(`delete from sys_migration`);
      await tx.query(`delete from sys_state`);
      let table: string | undefined;
      let batch: string[] = [];
      const flush = async () => {
        if (!table || batch.length === 0) return;
        const list = columnsOf.get(table)!.map(q).join(", ");
        await tx.query(
          `insert into ${q(table)} (${list}) select ${list} from json_populate_recordset(null::${q(table)}, $1::json)`,
          [`[${batch.join(",")}]`],
        );
        batch = [];
      };
      let first = true;
      for await (const { text, value } of linesOf(file)) {
        if (first) {
          first = false;
          continue;
        }
        if (!Array.isArray(value)) {
          batch.push(text);
          if (batch.length >= BATCH) await flush();
          continue;
        }
        const [kind, name, data] = value as [string, string, string];
        if (kind === "table") table = name;
        else if (kind === "end") {
          await flush();
          table = undefined;
        } else if (kind === "file" && withFiles) {
          // Its path was checked with the rest of the file (checkBackup): under an upload folder.
          const path = join(options.dataDir!, name);
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, Buffer.from(data, "base64"), { flag: "wx" });
          written.push(path);
        }
      }
      for (const { name } of header.tables) await tx.query(`alter table ${q(name)} enable trigger user`);
      // Identities go on after the highest id restored.
      const { rows: identities } = await tx.query<{ t: string }>(
        `select table_name as t from information_schema.columns
          where table_schema = current_schema() and column_name = 'id' and is_identity = 'YES'`,
      );
      for (const { t } of identities)
        await tx.query(
          `select setval(pg_get_serial_sequence($1, 'id'), coalesce((select max(id) from ${q(t)}), 0) + 1, false)`,
          [q(t)],
        );
      const broughtUp = [...fit.missingTables, ...fit.missingColumns];
      if (broughtUp.length) {
        // The file's version lacked these. As a migration adding them would: history's copies of titles filled
        // from the records they name, the roll-ups (which may count what new columns hold) worked out afresh,
        // and what was added recorded.
        for (const statement of titleCopies(new Set(fit.missingColumns))) await tx.query(statement);
        await tx.query(`insert into sys_migration (statement) values ($1)`, [
          `-- restored from a backup made ${header.made}; added by this version: ${broughtUp.join(", ")}`,
        ]);
        if (ROLLUP_TABLES.some((t) => fit.missingTables.includes(t.name)) || fit.missingColumns.length)
          await rebuildRollups(tx);
      }
    });
  } catch (error) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    throw error;
  }
  // Routines (the roll-ups' triggers, the live views) as this version has them; then the planner's figures,
  // which a restore does not carry.
  await migrate(db);
  await db.exec("analyze");
  return { ...summary, files: withFiles ? summary.files : 0, broughtUp: [...fit.missingTables, ...fit.missingColumns] };
}

/**
 * The socket in the data folder through which `npm run backup` asks a running server on PGlite for a backup
 * (PGlite allows one process per folder, so another process cannot read it): whoever may open it may read
 * the data folder anyway. None when the folder's path is too long for a socket's address.
 */
export function backupSocketPath(dataDir: string): string | undefined {
  const path = join(dataDir, "backup.sock");
  return Buffer.byteLength(path) < 104 ? path : undefined;
}

/** Answers backup requests on the data folder's socket, until the function it answers is called. */
export async function serveBackups(db: Db, dataDir: string): Promise<(() => Promise<void>) | undefined> {
  const path = backupSocketPath(dataDir);
  if (!path) return undefined;
  await rm(path, { force: true }); // left by a server that stopped (the folder's lock is this process's)
  const server: Server = createServer((socket) => {
    socket.once("data", (asked) => {
      if (asked.toString().trim() !== "backup") return socket.destroy();
      writeBackup(db, dataDir, socket).catch((error: Error) => socket.destroy(error));
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path, resolve));
  return () =>
    new Promise<void>((resolve) =>
      server.close(() => {
        void rm(path, { force: true }).then(() => resolve());
      }),
    );
}

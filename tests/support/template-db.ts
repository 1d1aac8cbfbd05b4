// One database set-up a run, not one a test file: a project's global set-up migrates (and, for the
// browser tests, seeds) a PGlite database once and writes its snapshot to a file; each test file opens
// its own copy of it, a second instead of the ten or more that migrating (and seeding) takes on a busy
// machine. The copy is the same database the file would have made: the same statements ran on it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { openPglite, type Db } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The snapshot file of the project's database, made by its global set-up (absent on PostgreSQL). */
    databaseSnapshot?: string;
  }
}

/**
 * Makes the snapshot (a new database, migrated, then `prepare`d) and answers its file and how to remove
 * it, for a global set-up to provide and to return as its teardown.
 */
export async function writeSnapshot(prepare: (db: Db) => Promise<unknown> = async () => undefined) {
  const db = await openPglite();
  try {
    await migrate(db);
    await prepare(db);
    const dir = mkdtempSync(join(tmpdir(), "console-db-"));
    const file = join(dir, "database.tar");
    writeFileSync(file, Buffer.from(await (await db.snapshot!()).arrayBuffer()));
    return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await db.close();
  }
}

/**
 * A database of the test file's own: a copy of the run's snapshot when its global set-up made one, else
 * (a file run by a tool other than Vitest's projects) a new one, migrated and `prepare`d here.
 */
export async function openDatabase(prepare: (db: Db) => Promise<unknown> = async () => undefined): Promise<Db> {
  const file = process.env.VITEST ? inject("databaseSnapshot") : undefined;
  if (file) return openPglite(undefined, { from: new Blob([readFileSync(file)]) });
  const db = await openPglite();
  await migrate(db);
  await prepare(db);
  return db;
}

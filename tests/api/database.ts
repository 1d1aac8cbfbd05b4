// The API tests' global set-up: the migrated database every test file starts from a copy of
// (tests/support/template-db.ts). On PostgreSQL (DATABASE_URL) each file migrates a schema of its own.
import type { TestProject } from "vitest/node";
import { writeSnapshot } from "../support/template-db.ts";

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const snapshot = await writeSnapshot();
  project.provide("databaseSnapshot", snapshot.file);
  return snapshot.remove;
}

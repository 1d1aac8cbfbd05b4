// Creates the PGlite database in DATA_DIR and brings it up to the schemas, in a process of its own. npm
// start runs it for a folder without a database when it is not to be seeded: creating one in the serving
// process left that process at 740 MiB RSS (PGlite's initdb runs beside the database, and the memory
// either takes is not given back).
import { openDatabase } from "./db.ts";
import { migrate } from "./migrate.ts";

const db = await openDatabase({ dataDir: process.env.DATA_DIR || "./data" });
try {
  const { statements } = await migrate(db);
  console.log(`Database created: ${statements.length} change(s), recorded in sys_migration.`);
} finally {
  await db.close();
}

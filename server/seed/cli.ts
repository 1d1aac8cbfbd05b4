// npm run seed -- [--orders N]
// Opens the database the way the server does (DATABASE_URL, or PGlite in DATA_DIR, default ./data),
// brings it up to the schemas, and fills it with the demo business. Refuses a database that already
// has agents, so running it twice never duplicates anything.
import { openDatabase } from "../db/db.ts";
import { migrate } from "../db/migrate.ts";
import { seedDemo } from "./demo.ts";

function ordersArgument(argv: string[]): number | undefined {
  const at = argv.findIndex((a) => a === "--orders" || a.startsWith("--orders="));
  if (at < 0) return undefined;
  const raw = argv[at].includes("=") ? argv[at].split("=")[1] : argv[at + 1];
  const value = Number(String(raw).replaceAll("_", ""));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--orders needs a whole number, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  const orders = ordersArgument(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || "./data";
  console.log(databaseUrl ? "database: PostgreSQL (DATABASE_URL)" : `database: PGlite in ${dataDir}`);
  const db = await openDatabase({ databaseUrl, dataDir });
  const started = Date.now();
  try {
    const migration = await migrate(db);
    if (migration.statements.length) console.log(`migrate: ${migration.statements.length} statement(s)`);
    const summary = await seedDemo(db, { orders, log: (line) => console.log(`seed: ${line}`) });
    const width = Math.max(...Object.keys(summary.counts).map((t) => t.length));
    console.log("\nrows per table:");
    for (const [table, n] of Object.entries(summary.counts).sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`  ${table.padEnd(width)}  ${n.toLocaleString("en-US").padStart(10)}`);
    }
    console.log(`\nseeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(
      "demo accounts: admin/admin123, agent_a/demo123, agent_a1/demo123, agent_b/demo123, operator_a/demo123, manager_a/demo123",
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

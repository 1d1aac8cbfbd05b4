// npm run ledger:check: recomputes every agent's withdrawable, pending and total revenue, and every
// operator's earnings, from the ledger and reports each figure that differs from the stored one (none, when all is well). Exit code 1 on any
// difference. Opens the database the way the server does (DATABASE_URL, or PGlite in DATA_DIR).
import { openDatabase } from "../../db/db.ts";
import { migrate } from "../../db/migrate.ts";
import { differences } from "./ledger.ts";
import { moneyText as money } from "../../core/money.ts";

const db = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || "./data",
});
try {
  await migrate(db);
  const found = await differences(db);
  const { rows } = await db.query<{ n: number; agents: number; operators: number }>(
    `select (select count(*) from "payment_record")::int as n, (select count(*) from "agent")::int as agents,
            (select count(*) from "operator")::int as operators`,
  );
  if (found.length === 0) {
    console.log(
      `ledger:check: ${rows[0].agents} agents, ${rows[0].operators} operators, ${rows[0].n} ledger entries: every figure equals its entries`,
    );
  } else {
    console.error(`ledger:check: ${found.length} figure(s) differ from the ledger:`);
    for (const d of found)
      console.error(
        `  ${d.who} ${d.nickname} (id ${d.id}) ${d.figure}: stored ${money(d.stored)}, ledger ${money(d.ledger)}`,
      );
    process.exitCode = 1;
  }
} finally {
  await db.close();
}

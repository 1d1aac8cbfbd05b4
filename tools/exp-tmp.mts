import { openPostgres } from "../server/db/db.ts";
import { migrate } from "../server/db/migrate.ts";
import { seedDemo } from "../server/seed/demo.ts";
const db = await openPostgres("postgres://postgres@127.0.0.1:5432/test", "exp");
await migrate(db);
const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from "order"`);
if (rows[0].n === 0) await seedDemo(db, { orders: 200000, log: () => {} });
await db.query("analyze");
for (const sql of [
  `explain analyze select count(*) from "order" where pay_status='refund_requested' and agent_path like '/1/%'`,
  `explain analyze select count(*) from machine_live where deleted_at is null and stock_status='out_of_stock' and agent_path like '/1/%'`,
  `explain analyze select coalesce(sum(orders),0) from stat_order_mix where dimension='status' and key='refund_requested' and agent_path like '/1/%'`,
]) {
  const r = await db.query<Record<string, string>>(sql);
  console.log(sql.slice(0, 80)); console.log(r.rows.map((x) => Object.values(x)[0]).slice(-3).join("\n"));
}
await db.close();

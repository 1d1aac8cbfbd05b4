// The demo data every browser test starts from: seeded once a run (build-console.ts), served as a copy
// by each test file (harness.ts startConsole).
import type { Db } from "../../server/db/db.ts";
import { seedDemo } from "../../server/seed/demo.ts";

export const seedConsole = (db: Db) => seedDemo(db, { orders: 3000 });

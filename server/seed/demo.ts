// The demo seed (DESIGN.md section 6): a business that looks real. A three-level agent tree with the
// demo accounts, outlets at real places, a few hundred devices of every kind with lanes and stock,
// goods with variants, plans, pages, 90 days of orders and the money trail behind them (profit,
// payments, withdrawals). Deterministic: one seeded PRNG for the reference data, and a hash of the row
// number for each order (so the bench can scale the same generator to millions of orders inside
// PostgreSQL with INSERT ... SELECT FROM generate_series). Only the anchor, "now", moves.
//
// Invariants the server's security relies on: the root agent has pid NULL and agent_path '/<id>/';
// every other agent's path is its superior's path + '<id>/' and its agent_id is its own id; every
// scoped row carries its owner's agent_id and agent_path; relations of a scoped row point at rows its
// owner can see (its own subtree), so the console can edit what the seed made.
//
// Each step is a module of steps/ and takes what earlier ones made (steps/seeded.ts). The steps draw from
// the one PRNG in turn, so their order below is part of the data.
import type { Db } from "../db/db.ts";
import { q } from "../core/sql.ts";
import { rebuildRollups, setRollupTriggers } from "../db/rollups.ts";
import { titleCopies } from "../db/migrate.ts";
import { hashPassword } from "../core/passwords.ts";
import { storedModels } from "../model/model.ts";
import { openSeed, type Seed } from "./steps/kit.ts";
import { seedRoles } from "./steps/roles.ts";
import { seedAgents } from "./steps/agents.ts";
import { seedHardware } from "./steps/hardware.ts";
import { seedOutlets } from "./steps/outlets.ts";
import { seedCatalogues } from "./steps/catalogue.ts";
import { seedPlans } from "./steps/plans.ts";
import { seedMachines } from "./steps/machines.ts";
import { seedManagers, seedOperators } from "./steps/operators.ts";
import { seedPages } from "./steps/pages.ts";
import { seedContent } from "./steps/content.ts";
import { seedPlatform } from "./steps/platform.ts";
import { seedFittings } from "./steps/fittings.ts";
import { seedOrders } from "./steps/orders.ts";
import { seedMoney } from "./steps/money.ts";
import { seedLogs } from "./steps/logs.ts";
import { seedRecycleBin } from "./steps/recycle-bin.ts";

export { grantablePermissions } from "./steps/roles.ts";
export { DEMO_INSTALLATION, DEMO_SECRET_KEY, DEMO_SERIAL } from "./steps/platform.ts";

export interface SeedOptions {
  /** Orders over the last 90 days (default 20,000; the bench uses 1,000,000). */
  orders?: number;
  log?: (line: string) => void;
}

export interface SeedSummary {
  /** Rows per table after seeding. */
  counts: Record<string, number>;
  orders: number;
  elapsedMs: number;
}

export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const orders = Math.max(0, Math.floor(options.orders ?? 20_000));

  const existing = await db.query<{ n: number }>(`select count(*)::int as n from ${q("agent")}`);
  if (Number(existing.rows[0].n) > 0) {
    throw new Error("The database is not empty: it already has agents. The demo seed runs only on an empty database.");
  }

  // Hashing is slow by design: once per distinct password, outside the transaction.
  log("hashing the demo passwords");
  const hashes = { admin: await hashPassword("admin123"), demo: await hashPassword("demo123") };

  const now = new Date();
  await db.transaction(async (tx) => {
    // Loaded in bulk: the statistics roll-ups are computed once at the end, not row by row.
    await setRollupTriggers(tx, false);
    await seedSteps(openSeed(tx, { now, log, orders, hashes }));
    // History keeps the titles of what it names (an order its goods' name), as the server writes them.
    for (const statement of titleCopies()) await tx.query(statement);
    await setRollupTriggers(tx, true);
    await rebuildRollups(tx);
  });

  const counts: Record<string, number> = {};
  for (const model of storedModels()) {
    counts[model.table] = Number(
      (await db.query<{ n: number }>(`select count(*)::int as n from ${q(model.table)}`)).rows[0].n,
    );
  }
  const elapsedMs = Date.now() - started;
  log(`done in ${(elapsedMs / 1000).toFixed(1)} s`);
  return { counts, orders: counts.order ?? 0, elapsedMs };
}

/** The steps, in the order they draw from the PRNG. */
async function seedSteps(seed: Seed): Promise<void> {
  const roles = await seedRoles(seed);
  const agents = await seedAgents(seed, { roles });
  const hardware = await seedHardware(seed);
  const outlets = await seedOutlets(seed, { agents });
  const catalogues = await seedCatalogues(seed, { agents });
  const plans = await seedPlans(seed, { agents, hardware, catalogues });
  const machines = await seedMachines(seed, { agents, hardware, outlets, catalogues, plans });
  const operators = await seedOperators(seed, { agents, machines });
  await seedManagers(seed, { agents, machines });
  const pages = await seedPages(seed, { agents, hardware, plans });
  await seedContent(seed);
  await seedPlatform(seed, { agents, hardware });
  await seedFittings(seed, { agents, outlets, machines });
  seed.log("pages, banners, notices, service entries, mini page urls, version, settings, ads, replacements, wifi");
  await seedOrders(seed, { machines, hardware, pages });
  await seedMoney(seed, { agents, pages });
  await seedLogs(seed, { agents, plans, machines, operators });
  await seedRecycleBin(seed, { agents, plans, machines, operators });
}

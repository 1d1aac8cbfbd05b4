// The plan for the day one PostgreSQL is not enough (issue 34; README "Past one database"): every table
// placed as Citus would hold it. On paper: nothing here runs against a database; `npm run
// distribution:check` (tools/distribution-check.ts) and tests/unit/distribution.test.ts hold the plan
// against the tables this version makes, so a new schema cannot be left out of it.
//
// The distribution key is the **tenant**: the level-1 agent a row's agent belongs to (the second id of its
// agent_path, `/1/5/12/` → 5; the platform's own rows are the platform root's, 1). Everything an agent, its
// sub-agents, operators and outlet managers read or write is one tenant's, so their calls go to one shard.
import { tableSpecs } from "./migrate.ts";

export type Placement =
  /**
   * Split by tenant: a `tenant_id` column, co-located with the others, filled on insert from `tenantFrom`:
   * a column of the row (its agent_path, or an id whose row has one), or "record" (the row its entity and
   * record_id name).
   */
  | { kind: "tenant"; tenantFrom: string; why: string }
  /** Split by a key of its own, read by that key alone (a token's hash, a throttle's key). */
  | { kind: "own-key"; key: string; why: string }
  /** Copied whole to every node: small, written by the platform, read by every tenant's statements. */
  | { kind: "reference"; why: string }
  /** On the coordinator only: the installation's own state, never joined with tenants' rows. */
  | { kind: "local"; why: string };

const byPath = (why: string): Placement => ({ kind: "tenant", tenantFrom: "agent_path", why });
const reference = (why: string): Placement => ({ kind: "reference", why });

export const DISTRIBUTION: Record<string, Placement> = {
  // The agent tree: each level-1 agent's subtree is one tenant; the platform's list of all agents is the
  // one query over every shard (paged, sorted by the coordinator).
  agent: byPath("an agent's subtree is its tenant; the platform admin's agent list fans out"),
  operator: byPath("an agent's operators"),
  operator_binding: byPath("binds an operator and a device of one agent"),
  shop_manager: byPath("an agent's outlet managers, with the outlets they run"),
  shop: byPath("an agent's outlets"),
  shop_group: byPath("an agent's outlet groups"),
  wifi: byPath("an outlet's network"),
  goods: byPath("an agent's catalogue"),
  goods_category: byPath("an agent's categories"),
  goods_sku: byPath("a goods' variants"),
  goods_setting: byPath("one per agent (singleton key: the agent's path)"),
  plugin_setting: byPath("one per agent"),
  profit_setting: byPath("an agent's shares by page"),
  channel_plan: byPath("an agent's lane plans"),
  charge_plan: byPath("an agent's charging plans"),
  charge_pile_plan: byPath("an agent's pile plans"),
  deposit_plan: byPath("an agent's deposit plans"),
  dryer_plan: byPath("an agent's dryer plans"),
  car_wash_plan: byPath("an agent's car-wash plans"),
  page: byPath("an agent's mini-program pages"),
  // Devices: a device the platform gives a level-1 agent changes tenant: it is moved (deleted and inserted
  // with its lanes, ads and bindings in one distributed transaction); its history stays where it was made.
  machine: byPath("an agent's devices; a transfer between tenants moves the row and its lanes"),
  machine_channel: byPath("a device's lanes, with their device"),
  machine_ad: byPath("a device's ads"),
  machine_replacement: byPath("a device's hardware swaps"),
  machine_restock: byPath("restock records: the device's agent when made"),
  clean_record: byPath("a device's cleaning records"),
  charge_log: byPath("a device's charging sessions"),
  scan_record: byPath("scans at a device"),
  service_order: byPath("work orders of a device"),
  // Money: an order, its profit rows and ledger entries carry the selling agent's path as it was; a profit
  // share paid to the platform root crosses to the platform's shard (a two-shard transaction, as Citus
  // commits with two-phase commit).
  order: byPath("sales: the device's agent at the time of sale"),
  profit_record: byPath("an order's shares up the agent's line"),
  payment_record: byPath("an agent's ledger entries"),
  withdrawal: byPath("an agent's withdrawals"),
  delivery_order: byPath("an agent's deliveries"),
  stock_consumption: byPath("what an agent's devices sold from stock"),
  saved_view: byPath("a user's saved list views, with its agent's (shared ones are read below it, same tenant)"),
  // Statistics roll-ups: each tenant's days on its shard; the platform's totals sum one row per shard.
  stat_order_day: byPath("a tenant's daily orders; the platform's day is the sum over shards"),
  stat_order_mix: byPath("a tenant's daily mix"),
  stat_revenue_day: byPath("a tenant's daily revenue"),
  stat_machine_day: { kind: "tenant", tenantFrom: "machine_id", why: "a device's days, beside its device" },

  // The platform's own, small, read by every tenant's statements.
  role: reference("roles are the platform's; every agent's permissions read them"),
  admin_group: reference("the platform's admin groups"),
  application: reference("the mini programs; orders and pages name them"),
  banner: reference("the platform's banners"),
  notice: reference("the platform's notices"),
  machine_model: reference("the device models every device names"),
  machine_protocol: reference("the device protocols"),
  machine_spec: reference("the device specifications"),
  mini_page_url: reference("the mini program's page addresses"),
  plugin: reference("the plugins on offer"),
  service_entry: reference("the service entries"),
  version: reference("the console's versions"),
  payment_setting: reference("one row: the platform's payment providers"),
  system_setting: reference("one row: the system's settings"),

  // The system's tables.
  sys_token: { kind: "own-key", key: "token_hash", why: "a session is read by its token's hash alone" },
  sys_login_throttle: { kind: "own-key", key: "key", why: "a counter read by its key alone" },
  sys_login_attempt: { kind: "own-key", key: "account", why: "sign-in attempts, read by account" },
  sys_idempotency: { kind: "own-key", key: "key", why: "a write's answer, read by its key alone" },
  sys_upload: { kind: "tenant", tenantFrom: "quota_id", why: "uploads count against their level-1 agent's quota" },
  sys_audit: { kind: "tenant", tenantFrom: "record", why: "a record's history, beside its record" },
  sys_migration: { kind: "local", why: "the installation's schema changes" },
  sys_import_mapping: { kind: "own-key", key: "key", why: "a user's import column choices, read by its key alone" },
  sys_state: { kind: "local", why: "the installation's licence and routine versions" },
};

export interface PlanProblem {
  table: string;
  problem: string;
}

/** What the plan and this version's tables disagree on: a table not placed, a placement of no table, a key not there. */
export function checkDistribution(plan: Record<string, Placement> = DISTRIBUTION): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const specs = new Map(tableSpecs().map((spec) => [spec.name, new Set(spec.columns.map(([c]) => c))]));
  for (const table of specs.keys())
    if (!plan[table]) problems.push({ table, problem: "not placed: say how it is distributed" });
  for (const [table, placement] of Object.entries(plan)) {
    const columns = specs.get(table);
    if (!columns) {
      problems.push({ table, problem: "placed, but no such table" });
      continue;
    }
    const column =
      placement.kind === "own-key" ? placement.key : placement.kind === "tenant" ? placement.tenantFrom : undefined;
    if (column && column !== "record" && !columns.has(column))
      problems.push({ table, problem: `its tenant or key is read from "${column}", which it does not have` });
  }
  return problems;
}

// Exact list totals that a roll-up already knows (server/db/rollups.ts), so the list needs no count: the
// order list unfiltered, or filtered by its agent or its pay status, in the platform admin's or an
// agent's scope, sums the orders of stat_order_day (or of stat_order_mix's status rows), the same rows the
// dashboard's order figures sum, so the list and the dashboard agree. The roll-ups are kept by triggers in
// the transaction of every order written, so the figure is exact (total_exact). A roll-up row keeps the
// agent path its first order had: agents are never moved, so an order's path is its agent's for good.
import type { EntityModel } from "../model/model.ts";
import type { Condition, Scope } from "./repository.ts";

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The statement that reads the list's exact total from a roll-up, when one covers the filter. */
export function rollupCount(
  model: EntityModel,
  scope: Scope,
  where: Condition[],
): { sql: string; params: unknown[] } | undefined {
  // Only the platform's scope and an agent's subtree are a roll-up's rows: an operator's bindings, an outlet
  // manager's outlets, "below" (the path's own agent left out) and any scope added later are not.
  const narrower = Object.entries(scope).some(([key, value]) => key !== "path" && value !== undefined);
  if (model.name !== "order" || narrower) return;
  const params: unknown[] = [];
  const add = (value: unknown) => `$${params.push(value)}`;
  const conditions: string[] = [];
  if (scope.path !== undefined) conditions.push(`agent_path like ${add(`${escapeLike(scope.path)}%`)}`);
  let statuses: unknown[] | undefined;
  for (const c of where) {
    if (c.field === "agent_id" && c.op === "eq") conditions.push(`agent_id = ${add(c.value)}`);
    else if (c.field === "pay_status" && (c.op === "eq" || c.op === "in") && !statuses)
      statuses = c.op === "eq" ? [c.value] : (c.value as unknown[]);
    else return;
  }
  let table = "stat_order_day";
  if (statuses) {
    table = "stat_order_mix";
    conditions.push(`dimension = 'status'`, `key = any(${add(statuses.map(String))})`);
  }
  const filter = conditions.length ? ` where ${conditions.join(" and ")}` : "";
  return { sql: `select coalesce(sum(orders), 0)::int as n from ${table}${filter}`, params };
}

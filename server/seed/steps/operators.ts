// Operators (the field staff who restock and clean) and the machines bound to them with their share of
// the profit. The demo operator, operator_a, has four of agent_a's vending machines. The demo outlet
// manager, manager_a, follows the two of agent_a's outlets with the most active devices.
import { OPERATOR_NAMES } from "../data.ts";
import { insertMany, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type Operators, type Seeded, type SeededAgent, type SeededMachine } from "./seeded.ts";

export async function seedOperators(
  seed: Seed,
  { agents, machines }: Pick<Seeded, "agents" | "machines">,
): Promise<Operators> {
  const operators: Operators = { bindings: [], bound: new Set() };
  let count = 0;
  for (const agent of agents.field) {
    const rows = operatorRows(seed, agent);
    const ids = await insertMany(seed.tx, "operator", rows);
    count += ids.length;
    const own = machines.filter((m) => m.agent === agent && m.active);
    ids.forEach((operatorId, i) => bind(seed, operators, agent, operatorId, rows[i].account === "operator_a", own));
  }
  await insertMany(seed.tx, "operator_binding", operators.bindings);
  seed.log(`operators ${count}, bindings ${operators.bindings.length}`);
  return operators;
}

function operatorRows(seed: Seed, agent: SeededAgent): Rows["operator"][] {
  const { rng, ago } = seed;
  const names = OPERATOR_NAMES[agent.spec.key] ?? [];
  return names.map((nickname, i) => ({
    nickname,
    account:
      agent.spec.key === "agent_a" && i === 0 ? "operator_a" : `op_${agent.spec.key.replace("agent_", "")}_${i + 1}`,
    password: seed.hashes.demo,
    phone: `${agent.spec.phone.split(" ")[0]} ${rng.int(10, 99)} ${rng.int(100, 999)} ${rng.int(100, 999)}`,
    refill: agent.spec.key === "agent_a" && i === 0 ? 1 : rng.chance(0.7) ? 1 : 0,
    ...owner(agent),
    remark: `${rng.pick(["Morning", "Afternoon", "Night"])} shift, ${rng.pick(["restocking and cleaning", "restocking", "cleaning and cash checks"])}.`,
    created_at: ago(rng.int(30, 200), rng),
  }));
}

/** Binds a few of the agent's active machines no one else has to the operator (the demo's: vending ones). */
function bind(
  seed: Seed,
  operators: Operators,
  agent: SeededAgent,
  operatorId: number,
  isDemo: boolean,
  own: SeededMachine[],
): void {
  const { rng } = seed;
  const pool = isDemo ? own.filter((m) => m.kind === "vending") : own;
  const chosen = rng.sample(
    pool.filter((m) => !operators.bound.has(m.id)),
    isDemo ? 4 : rng.int(3, 6),
  );
  for (const m of chosen) {
    operators.bound.add(m.id);
    const percent = rng.chance(0.7);
    operators.bindings.push({
      operator_id: operatorId,
      machine_id: m.id,
      profit_type: percent ? "percent" : "fixed",
      profit_percent: percent ? rng.pick([0.05, 0.08, 0.1, 0.125, 0.15]) : undefined,
      profit_amount: percent ? undefined : rng.pick([20, 30, 50]),
      share_excess: rng.chance(0.2) ? 1 : 0,
      ...owner(agent),
    });
  }
}

/** manager_a: agent_a's outlet manager, of its two outlets with the most active devices (no draw from the PRNG). */
export async function seedManagers(
  seed: Seed,
  { agents, machines }: Pick<Seeded, "agents" | "machines">,
): Promise<void> {
  const agent = agents.byKey.get("agent_a")!;
  const count = new Map<number, number>();
  for (const m of machines) if (m.agent === agent && m.active) count.set(m.shopId, (count.get(m.shopId) ?? 0) + 1);
  const outlets = [...count].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 2);
  await insertMany(seed.tx, "shop_manager", [
    {
      nickname: "Dara Kim",
      account: "manager_a",
      password: seed.hashes.demo,
      phone: `${agent.spec.phone.split(" ")[0]} 12 404 118`,
      shop_ids: outlets.map(([id]) => id).sort((x, y) => x - y),
      ...owner(agent),
      remark: "Runs two of agent_a's outlets: their devices, orders and restocking.",
      created_at: seed.ago(120),
    },
  ]);
  seed.log("outlet managers 1");
}

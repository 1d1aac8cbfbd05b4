// The recycle bins, so the console's have something to restore (a former outlet manager too): two of agent_b's retired machines, the
// level-1 agents' discontinued umbrellas, an old lane layout and a former operator of agent_a's.
import { q } from "../../core/sql.ts";
import { insertOne, type Seed } from "./kit.ts";
import { owner, type Seeded } from "./seeded.ts";

export async function seedRecycleBin(
  seed: Seed,
  { agents, plans, machines, operators }: Pick<Seeded, "agents" | "plans" | "machines" | "operators">,
): Promise<void> {
  const { tx, ago, log } = seed;
  const agentB = agents.byKey.get("agent_b")!;
  const retired = machines.filter((m) => m.agent === agentB && !m.active && !operators.bound.has(m.id)).slice(0, 2);
  const binAt = ago(4);
  if (retired.length)
    await tx.query(`update ${q("machine")} set deleted_at = $1, deleted_by = $2, shop_id = null where id = any($3)`, [
      binAt,
      agentB.id,
      retired.map((m) => m.id),
    ]);
  for (const agent of agents.levelOne) {
    await tx.query(
      `update ${q("goods")} set deleted_at = $1, deleted_by = $2 where agent_id = $2 and title = 'Folding Umbrella'`,
      [binAt, agent.id],
    );
  }
  const agentA = agents.byKey.get("agent_a")!;
  const oldPlan = plans.get("agent_a")!.channel.values().next().value!;
  await insertOne(tx, "channel_plan", {
    name: "Phnom Penh 2025 layout (old)",
    model_id: (
      await tx.query<{ model_id: number }>(`select model_id from ${q("channel_plan")} where id = $1`, [oldPlan.id])
    ).rows[0].model_id,
    channels: oldPlan.channels,
    sort: 99,
    sync_subor: 0,
    remark: "Replaced by the current layout.",
    ...owner(agentA),
    created_at: ago(300),
    deleted_at: ago(30),
    deleted_by: agentA.id,
  });
  await insertOne(tx, "operator", {
    nickname: "Vuthy Sem",
    account: "op_a_former",
    password: seed.hashes.demo,
    phone: "+855 12 909 101",
    refill: 0,
    ...owner(agentA),
    remark: "Left in September.",
    created_at: ago(200),
    deleted_at: ago(60),
    deleted_by: agentA.id,
  });
  // A former outlet manager of agent_a's (of the outlet its first machine stands at).
  const outlet = machines.find((m) => m.agent === agentA)!.shopId;
  await insertOne(tx, "shop_manager", {
    nickname: "Kanha Ouk",
    account: "mgr_a_former",
    password: seed.hashes.demo,
    phone: "+855 12 909 102",
    shop_ids: [outlet],
    ...owner(agentA),
    remark: "Moved to another city in August.",
    created_at: ago(240),
    deleted_at: ago(90),
    deleted_by: agentA.id,
  });
  log("recycle bins: retired machines, discontinued goods, an old plan, a former operator and outlet manager");
}

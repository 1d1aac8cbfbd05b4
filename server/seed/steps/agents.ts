// The agent tree: the platform admin at the root, level-1 agents under it, level-2 agents under those,
// with the demo accounts. The root has pid NULL and agent_path '/<id>/'; every other agent's path is its
// superior's path + '<id>/', and its agent_id is its own id (the invariants the server's scope relies on).
import { q } from "../../core/sql.ts";
import { AGENTS } from "../data.ts";
import { insertOne, type Seed } from "./kit.ts";
import type { AgentTree, Seeded, SeededAgent } from "./seeded.ts";

export async function seedAgents(seed: Seed, { roles }: Pick<Seeded, "roles">): Promise<AgentTree> {
  const { tx, rng, ago, log, hashes } = seed;
  const byKey = new Map<string, SeededAgent>();
  for (const spec of AGENTS) {
    const parent = spec.parent ? byKey.get(spec.parent)! : undefined;
    const id = await insertOne(tx, "agent", {
      nickname: spec.nickname,
      account: spec.account,
      password: spec.account === "admin" ? hashes.admin : hashes.demo,
      phone: spec.phone,
      role_id: roles.roleOf(spec.level),
      parent_role_id: roles.roleOf(Math.max(0, spec.level - 1)),
      pid: parent?.id ?? null,
      cate_id: spec.group === undefined ? undefined : roles.adminGroupIds[spec.group],
      withdrawable: 0,
      frozen: 0,
      total_revenue: 0,
      description: spec.description,
      created_at: ago(380 - spec.level * 60, rng),
    });
    const path = `${parent?.path ?? "/"}${id}/`;
    await tx.query(`update ${q("agent")} set agent_id = $1, agent_path = $2, updated_at = created_at where id = $1`, [
      id,
      path,
    ]);
    const agent: SeededAgent = { spec, id, path, children: [], parent };
    parent?.children.push(agent);
    byKey.set(spec.key, agent);
  }
  const field = [...byKey.values()].filter((a) => a.spec.level > 0);
  log(`agents ${byKey.size} (3 levels)`);
  return { byKey, root: byKey.get("admin")!, field, levelOne: field.filter((a) => a.spec.level === 1) };
}

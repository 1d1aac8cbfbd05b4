// What is fitted around the devices: ads on the screen machines, the 4G modules replaced in the field,
// and guest Wi-Fi at the agents' first outlets.
import { OPERATOR_NAMES, SHOPS } from "../data.ts";
import { insertMany, slug, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type AgentTree, type Outlets, type Seeded, type SeededMachine } from "./seeded.ts";

export async function seedFittings(
  seed: Seed,
  { agents, outlets, machines }: Pick<Seeded, "agents" | "outlets" | "machines">,
): Promise<void> {
  await insertMany(seed.tx, "machine_ad", adRows(seed, machines));
  await insertMany(seed.tx, "machine_replacement", replacementRows(seed, machines));
  await insertMany(seed.tx, "wifi", wifiRows(seed, agents, outlets));
}

function adRows(seed: Seed, machines: SeededMachine[]): Rows["machine_ad"][] {
  const { rng, ago } = seed;
  const screens = machines.filter((m) => m.network === "android" && m.active);
  return rng.sample(screens, 24).map((m, i) => {
    const type = rng.weighted([
      ["image", 5],
      ["video", 3],
      ["audio", 1],
    ] as const);
    return {
      machine_id: m.id,
      type,
      image: type !== "audio" ? `/uploads/demo/ads/promo-${(i % 6) + 1}.jpg` : undefined,
      video: type === "video" ? `/uploads/demo/ads/promo-${(i % 3) + 1}.mp4` : undefined,
      audio: type === "audio" ? "/uploads/demo/ads/jingle.mp3" : undefined,
      status: rng.chance(0.8) ? 1 : 0,
      sort: (i % 3) + 1,
      ...owner(m.agent),
      created_at: ago(rng.int(1, 60), rng),
    };
  });
}

/** The machine's hardware id now is the new module's; the old one is made up. */
function replacementRows(seed: Seed, machines: SeededMachine[]): Rows["machine_replacement"][] {
  const { rng, ago } = seed;
  const replaced = rng.sample(
    machines.filter((m) => m.network === "4g" && m.active),
    12,
  );
  return replaced.map((m) => ({
    machine_id: m.id,
    mac_name: m.macName,
    old_mac_id: `86451205${rng.digits(7)}`,
    new_mac_id: m.macId,
    reason: rng.pick([
      "4G module burnt out after a power surge.",
      "Main board replaced after water damage.",
      "Modem firmware could not be updated; module swapped.",
      "Antenna connector broken during cleaning.",
    ]),
    operator_name: rng.pick(Object.values(OPERATOR_NAMES).flat()),
    replaced_at: ago(rng.int(5, 200), rng),
    ...owner(m.agent),
  }));
}

/** Two guest networks at each of an agent's first two outlets. */
function wifiRows(seed: Seed, agents: AgentTree, outlets: Outlets): Rows["wifi"][] {
  const { rng } = seed;
  const rows: Rows["wifi"][] = [];
  for (const agent of agents.field) {
    for (const shop of outlets.get(agent.spec.key)!.slice(0, 2)) {
      const name = slug(SHOPS.filter((s) => s.agent === agent.spec.key)[shop.index].name).slice(0, 18);
      for (let i = 1; i <= 2; i++) {
        rows.push({
          shop_id: shop.id,
          ssid: `${name}-guest-${String(i).padStart(2, "0")}`,
          password: `guest${rng.digits(4)}`,
          status: rng.chance(0.85) ? 1 : 0,
          ...owner(agent),
        });
      }
    }
  }
  return rows;
}

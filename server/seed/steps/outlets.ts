// Outlets at real places: each field agent's shops (SHOPS) in the shop groups they use.
import { SHOP_GROUPS, SHOPS } from "../data.ts";
import { insertMany, slug, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type Outlets, type Seeded } from "./seeded.ts";

export async function seedOutlets(seed: Seed, { agents }: Pick<Seeded, "agents">): Promise<Outlets> {
  const { tx, rng, ago, log } = seed;
  const outlets: Outlets = new Map();
  for (const agent of agents.field) {
    const specs = SHOPS.filter((s) => s.agent === agent.spec.key);
    const used = [...new Set(specs.map((s) => s.group))].sort();
    const groupId = new Map<number, number>();
    (
      await insertMany(
        tx,
        "shop_group",
        used.map((g, i) => ({
          name: SHOP_GROUPS[g],
          sort: (i + 1) * 10,
          ...owner(agent),
          created_at: ago(360, rng),
        })),
      )
    ).forEach((id, i) => groupId.set(used[i], id));
    const rows = specs.map((s): Rows["shop"] => {
      const discount = rng.chance(0.3);
      return {
        name: s.name,
        image: `/uploads/demo/shop/${slug(s.name)}.jpg`,
        phone: s.phone,
        cate_id: groupId.get(s.group),
        province: s.province,
        city: s.city,
        district: s.district,
        address: s.address,
        longitude: s.lng,
        latitude: s.lat,
        ...owner(agent),
        open_mall: rng.chance(0.6) ? 1 : 0,
        is_discount: discount ? 1 : 0,
        discount: discount ? rng.pick([0.8, 0.85, 0.9, 0.95]) : undefined,
        meal_appid: rng.chance(0.3) ? `wx${rng.hex(16).toLowerCase()}` : undefined,
        meal_url: rng.chance(0.3) ? `pages/meal/index?shop=${slug(s.name)}` : undefined,
        short_video_url: rng.chance(0.2) ? `https://v.example.com/${slug(s.name)}` : undefined,
        created_at: ago(rng.int(150, 350), rng),
      };
    });
    const ids = await insertMany(tx, "shop", rows);
    outlets.set(
      agent.spec.key,
      ids.map((id, index) => ({ id, index })),
    );
  }
  log(`outlets ${SHOPS.length} in ${new Set(SHOPS.map((s) => s.city)).size} cities`);
  return outlets;
}

// The mini-program pages customers buy through: per field agent, a snacks-and-drinks page on its first
// lane layout and a charging page on its cable hours, each with a layout of modules.
import type { PageLayout } from "../../../schemas/documents/page-layout.ts";
import { SHOPS } from "../data.ts";
import { insertOne, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type Seeded, type SeededAgent } from "./seeded.ts";

/** A page's modules: a goods list on a shop's page, a how-it-works picture on a service's. */
const layout = (goods: boolean): PageLayout => ({
  modules: [
    { id: "banner-1", type: "banner", count: 3, interval: 4000 },
    { id: "notice-1", type: "notice", color: "#ff7a00" },
    {
      id: "grid-1",
      type: "grid",
      columns: 2,
      style: "card",
      ratio: "15:16",
      items: [
        {
          image: "/uploads/demo/page/grid-drinks.jpg",
          link: "/pages/goods/list?cate=drinks",
          label: "Cold drinks",
        },
        { image: "/uploads/demo/page/grid-snacks.jpg", link: "/pages/goods/list?cate=snacks", label: "Snacks" },
      ],
    },
    ...(goods
      ? [{ id: "goods-1", type: "goods", columns: 2, showPrice: true } as const]
      : [{ id: "image-1", type: "image", image: "/uploads/demo/page/how-it-works.jpg" } as const]),
    { id: "spacer-1", type: "spacer", height: 24 },
  ],
});

/** The page of an agent's application, by `${agentId}:${applicationId}`. */
export async function seedPages(
  seed: Seed,
  { agents, hardware, plans }: Pick<Seeded, "agents" | "hardware" | "plans">,
): Promise<Map<string, number>> {
  const { tx } = seed;
  const { appIds } = hardware;
  const pages = new Map<string, number>();
  for (const agent of agents.field) {
    const own = plans.get(agent.spec.key)!;
    const city = SHOPS.find((s) => s.agent === agent.spec.key)!.city;
    const first = own.channel.values().next().value;
    if (first) {
      const id = await insertOne(tx, "page", {
        ...pageColumns(seed, agent, `${city} snacks & drinks`),
        channel_plan_id: first.id,
        application_id: appIds[0],
        goods_columns: 2,
        sort: 10,
        layout: layout(true),
      });
      pages.set(`${agent.id}:${appIds[0]}`, id);
    }
    if (own.charge) {
      const id = await insertOne(tx, "page", {
        ...pageColumns(seed, agent, `${city} charging`),
        charge_plan_id: own.charge.id,
        application_id: appIds[1],
        goods_columns: 1,
        sort: 20,
        layout: layout(false),
      });
      pages.set(`${agent.id}:${appIds[1]}`, id);
    }
  }
  return pages;
}

/** What every page of the agent's has: its branding and its profit model. */
function pageColumns(seed: Seed, agent: SeededAgent, name: string): Rows["page"] {
  const { rng, ago } = seed;
  return {
    name,
    show_type: rng.pick(["logo", "long_logo", "banner"] as const),
    banner_count: 3,
    logo: `/uploads/demo/page/${agent.spec.key}-logo.png`,
    long_logo: `/uploads/demo/page/${agent.spec.key}-logo-wide.png`,
    bg_image: `/uploads/demo/page/${agent.spec.key}-top-bg.jpg`,
    is_vip: rng.chance(0.2) ? 1 : 0,
    is_open: 1,
    profit_model: rng.pick(["profit", "price"] as const),
    profit_type: "percent",
    max_profit: rng.pick([20000, 50000, 100000]),
    share_excess: 0,
    ...owner(agent),
    created_at: ago(rng.int(60, 250), rng),
  };
}

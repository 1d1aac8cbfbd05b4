// Goods catalogues: goods are scoped (an agent sees only its own subtree's), so every agent that stocks
// machines has its catalogue, synced down from its superior, with the categories and the variants, and its
// lanes and plans use it.
import { CATEGORIES, GOODS, type GoodsSpec } from "../data.ts";
import { insertMany, slug, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type CatalogItem, type Catalogues, type Seeded, type SeededAgent } from "./seeded.ts";
import { moneyText } from "../../core/money.ts";

/** The wholesale price an agent passes goods on to its sub-agents at. */
const downPrice = (g: GoodsSpec) => Math.round((g.cost + (g.price - g.cost) * 0.4) / 10) * 10;

export async function seedCatalogues(seed: Seed, { agents }: Pick<Seeded, "agents">): Promise<Catalogues> {
  const catalogues: Catalogues = new Map();
  let goodsCount = 0;
  const skuRows: Rows["goods_sku"][] = [];
  for (const agent of [agents.root, ...agents.field]) {
    const catalog = await seedCatalogue(seed, agent, agent.parent && catalogues.get(agent.parent.spec.key));
    goodsCount += catalog.length;
    catalogues.set(agent.spec.key, catalog);
    for (const item of catalog) {
      for (const [value, price] of item.spec.spec?.values ?? []) {
        skuRows.push({
          goods_id: item.id,
          specs: [{ name: item.spec.spec!.name, value }],
          price,
          image: `/uploads/demo/goods/${slug(item.spec.title)}-${slug(value)}.jpg`,
          stock: seed.rng.int(0, 120),
          status: seed.rng.chance(0.9) ? 1 : 0,
          ...owner(agent),
        });
      }
    }
  }
  await insertMany(seed.tx, "goods_sku", skuRows);
  seed.log(
    `goods ${goodsCount} in ${agents.byKey.size} catalogues (${GOODS.length} products), variants ${skuRows.length}`,
  );
  return catalogues;
}

/** One agent's categories and goods: the root's has every product, another's most of its superior's. */
async function seedCatalogue(seed: Seed, agent: SeededAgent, parentCatalog?: CatalogItem[]): Promise<CatalogItem[]> {
  const { tx, rng, ago } = seed;
  const catIds = new Map<string, number>();
  for (const level of [false, true]) {
    const cats = CATEGORIES.filter((c) => Boolean(c.parent) === level);
    const ids = await insertMany(
      tx,
      "goods_category",
      cats.map((c) => ({
        name: c.name,
        pic: `/uploads/demo/goods-category/${c.key}.jpg`,
        pid: c.parent ? catIds.get(c.parent) : undefined,
        sort: c.sort,
        ...owner(agent),
        created_at: ago(340, rng),
      })),
    );
    ids.forEach((id, i) => catIds.set(cats[i].key, id));
  }
  const goods = agent.spec.level === 0 ? GOODS : GOODS.filter((g) => g.spec || g.noLane || rng.chance(0.75));
  const rows = goods.map((g): Rows["goods"] => {
    const fromParent = parentCatalog?.find((c) => c.spec === g);
    const cost = agent.spec.level === 2 && fromParent ? fromParent.downPrice : g.cost;
    const s = slug(g.title);
    return {
      title: g.title,
      cate_id: catIds.get(g.cat)!,
      pic_url: `/uploads/demo/goods/${s}.jpg`,
      detail_url: [`/uploads/demo/goods/${s}-detail-1.jpg`, `/uploads/demo/goods/${s}-detail-2.jpg`],
      carousel_url: [`/uploads/demo/goods/${s}-1.jpg`, `/uploads/demo/goods/${s}-2.jpg`],
      unit_price: g.price,
      cost_price: cost,
      down_price: Math.max(cost, downPrice(g)),
      stock: rng.int(20, 400),
      stock_warning: rng.pick([5, 10, 20]),
      open_spec: g.spec ? 1 : 0,
      spec_name: g.spec?.name,
      spec_attributes: g.spec ? [{ name: g.spec.name, values: g.spec.values.map(([v]) => v) }] : undefined,
      spec_price: g.spec?.values[0][1],
      spec_pic: g.spec ? `/uploads/demo/goods/${s}-spec.jpg` : undefined,
      desc_spec_price: g.spec ? g.spec.values.map(([v, p]) => `${v}: ${moneyText(p)}`).join("; ") : undefined,
      description: g.description,
      open_sync_subor: agent.children.length ? 1 : 0,
      sync_user: agent.children.length ? agent.children.map((c) => c.id) : undefined,
      ...owner(agent),
      created_at: ago(rng.int(120, 330), rng),
    };
  });
  const ids = await insertMany(tx, "goods", rows);
  return ids.map((id, i) => ({
    id,
    spec: goods[i],
    price: goods[i].price,
    downPrice: rows[i].down_price,
    cost: rows[i].cost_price,
  }));
}

// No key or id shown to a person (issue 31), on the server's side: the refusals that name a record read
// words where it has no title to name it by (a record in use, a record whose unique value was taken while
// it was in the bin), in each of the five languages, never "#<id>". (After helper h1's test of the same.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelOf } from "../../server/model/model.ts";
import { LANGUAGES } from "../../src/schema/constants.ts";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures, urlOf } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
}, 60_000);
afterAll(() => t?.close());

const ID = /#\s*\d+/;

/** A record without a title, as each language names it (common.json record.unnamed), written out here. */
const UNNAMED = {
  category: {
    en: "Goods category without a name",
    zh: "未命名的商品分类",
    tw: "未命名的商品分類",
    th: "หมวดหมู่สินค้าที่ไม่มีชื่อ",
    km: "ប្រភេទទំនិញគ្មានឈ្មោះ",
  },
  plan: {
    en: "Channel plan without a name",
    zh: "未命名的货道方案",
    tw: "未命名的貨道方案",
    th: "แผนช่องสินค้าที่ไม่มีชื่อ",
    km: "ផែនការច្រកគ្មានឈ្មោះ",
  },
} as const;

describe("a refusal naming a record without a title", () => {
  it("names a record in use by its kind in every language (its title emptied)", async () => {
    const category = await fx.createRecord("goods_category", "agent_a", { name: "Soon nameless" });
    await fx.createRecord("goods", "agent_a", { cate_id: category.id });
    await t.db.query(`update "goods_category" set name = '' where id = $1`, [category.id]);
    for (const lng of LANGUAGES) {
      const reply = await (
        await fx.clientIn("agent_a", lng)
      ).del(`/merchant/goods-cate-delete?id=${category.id as number}`);
      expect(reply.status, reply.raw).toBe(409);
      expect(reply.body.message, lng).toContain(UNNAMED.category[lng]);
      expect(reply.body.message, lng).not.toMatch(ID);
    }
  });

  it("names a record that cannot be recovered by its kind in every language (its title emptied)", async () => {
    const model = modelOf("channel_plan");
    const binned = await fx.insertRecord("channel_plan", "admin");
    const admin = await fx.client("admin");
    expect((await admin.del(`${urlOf(model, "delete")}?id=${binned.id as number}`)).status).toBe(200);
    // A live record takes the binned one's unique set (agent and original), as entities.test.ts does.
    const taker = await fx.insertRecord("channel_plan", "admin");
    const row = (await fx.row("channel_plan", binned.id as number))!;
    for (const id of [binned.id, taker.id])
      await t.db.query(`update "channel_plan" set agent_id = $2, source_id = $3 where id = $1`, [
        id,
        row.agent_id,
        row.source_id ?? binned.id,
      ]);
    await t.db.query(`update "channel_plan" set name = '' where id = $1`, [binned.id]);
    for (const lng of LANGUAGES) {
      const reply = await (await fx.clientIn("admin", lng)).post(urlOf(model, "recover"), { id: [binned.id] });
      expect(reply.status, reply.raw).toBe(409);
      expect(reply.body.message, lng).toContain(UNNAMED.plan[lng]);
      expect(reply.body.message, lng).not.toMatch(ID);
    }
  });
});

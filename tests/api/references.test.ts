// Records in use: a record others point at is not deleted for good — a category with goods, a model with
// devices, goods in a channel plan's lanes — and the refusal names what uses it; a recycle bin keeps the
// references valid (delete to the bin works, destroy waits until nothing points at it). Deletes racing
// writes that point at the record never leave a reference to nothing (on PostgreSQL's pool in CI).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA] = await Promise.all([fx.client("admin"), fx.client("agent_a")]);
}, 60_000);
afterAll(() => t?.close());

const exists = async (table: string, id: unknown) =>
  (await t.db.query(`select 1 from "${table}" where id = $1`, [id])).rows.length === 1;

describe("a record in use", () => {
  it("is refused deletion where there is no recycle bin, naming what uses it", async () => {
    const category = await fx.createRecord("goods_category", "agent_a", { name: "Cold drinks" });
    await fx.createRecord("goods", "agent_a", { cate_id: category.id });
    await fx.createRecord("goods", "agent_a", { cate_id: category.id });
    const reply = await agentA.del(`/merchant/goods-cate-delete?id=${category.id as number}`);
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe("“Cold drinks” is still used (Goods 2); change or remove those first");
    expect(await exists("goods_category", category.id)).toBe(true);
    const zh = await fx.clientIn("agent_a", "zh");
    const inChinese = await zh.del(`/merchant/goods-cate-delete?id=${category.id as number}`);
    expect(inChinese.body.message).toMatch(/^“Cold drinks”仍在使用中（商品 2）/);
    const unused = await fx.createRecord("goods_category", "agent_a", { name: "Unused" });
    expect((await agentA.del(`/merchant/goods-cate-delete?id=${unused.id as number}`)).status).toBe(200);
    expect(await exists("goods_category", unused.id)).toBe(false);
  });

  it("counts records in the recycle bin too, and refuses a whole batch when one is in use", async () => {
    const model = await fx.createRecord("machine_model", "admin");
    const spare = await fx.createRecord("machine_model", "admin");
    const device = await fx.createRecord("machine", "agent_a", { model_id: model.id });
    expect((await agentA.del(`/merchant/machine-delete?id=${device.id as number}`)).status).toBe(200);
    const batch = await admin.del(`/merchant/machine-model-delete?id=${spare.id as number},${model.id as number}`);
    expect(batch.status).toBe(409);
    expect(batch.body.message).toContain(`“${model.name as string}”`);
    expect(await exists("machine_model", spare.id)).toBe(true);
  });

  it("goes to the recycle bin, but is destroyed only when nothing points at it (a plan's lanes included)", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "Lane Cola" });
    const plan = await fx.createRecord("channel_plan", "agent_a", {
      channels: [{ channel_number: 1, goods_id: goods.id, count: 8, price: 300 }],
    });
    expect((await agentA.del(`/merchant/goods-delete?id=${goods.id as number}`)).status).toBe(200);
    const destroy = await agentA.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`);
    expect(destroy.status).toBe(409);
    expect(destroy.body.message).toMatch(/^“Lane Cola” is still used \(Channel plan 1\)/);
    expect(await exists("goods", goods.id)).toBe(true);
    expect((await agentA.del(`/merchant/channel-plan-delete?id=${plan.id as number}`)).status).toBe(200);
    expect((await agentA.del(`/merchant/channel-plan-recycle-destroy?id=${plan.id as number}`)).status).toBe(200);
    expect((await agentA.del(`/merchant/goods-recycle-destroy?id=${goods.id as number}`)).status).toBe(200);
    expect(await exists("goods", goods.id)).toBe(false);
  });

  it("never leaves a reference to nothing when writes pointing at it race its deletion", async () => {
    const category = await fx.createRecord("goods_category", "agent_a");
    const body = await fx.makeRecord("goods", "agent_a");
    const replies = await Promise.all([
      ...Array.from({ length: 8 }, () => agentA.post<Row>("/merchant/goods-add", { ...body, cate_id: category.id })),
      agentA.del(`/merchant/goods-cate-delete?id=${category.id as number}`),
      ...Array.from({ length: 8 }, () => agentA.post<Row>("/merchant/goods-add", { ...body, cate_id: category.id })),
    ]);
    const added = replies.filter((r) => r.status === 200 && r.body.data && (r.body.data as Row).cate_id).length;
    const dangling = await t.db.query(
      `select count(*)::int as n from goods g where g.cate_id = $1 and not exists (select 1 from goods_category c where c.id = g.cate_id)`,
      [category.id],
    );
    expect(dangling.rows[0].n).toBe(0);
    if (await exists("goods_category", category.id)) expect(added).toBeGreaterThan(0);
    else expect(added).toBe(0);
  });
});

// The -all picker calls: { id, title } options by title search (?q=) or for given ids (?id=1,2,3, what a
// list page asks to name its relations), always within the caller's scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
}, 60_000);
afterAll(() => t?.close());

interface Option {
  id: number;
  title: string;
}

describe("goods-cate-all", () => {
  it("answers exactly the ids asked for", async () => {
    const ids: number[] = [];
    for (const name of ["Cold drinks", "Snacks", "Instant noodles"])
      ids.push((await fx.createRecord("goods_category", "admin", { name })).id as number);
    const admin = await fx.client("admin");
    const reply = await admin.get<Option[]>(`/merchant/goods-cate-all?id=${ids[0]},${ids[2]}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((o) => o.id).sort((a, b) => a - b)).toEqual([ids[0], ids[2]]);
    expect(reply.body.data.find((o) => o.id === ids[2])?.title).toBe("Instant noodles");
    const search = await admin.get<Option[]>("/merchant/goods-cate-all?q=snack");
    expect(search.body.data.map((o) => o.id)).toEqual([ids[1]]);
  });

  it("names only what the caller may see", async () => {
    const own = (await fx.createRecord("goods_category", "agent_a", { name: "A's drinks" })).id as number;
    const other = (await fx.createRecord("goods_category", "agent_b", { name: "B's drinks" })).id as number;
    const agentA = await fx.client("agent_a");
    const reply = await agentA.get<Option[]>(`/merchant/goods-cate-all?id=${own},${other}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([{ id: own, title: "A's drinks" }]);
    expect((await agentA.get<Option[]>(`/merchant/goods-cate-all?id=${other}`)).body.data).toEqual([]);
  });

  it("refuses ids that are not ids", async () => {
    const admin = await fx.client("admin");
    for (const id of ["abc", "1,x", "0", "-3"]) {
      const reply = await admin.get(`/merchant/goods-cate-all?id=${id}`);
      expect(reply.status, id).toBe(400);
    }
  });
});

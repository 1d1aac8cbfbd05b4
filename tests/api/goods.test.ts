// goods-down: a superior sees its subordinates' goods, never its own nor a sibling's.
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

describe("goods-down", () => {
  it("lists the goods of the agents below the caller, with the list's paging and filters", async () => {
    const own = (await fx.createRecord("goods", "agent_a", { title: "A's cola" })).id as number;
    const below = (await fx.createRecord("goods", "agent_a1", { title: "A1's cola" })).id as number;
    const sibling = (await fx.createRecord("goods", "agent_b", { title: "B's cola" })).id as number;
    const agentA = await fx.client("agent_a");
    const reply = await agentA.get<{ list: { id: number }[]; total: number }>(
      "/merchant/goods-down?page=1&limit=200&title_like=cola",
    );
    expect(reply.status).toBe(200);
    const ids = reply.body.data.list.map((g) => g.id);
    expect(ids).toContain(below);
    expect(ids).not.toContain(own);
    expect(ids).not.toContain(sibling);

    const admin = await fx.client("admin");
    const all = await admin.get<{ list: { id: number }[] }>("/merchant/goods-down?limit=200&title_like=cola");
    expect(all.body.data.list.map((g) => g.id).sort((a, b) => a - b)).toEqual([own, below, sibling]);

    const bad = await agentA.get("/merchant/goods-down?colour=red");
    expect(bad.status).toBe(400);
  });

  it("needs the goods list permission", async () => {
    const operator = await fx.client("operator_a");
    expect((await operator.get("/merchant/goods-down")).status).toBe(403);
  });
});

describe("JSON content type without a body", () => {
  it("is accepted on a DELETE, as SPEC's clients send it on every request", async () => {
    const id = (await fx.createRecord("goods", "admin", { title: "Bodiless delete" })).id as number;
    const admin = await fx.client("admin");
    const reply = await t.app.inject({
      method: "DELETE",
      url: `/merchant/goods-delete?id=${id}`,
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
    });
    expect(reply.statusCode).toBe(200);
    const broken = await t.app.inject({
      method: "POST",
      url: "/merchant/goods-add",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe(400);
  });
});

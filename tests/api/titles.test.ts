// A list answer names what its rows point at (titles: target entity → id → title), so a screen shows
// "Riverside Kiosk" where a row holds shop_id 7, in the same request and for every role: an operator may
// not list agents or outlets, yet sees the names of those its devices belong to. Only what the shown
// rows point at is named; another agent's rows (and so their outlets) stay out.
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

type Titles = Record<string, Record<string, string>>;
interface Page {
  list: { id: number }[];
  titles: Titles;
}

describe("titles in list answers", () => {
  it("names a device's outlet and agent for the operator bound to it, who may list neither", async () => {
    const shop = (await fx.createRecord("shop", "agent_a", { name: "Riverside Kiosk" })).id as number;
    const machine = (await fx.createRecord("machine", "agent_a", { shop_id: shop })).id as number;
    await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id: machine });
    const agentA = await fx.owner("agent_a");
    const {
      rows: [{ nickname }],
    } = await t.db.query<{ nickname: string }>(`select nickname from "agent" where id = $1`, [agentA.id]);

    const operator = await fx.client("operator_a");
    const reply = await operator.get<Page>(`/merchant/machine-list?id=${machine}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.list.map((r) => r.id)).toEqual([machine]);
    expect(reply.body.data.titles.shop).toEqual({ [shop]: "Riverside Kiosk" });
    expect(reply.body.data.titles.agent).toEqual({ [agentA.id]: nickname });
    // Which the operator could not have asked for by name.
    expect((await operator.get(`/merchant/shop-all?id=${shop}`)).status).toBe(403);
  });

  it("names the goods in a channel plan's lanes (relations inside a list of objects)", async () => {
    const cola = (await fx.createRecord("goods", "agent_a", { title: "Titles Cola 330ml" })).id as number;
    const chips = (await fx.createRecord("goods", "agent_a", { title: "Titles Chips 50g" })).id as number;
    const plan = await fx.createRecord("channel_plan", "agent_a", {
      channels: [
        { channel_number: 1, goods_id: cola, count: 10, price: 350 },
        { channel_number: 2, goods_id: chips, count: 8, price: 500 },
        { channel_number: 3, goods_id: cola, count: 10, price: 350 },
      ],
    });
    const reply = await (await fx.client("agent_a")).get<Page>(`/merchant/channel-plan-list?id=${plan.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.titles.goods).toEqual({ [cola]: "Titles Cola 330ml", [chips]: "Titles Chips 50g" });
  });

  it("names nothing of rows the caller cannot see, and nothing when nothing is pointed at", async () => {
    const shop = (await fx.createRecord("shop", "agent_a", { name: "A's Hidden Outlet" })).id as number;
    const machine = (await fx.createRecord("machine", "agent_a", { shop_id: shop })).id as number;
    const reply = await (await fx.client("agent_b")).get<Page>(`/merchant/machine-list?id=${machine}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.list).toEqual([]);
    expect(reply.body.data.titles).toEqual({});
    expect(JSON.stringify(reply.body)).not.toContain("A's Hidden Outlet");
  });

  it("keeps refusing what it refused: bad ids and callers without the list permission", async () => {
    expect((await (await fx.client("agent_a")).get(`/merchant/machine-list?id=abc`)).status).toBe(400);
    // The operator has no permission for the outlet list: no titles through it either.
    expect((await (await fx.client("operator_a")).get(`/merchant/shop-list`)).status).toBe(403);
  });
});

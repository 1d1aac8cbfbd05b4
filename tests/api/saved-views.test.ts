// Saved views (schemas/saved-view.json, x-entity.scope "owner"): each user's own. Its owner creates, lists,
// updates and deletes it; any other principal (the admin included) never sees it and is answered 404 on
// it; an agent's shared view is read by the agents below it, read-only, and by no one else; an operator or
// an outlet manager, who has no one below, is refused sharing (400 on `shared`), never silently unshared;
// one default per list and user; bad input is answered 400 with the fields named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type ListData } from "./fixtures.ts";

const PRINCIPALS = ["admin", "agent_a", "agent_a1", "agent_b", "operator_a", "manager_a"] as const;
type Who = (typeof PRINCIPALS)[number];
type View = { id: number; version: number; name: string; mine: boolean; is_default: boolean; shared: boolean };

let t: TestApp;
let fx: Fixtures;
const as = {} as Record<Who, Client>;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  const outlet = (await fx.createRecord("shop", "agent_a")).id as number;
  await fx.outletManager([outlet]);
  for (const who of PRINCIPALS) as[who] = await fx.client(who);
});
afterAll(() => t?.close());

const add = async (who: Who, body: Record<string, unknown>) => {
  const reply = await as[who].post<View>("/merchant/saved-view-add", { list: "orders", ...body });
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
};
const names = async (who: Who, list = "orders") =>
  (await as[who].get<ListData>(`/merchant/saved-view-list?list=${list}&limit=40`)).body.data.list.map(
    (v) => v.name as string,
  );

describe("saved views", () => {
  it("are created, listed, updated and deleted by their owner, every kind of principal", async () => {
    for (const who of PRINCIPALS) {
      const view = await add(who, {
        name: `Mine ${who}`,
        filters: { status: 1 },
        sort: { field: "created_at", order: "desc" },
        columns: [{ key: "order_no", shown: true, width: 180 }],
        page_size: 20,
      });
      expect(view).toMatchObject({ name: `Mine ${who}`, page_size: 20, mine: true, is_default: false });
      expect(await names(who)).toEqual([`Mine ${who}`]);
      const detail = await as[who].get<View>(`/merchant/saved-view-list?id=${view.id}`);
      expect(detail.status).toBe(200);
      const renamed = await as[who].post<View>("/merchant/saved-view-update", {
        id: view.id,
        version: view.version,
        name: `Renamed ${who}`,
      });
      expect(renamed.status, renamed.raw).toBe(200);
      expect(renamed.body.data.name).toBe(`Renamed ${who}`);
      expect(await names(who)).toEqual([`Renamed ${who}`]);
      expect((await as[who].del(`/merchant/saved-view-delete?id=${view.id}`)).status).toBe(200);
      expect(await names(who)).toEqual([]);
    }
  });

  it("are never seen nor changed by another principal (404)", async () => {
    for (const owner of PRINCIPALS) {
      const view = await add(owner, { name: `Private ${owner}` });
      for (const other of PRINCIPALS.filter((w) => w !== owner)) {
        expect(await names(other)).not.toContain(`Private ${owner}`);
        const update = await as[other].post("/merchant/saved-view-update", {
          id: view.id,
          version: view.version,
          name: "Taken",
        });
        expect(update.status, `${other} updates ${owner}'s`).toBe(404);
        expect((await as[other].del(`/merchant/saved-view-delete?id=${view.id}`)).status).toBe(404);
      }
      expect(await names(owner)).toContain(`Private ${owner}`);
      await as[owner].del(`/merchant/saved-view-delete?id=${view.id}`);
    }
  });

  it("shared by an agent are read by its subordinates only, read-only", async () => {
    const view = await add("agent_a", { name: "Team view", shared: true });
    expect(await names("agent_a1")).toEqual(["Team view"]);
    const seen = (await as.agent_a1.get<ListData>("/merchant/saved-view-list?list=orders")).body.data.list[0];
    expect(seen.mine).toBe(false);
    for (const outsider of ["agent_b", "admin", "operator_a", "manager_a"] as const)
      expect(await names(outsider), outsider).toEqual([]);
    const update = await as.agent_a1.post("/merchant/saved-view-update", {
      id: view.id,
      version: view.version,
      name: "Mine now",
    });
    expect(update.status).toBe(404);
    expect((await as.agent_a1.del(`/merchant/saved-view-delete?id=${view.id}`)).status).toBe(404);
    expect(await names("agent_a")).toEqual(["Team view"]);

    // Shared upward never: agent_a1's shared view is not its superior's.
    const below = await add("agent_a1", { name: "From below", shared: true });
    expect(await names("agent_a")).toEqual(["Team view"]);
    await as.agent_a1.del(`/merchant/saved-view-delete?id=${below.id}`);
    await as.agent_a.del(`/merchant/saved-view-delete?id=${view.id}`);
  });

  it("are shared by an agent only: an operator or an outlet manager is refused, on create and on update", async () => {
    for (const who of ["operator_a", "manager_a"] as const) {
      const made = await as[who].post("/merchant/saved-view-add", { list: "orders", name: "Team", shared: true });
      expect(made.status, `${who} creates`).toBe(400);
      expect(errorFields(made)).toEqual(["shared"]);
      expect(await names(who)).toEqual([]);

      const view = await add(who, { name: `Own ${who}` });
      const update = await as[who].post("/merchant/saved-view-update", {
        id: view.id,
        version: view.version,
        shared: true,
      });
      expect(update.status, `${who} updates`).toBe(400);
      expect(errorFields(update)).toEqual(["shared"]);
      const kept = (await as[who].get<ListData>(`/merchant/saved-view-list?id=${view.id}`)).body.data.list;
      expect(kept[0]).toMatchObject({ shared: false, version: view.version });
      // Unshared, as it is, the view is still theirs to change.
      const renamed = await as[who].post("/merchant/saved-view-update", {
        id: view.id,
        version: view.version,
        name: "Renamed",
        shared: false,
      });
      expect(renamed.status, renamed.raw).toBe(200);
      await as[who].del(`/merchant/saved-view-delete?id=${view.id}`);
    }
    // Told in the caller's language, naming what to do.
    const zh = await (
      await fx.clientIn("operator_a", "zh")
    ).post("/merchant/saved-view-add", {
      list: "orders",
      name: "Team",
      shared: true,
    });
    expect(zh.status).toBe(400);
    expect(JSON.stringify(zh.body)).toContain("只有代理商");

    // An agent still shares, on create and on update.
    const made = await add("agent_a", { name: "Shared at once", shared: true });
    expect(made.shared).toBe(true);
    const later = await add("agent_a", { name: "Shared later" });
    const shared = await as.agent_a.post<View>("/merchant/saved-view-update", {
      id: later.id,
      version: later.version,
      shared: true,
    });
    expect(shared.status, shared.raw).toBe(200);
    expect(shared.body.data.shared).toBe(true);
    expect(await names("agent_a1")).toEqual(["Shared at once", "Shared later"]);
    for (const view of [made, later]) await as.agent_a.del(`/merchant/saved-view-delete?id=${view.id}`);
  });

  it("keep one default per list and user", async () => {
    const first = await add("agent_b", { name: "First", is_default: true });
    const second = await add("agent_b", { name: "Second", is_default: true });
    await add("agent_b", { name: "Outlets", list: "outlets", is_default: true });
    const list = (await as.agent_b.get<ListData>("/merchant/saved-view-list?list=orders")).body.data.list;
    expect(list.map((v) => [v.name, v.is_default])).toEqual([
      ["First", false],
      ["Second", true],
    ]);
    expect(first.id).not.toBe(second.id);
    expect((await as.agent_b.get<ListData>("/merchant/saved-view-list?list=outlets")).body.data.list[0]).toMatchObject({
      is_default: true,
    });
  });

  it("refuse bad input with 400 naming the fields", async () => {
    const missing = await as.agent_a.post("/merchant/saved-view-add", { list: "orders" });
    expect(missing.status).toBe(400);
    expect(errorFields(missing)).toContain("name");
    const wrong = await as.agent_a.post("/merchant/saved-view-add", {
      name: 5,
      list: "orders",
      filters: "status=1",
      sort: { field: "created_at", order: "sideways" },
      columns: [{ key: "id", shown: "yes" }],
      page_size: 15,
      shared: "no",
    });
    expect(wrong.status).toBe(400);
    expect(errorFields(wrong)).toEqual(
      expect.arrayContaining(["name", "filters", "sort/order", "columns/0/shown", "page_size", "shared"]),
    );
    expect(await names("agent_a")).toEqual([]);
  });
});

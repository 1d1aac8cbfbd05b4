// A race lost, as the console is told it: a save at a version someone else moved on answers 409 with
// `data.conflict: "staleVersion"`, a transition the record's new state no longer allows `"stateConflict"`
// (server/core/errors.ts), in the caller's language; the record's history names who moved it on and what
// changed, and a save of the merged values at the current version goes through with both people's changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type Row } from "./fixtures.ts";
import type { RecordHistoryAnswer } from "../../src/generated/types.ts";

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

const nickname = async (account: string) =>
  (await t.db.query<{ nickname: string }>(`select nickname from agent where account = $1`, [account])).rows[0].nickname;

describe("a save at a stale version", () => {
  it("answers 409 saying it is a stale version, in the caller's words; history names who changed what", async () => {
    const goods = await fx.createRecord("goods", "agent_a", { title: "Race Cola", unit_price: 350 });
    const mine = (await fx.read("goods", "agent_a", goods.id))!;
    const theirs = (await fx.read("goods", "admin", goods.id))!;

    const first = await admin.post<Row>("/merchant/goods-update", { ...theirs, title: "Race Cola Zero" });
    expect(first.status, first.raw).toBe(200);

    const stale = await agentA.post("/merchant/goods-update", { ...mine, unit_price: 400 });
    expect(stale.status, stale.raw).toBe(409);
    expect(stale.body).toEqual({
      code: 409,
      message: "Someone else changed this record meanwhile; reload it and try again",
      data: { conflict: "staleVersion" },
    });
    const inChinese = await (
      await fx.clientIn("agent_a", "zh")
    ).post("/merchant/goods-update", {
      ...mine,
      unit_price: 400,
    });
    expect(inChinese.body).toEqual({
      code: 409,
      message: "该记录已被他人修改，请刷新后重试",
      data: { conflict: "staleVersion" },
    });

    const history = await agentA.get<RecordHistoryAnswer>(`/merchant/record-history?entity=goods&id=${goods.id}`);
    expect(history.status, history.raw).toBe(200);
    const [latest] = history.body.data;
    expect(latest.action).toBe("update");
    expect(latest.actor_name).toBe(await nickname("admin"));
    expect(latest.changes).toEqual({ title: ["Race Cola", "Race Cola Zero"] });
    expect(latest.lines).toEqual([{ field: "title", label: "Title", before: "Race Cola", after: "Race Cola Zero" }]);

    // The merge the console sends: theirs where they changed, mine where I did, at the current version.
    const now = (await fx.read("goods", "agent_a", goods.id))!;
    const merged = await agentA.post<Row>("/merchant/goods-update", { ...now, unit_price: 400 });
    expect(merged.status, merged.raw).toBe(200);
    expect(merged.body.data).toMatchObject({
      title: "Race Cola Zero",
      unit_price: 400,
      version: (now.version as number) + 1,
    });
  });
});

describe("a transition raced by another user", () => {
  it("answers 409 stale at the version read, and stateConflict at the new one; history says who approved", async () => {
    const withdrawal = await fx.createRecord("withdrawal", "agent_a");
    const read = (await fx.read("withdrawal", "admin", withdrawal.id))!;
    expect(read.status).toBe("pending");
    const approve = { id: read.id, action: "approve", version: read.version };

    const first = await admin.post<Row>("/merchant/data-withdraw-action", approve);
    expect(first.status, first.raw).toBe(200);

    const second = await admin.post("/merchant/data-withdraw-action", approve);
    expect(second.status, second.raw).toBe(409);
    expect(second.body.data).toEqual({ conflict: "staleVersion" });

    const now = (await fx.read("withdrawal", "admin", withdrawal.id))!;
    expect(now.status).toBe("approved");
    const again = await admin.post("/merchant/data-withdraw-action", { ...approve, version: now.version });
    expect(again.status, again.raw).toBe(409);
    expect(again.body).toEqual({
      code: 409,
      message: "This action is not allowed in the record's current state",
      data: { conflict: "stateConflict" },
    });

    const history = await admin.get<RecordHistoryAnswer>(
      `/merchant/record-history?entity=withdrawal&id=${withdrawal.id}`,
    );
    const [latest] = history.body.data;
    expect(latest.action).toBe("approve");
    expect(latest.actor_name).toBe(await nickname("admin"));
    expect((latest.changes as Row).status).toEqual(["pending", "approved"]);
  });
});

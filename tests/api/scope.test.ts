// The caller's scope as SQL, run against the database: which rows an agent path, a "below" path and an
// operator reach, on each kind of entity, with the placeholders numbered after the statement's own.
// Expected rows are the ones the test inserted, not what the code computes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopeOf, type Principal } from "../../server/entities/context.ts";
import { modelOf } from "../../server/model/model.ts";
import { scopeClause, type Scope } from "../../server/entities/repository.ts";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
});
afterAll(() => t?.close());

/** The ids among `ids` that the scope lets through, with one placeholder of the statement's own before. */
async function reached(entity: string, scope: Scope, ids: number[]): Promise<number[]> {
  const model = modelOf(entity);
  const clause = scopeClause(model, scope, 1);
  const { rows } = await t.db.query<{ id: number }>(
    `select id from "${model.table}" where id = any($1::bigint[])${clause.sql} order by id`,
    [ids, ...clause.values],
  );
  return rows.map((r) => Number(r.id));
}

const principal = (over: Partial<Principal>): Principal => ({
  kind: "agent",
  id: 7,
  agentId: 7,
  agentPath: "/1/7/",
  isAdmin: false,
  permissions: new Set(),
  name: "x",
  account: "x",
  ...over,
});

describe("scopeOf", () => {
  it("gives the admin no limit, an agent its path, an operator its agent's path and itself", () => {
    expect(scopeOf(principal({ isAdmin: true }))).toEqual({});
    expect(scopeOf(principal({}))).toEqual({ path: "/1/7/" });
    expect(scopeOf(principal({ kind: "operator", id: 3, agentId: 7 }))).toEqual({ path: "/1/7/", operatorId: 3 });
  });
});

describe("scopeClause", () => {
  it("reaches an agent's own rows and its subtree's, and nothing for the admin's empty scope", async () => {
    const a = (await fx.createRecord("shop", "agent_a")).id as number;
    const a1 = (await fx.createRecord("shop", "agent_a1")).id as number;
    const b = (await fx.createRecord("shop", "agent_b")).id as number;
    const path = async (account: "agent_a" | "agent_a1") => (await fx.owner(account)).path;
    expect(await reached("shop", { path: await path("agent_a") }, [a, a1, b])).toEqual([a, a1]);
    expect(await reached("shop", { path: await path("agent_a1") }, [a, a1, b])).toEqual([a1]);
    expect(await reached("shop", { below: await path("agent_a") }, [a, a1, b])).toEqual([a1]);
    expect(await reached("shop", {}, [a, a1, b])).toEqual([a, a1, b]);
    expect(scopeClause(modelOf("shop"), {}, 4)).toEqual({ sql: "", values: [] });
  });

  it("takes % and _ in a path literally", async () => {
    const ids: number[] = [];
    for (const path of ["/9_/", "/9x/", "/9%/", "/9%/2/", "/9\\/"]) {
      const { id } = await fx.createRecord("shop", "agent_a");
      await t.db.query(`update "shop" set agent_path = $2 where id = $1`, [id, path]);
      ids.push(id as number);
    }
    const [underscore, x, percent, belowPercent, backslash] = ids;
    expect(await reached("shop", { path: "/9_/" }, ids)).toEqual([underscore]);
    expect(await reached("shop", { path: "/9%/" }, ids)).toEqual([percent, belowPercent]);
    expect(await reached("shop", { below: "/9%/" }, ids)).toEqual([belowPercent]);
    expect(await reached("shop", { path: "/9\\/" }, ids)).toEqual([backslash]);
    expect(await reached("shop", { path: "/9x/" }, ids)).toEqual([x]);
  });

  it("limits an operator to its bound machines, their lanes, its own records and what its machines name", async () => {
    const machines: number[] = [];
    for (let i = 0; i < 2; i++) machines.push((await fx.createRecord("machine", "agent_a")).id as number);
    const [bound] = machines;
    await fx.insertRecord("operator_binding", "agent_a", { operator_id: t.ids.operator_a, machine_id: bound });
    const lanes = [];
    for (const machine_id of machines)
      lanes.push((await fx.insertRecord("machine_channel", "agent_a", { machine_id })).id as number);
    const cleans = [];
    for (const operator_id of [t.ids.operator_a, null])
      cleans.push((await fx.insertRecord("clean_record", "agent_a", { machine_id: bound, operator_id })).id as number);
    const operator = { path: (await fx.owner("agent_a")).path, operatorId: t.ids.operator_a };
    expect(await reached("machine", operator, machines)).toEqual([bound]);
    expect(await reached("machine_channel", operator, lanes)).toEqual([lanes[0]]);
    // A record with an operator is the operator's own, whichever machine it names.
    expect(await reached("clean_record", operator, cleans)).toEqual([cleans[0]]);
    // An entity with neither: what the bound machines name (here their outlet), within the agent path;
    // never the agent's other records (an outlet only an unbound machine names, its goods).
    const [shop, other] = [
      (await fx.row("machine", bound))!.shop_id as number,
      (await fx.createRecord("shop", "agent_a")).id as number,
    ];
    await fx.setColumn("machine", machines[1], "shop_id", other);
    expect(await reached("shop", operator, [shop, other])).toEqual([shop]);
    expect(await reached("shop", { ...operator, path: "/nobody/" }, [shop])).toEqual([]);
    expect(await reached("goods", operator, [(await fx.createRecord("goods", "agent_a")).id as number])).toEqual([]);
    // Of the operators, itself only.
    const colleague = (await fx.createRecord("operator", "agent_a")).id as number;
    expect(await reached("operator", operator, [t.ids.operator_a, colleague])).toEqual([t.ids.operator_a]);
  });
});

// Statements marked samePlan (server/db/db.ts): the same answers as unmarked ones on both databases, in and
// out of a transaction; on PostgreSQL each is prepared once per connection and its plan kept (the list's
// titles are one), past a few hundred texts the rest run unprepared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
let t: TestApp;
let fx: Fixtures;
let poolMax: string | undefined;
beforeAll(async () => {
  // One connection, so that what this test asks of PostgreSQL's session is what the app's calls left there.
  poolMax = process.env.PG_POOL_MAX;
  process.env.PG_POOL_MAX = "1";
  t = await createTestApp();
  fx = new Fixtures(t);
}, 60_000);
afterAll(async () => {
  if (poolMax === undefined) delete process.env.PG_POOL_MAX;
  else process.env.PG_POOL_MAX = poolMax;
  await t?.close();
});

const LOOKUP = `select id, "name"::text as name from "shop" where id = any($1::bigint[]) order by id`;

describe("a statement whose plan fits every value", () => {
  it("answers as an unmarked one does, for other values each time, in and out of a transaction", async () => {
    const ids: number[] = [];
    for (const name of ["North", "South", "East"])
      ids.push((await fx.createRecord("shop", "agent_a", { name })).id as number);
    // More runs than PostgreSQL's five before it weighs a generic plan.
    for (let i = 0; i < 8; i++) {
      const wanted = i % 2 ? [ids[i % 3]] : ids;
      const plain = await t.db.query(LOOKUP, [wanted]);
      expect(await t.db.query(LOOKUP, [wanted], { samePlan: true })).toEqual(plain);
      expect(await t.db.transaction((tx) => tx.query(LOOKUP, [wanted], { samePlan: true }))).toEqual(plain);
    }
    expect((await t.db.query<{ name: string }>(LOOKUP, [ids], { samePlan: true })).rows.map((r) => r.name)).toEqual([
      "North",
      "South",
      "East",
    ]);
  });

  it.runIf(ON_POSTGRES)("is prepared once on the connection and its plan kept, on PostgreSQL", async () => {
    const prepared = () =>
      t.db.query<{ statement: string; generic_plans: number }>(
        `select statement, generic_plans::int as generic_plans from pg_prepared_statements`,
      );
    // More runs than the five custom plans PostgreSQL makes before it weighs the generic one.
    const ids: number[] = [];
    for (const name of ["West", "Hill", "Lake"])
      ids.push((await fx.createRecord("shop", "agent_a", { name })).id as number);
    for (let i = 0; i < 6; i++) await t.db.query(LOOKUP, [ids], { samePlan: true });
    const runs = (await prepared()).rows.find((r) => r.statement === LOOKUP);
    expect(runs).toBeDefined();
    // Planned once for every value after the first runs: the generic plan serves the later ones.
    expect(runs!.generic_plans).toBeGreaterThan(0);
    expect((await prepared()).rows.filter((r) => r.statement === LOOKUP)).toHaveLength(1);
    // An unmarked statement is not prepared.
    expect((await prepared()).rows.some((r) => r.statement.startsWith("select statement"))).toBe(false);
  });

  it.runIf(ON_POSTGRES)("names the titles of a list answer with a kept plan", async () => {
    const shop = (await fx.createRecord("shop", "agent_a", { name: "Harbour" })).id as number;
    const admin = await t.as("admin");
    const reply = await admin.get<{ titles: Record<string, unknown> }>(`/merchant/shop-list?id=${shop}`);
    expect(reply.status, reply.raw).toBe(200);
    expect(Object.keys(reply.body.data.titles)).toContain("agent");
    const { rows } = await t.db.query<{ statement: string }>(`select statement from pg_prepared_statements`);
    const titles = rows.filter((r) => r.statement.includes(`::text as t from "agent" where id = any(`));
    expect(titles).toHaveLength(1);
  });

  it.runIf(ON_POSTGRES)(
    "answers the same once a newer version's migration adds a column to the table its kept plan reads",
    async () => {
      const shop = (await fx.createRecord("shop", "agent_a", { name: "Quay" })).id as number;
      const admin = await t.as("admin");
      const titles = async () => {
        const reply = await admin.get<{ titles: Record<string, Record<number, string>> }>(
          `/merchant/shop-list?id=${shop}`,
        );
        expect(reply.status, reply.raw).toBe(200);
        return reply.body.data.titles;
      };
      const before = await titles();
      expect(Object.values(before.agent)).toContain("agent a");
      // What another server's migration does in a rolling upgrade, on the table whose titles are prepared here.
      await t.db.query(`alter table "agent" add column "next_version_note" text`);
      try {
        expect(await titles()).toEqual(before);
        expect(await t.db.query(LOOKUP, [[shop]], { samePlan: true })).toEqual(await t.db.query(LOOKUP, [[shop]]));
      } finally {
        await t.db.query(`alter table "agent" drop column "next_version_note"`);
      }
    },
  );

  it("runs every text past the number prepared, unprepared", async () => {
    // 600 texts, more than are prepared; each answers.
    for (let i = 0; i < 600; i++) {
      const { rows } = await t.db.query<{ n: number }>(`select $1::int + ${i} as n`, [1], { samePlan: true });
      expect(rows[0].n).toBe(i + 1);
    }
    if (ON_POSTGRES) {
      const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`);
      expect(rows[0].n).toBeLessThanOrEqual(500);
    }
  });
});

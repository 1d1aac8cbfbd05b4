// The distribution plan (server/db/distribution.ts) places every table this version makes, and only those,
// each by a column it has: a new schema, or a renamed key, fails here until the plan says where it goes.
import { describe, expect, it } from "vitest";
import { checkDistribution, DISTRIBUTION } from "../../server/db/distribution.ts";
import { tableSpecs } from "../../server/db/migrate.ts";

describe("the distribution plan", () => {
  it("places every table, each by a column it has", () => {
    expect(checkDistribution()).toEqual([]);
    expect(Object.keys(DISTRIBUTION).sort()).toEqual(
      tableSpecs()
        .map((spec) => spec.name)
        .sort(),
    );
  });

  it("names a table it does not place, a placement of no table, and a key the table lacks", () => {
    const { order: _order, ...withoutOrders } = DISTRIBUTION;
    expect(
      checkDistribution({
        ...withoutOrders,
        old_table: { kind: "reference", why: "gone" },
        sys_token: { kind: "own-key", key: "token", why: "renamed" },
      }),
    ).toEqual([
      { table: "order", problem: "not placed: say how it is distributed" },
      { table: "sys_token", problem: 'its tenant or key is read from "token", which it does not have' },
      { table: "old_table", problem: "placed, but no such table" },
    ]);
  });

  it("splits every table an agent's calls read by tenant, so they stay on one shard", () => {
    const scoped = tableSpecs().filter((spec) => spec.columns.some(([column]) => column === "agent_path"));
    expect(scoped.length).toBeGreaterThan(30);
    for (const spec of scoped) expect(DISTRIBUTION[spec.name].kind, spec.name).toBe("tenant");
  });
});

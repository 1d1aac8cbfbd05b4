// A list's total past the counting cap (server/entities/repository.ts, COUNT_CAP): the planner's estimate,
// marked as one; the filter is then taken as past the cap for ESTIMATE_REUSE_MS without counting again,
// until this instance answers a write, after which the writer's next list counts (and is exact again).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_CAP } from "../../server/entities/repository.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  admin = await t.as("admin");
}, 60_000);
afterAll(() => t?.close());

interface Page {
  total: number;
  total_exact: boolean;
  list: { id: number }[];
}
const notices = () => admin.get<Page>("/merchant/notice-list-list?page=1&limit=10");

describe("a list past the counting cap", () => {
  it("shows the estimate until the rows it holds are removed through this server, then the exact count", async () => {
    const { id } = await fx.createRecord("notice", "admin");
    // Three more than the cap, copies of the first.
    const { rows: columns } = await t.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_name = 'notice' and table_schema = current_schema() and column_name <> 'id'`,
    );
    const list = columns.map((c) => `"${c.name}"`).join(", ");
    await t.db.query(
      `insert into "notice" (${list}) select ${list} from "notice" cross join generate_series(1, $1) where id = $2`,
      [COUNT_CAP + 2, id],
    );
    await t.db.query(`analyze "notice"`);
    const before = await notices();
    expect(before.status, before.raw).toBe(200);
    expect(before.body.data.total_exact).toBe(false);
    expect(before.body.data.total).toBeGreaterThan(COUNT_CAP);

    // Three rows removed by hand: the filter is still taken as past the cap (its count does not run again).
    const { rows: removed } = await t.db.query<{ id: number }>(
      `delete from "notice" where id in (select id from "notice" order by id desc limit 3) returning id`,
    );
    expect(removed).toHaveLength(3);
    expect((await notices()).body.data.total_exact).toBe(false);

    // A write answered by this server (one more removed through the API): the next list counts again.
    const deleted = await admin.del(`/merchant/notice-list-delete?id=${id}`);
    expect(deleted.status, deleted.raw).toBe(200);
    const after = await notices();
    expect([after.body.data.total, after.body.data.total_exact]).toEqual([COUNT_CAP - 1, true]);
    expect(after.body.data.list.map((r) => r.id)).not.toContain(id);
  });
});

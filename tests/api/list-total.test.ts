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

// Orders past the cap in every role's view: agent_a's own 700, its sub-agent agent_a1's 1,500 (all made by
// the one device bound to operator_a), agent_b's 400. Each total shown is exact, or an estimate marked as
// one within 10 % whose pager stops at a page that holds rows; count=exact answers what SQL counts.
describe("order totals past the cap, per role", () => {
  const OWN = { agent_a: 700, agent_a1: 1_500, agent_b: 400 } as const;
  const TRUTH = {
    admin: OWN.agent_a + OWN.agent_a1 + OWN.agent_b,
    agent_a: OWN.agent_a + OWN.agent_a1,
    agent_a1: OWN.agent_a1,
  } as const;
  const scopes: Record<keyof typeof TRUTH, string> = {
    admin: "true",
    agent_a: `agent_id in (select id from agent where agent_path like (select agent_path from agent where account = 'agent_a') || '%')`,
    agent_a1: "agent_id = (select id from agent where account = 'agent_a1')",
  };
  let orderColumns: string;
  let middle: number;

  beforeAll(async () => {
    await t.db.query(`delete from "order"`);
    const { rows: columns } = await t.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_name = 'order' and table_schema = current_schema() and column_name <> 'id'`,
    );
    orderColumns = columns.map((c) => `"${c.name}"`).join(", ");
    for (const owner of ["agent_a", "agent_a1", "agent_b"] as const) {
      const order = await fx.insertRecord("order", owner);
      await t.db.query(
        `insert into "order" (${orderColumns}) select ${orderColumns} from "order" cross join generate_series(2, $1) where id = $2`,
        [OWN[owner], order.id],
      );
    }
    await t.db.query(`analyze "order"`);
    middle = (await t.db.query<{ id: number }>(`select (min(id) + max(id)) / 2 as id from "order"`)).rows[0].id;
  }, 60_000);

  const sqlCount = async (role: keyof typeof TRUTH, filter = "true") =>
    (await t.db.query<{ n: number }>(`select count(*)::int as n from "order" where (${scopes[role]}) and ${filter}`))
      .rows[0].n;

  for (const role of ["admin", "agent_a", "agent_a1"] as const) {
    it(`${role}: a total exact or an estimate within 10 %, a last page with rows, the exact count on request`, async () => {
      const client = await t.as(role);
      for (const [filter, query, sql] of [
        ["unfiltered", "", "true"],
        ["from the middle id", `&id_gte=${middle}`, `id >= ${middle}`],
      ] as const) {
        const truth = await sqlCount(role, sql);
        if (filter === "unfiltered") expect(truth, role).toBe(TRUTH[role]);
        const limit = 10;
        const answer = await client.get<Page>(`/merchant/order-list?page=1&limit=${limit}${query}`);
        expect(answer.status, answer.raw).toBe(200);
        const { total, total_exact } = answer.body.data;
        if (total_exact) expect(total, `${role} ${filter}`).toBe(truth);
        else
          expect(Math.abs(total - truth) / truth, `${role} ${filter}: ${total} for ${truth}`).toBeLessThanOrEqual(0.1);
        // The pager's last page (the console stops an estimate's pager at the rows counted: cap and one).
        const reach = total_exact ? total : Math.min(total, COUNT_CAP + 1);
        const last = await client.get<Page>(
          `/merchant/order-list?page=${Math.ceil(reach / limit)}&limit=${limit}${query}`,
        );
        expect(last.body.data.list.length, `${role} ${filter}: last page`).toBeGreaterThan(0);

        const exact = await client.get<Page>(`/merchant/order-list?page=1&limit=${limit}&count=exact${query}`);
        expect(exact.status, exact.raw).toBe(200);
        expect([exact.body.data.total, exact.body.data.total_exact], `${role} ${filter}`).toEqual([truth, true]);
        const end = await client.get<Page>(
          `/merchant/order-list?page=${Math.ceil(truth / limit)}&limit=${limit}${query}`,
        );
        expect(end.body.data.list.length).toBe(truth % limit || limit);
      }
    });
  }

  // Operators list no orders: their view past the cap is their devices' restock records (1,200 of the
  // bound device, 300 of another device of the same agent they do not see).
  it("operator_a: restock records of its device past the cap, a last page with rows, exact on request", async () => {
    const bound = await fx.insertRecord("machine", "agent_a1");
    const other = await fx.insertRecord("machine", "agent_a1");
    await t.db.query(
      `insert into operator_binding (operator_id, machine_id, profit_type, agent_id, agent_path)
       select $1, id, 'percent', agent_id, agent_path from machine where id = $2`,
      [t.ids.operator_a, bound.id],
    );
    const { rows: columns } = await t.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_name = 'machine_restock' and table_schema = current_schema() and column_name <> 'id'`,
    );
    const list = columns.map((c) => `"${c.name}"`).join(", ");
    for (const [machine, n] of [
      [bound.id, 1_200],
      [other.id, 300],
    ] as const) {
      const record = await fx.insertRecord("machine_restock", "agent_a1", { machine_id: machine });
      await t.db.query(
        `insert into machine_restock (${list}) select ${list} from machine_restock cross join generate_series(2, $1) where id = $2`,
        [n, record.id],
      );
    }
    await t.db.query(`analyze machine_restock`);
    const operator = await t.as("operator_a");
    const url = "/merchant/machine-replenishment-list?page=1&limit=10";
    const answer = await operator.get<Page>(url);
    expect(answer.status, answer.raw).toBe(200);
    const { total, total_exact } = answer.body.data;
    // The planner's estimate is not within 10 % here: see the next test.
    if (total_exact) expect(total).toBe(1_200);
    else expect(total).toBeGreaterThan(COUNT_CAP);
    const reach = total_exact ? total : Math.min(total, COUNT_CAP + 1);
    const last = await operator.get<Page>(`${url.replace("page=1", `page=${Math.ceil(reach / 10)}`)}`);
    expect(last.body.data.list.length).toBeGreaterThan(0);
    const exact = await operator.get<Page>(`${url}&count=exact`);
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from machine_restock
        where machine_id in (select machine_id from operator_binding where operator_id = $1)`,
      [t.ids.operator_a],
    );
    expect(rows[0].n).toBe(1_200);
    expect([exact.body.data.total, exact.body.data.total_exact]).toEqual([1_200, true]);
  });

  // Known gap (issue 31): the planner cannot see through the operator's binding subquery and says 1,001
  // for 1,200. Passes once the estimate is within 10 % (or the total exact).
  it.fails("operator_a: the estimate of its restock records is within 10 %", async () => {
    const answer = await (await t.as("operator_a")).get<Page>("/merchant/machine-replenishment-list?limit=10");
    const { total, total_exact } = answer.body.data;
    expect(total_exact || Math.abs(total - 1_200) / 1_200 <= 0.1, `${total} for 1200`).toBe(true);
  });

  // A role without order.list is refused before the query is read (security.test.ts's order.list case).
  it("refuses a count other than exact", async () => {
    const bad = await admin.get(`/merchant/order-list?count=all`);
    expect(bad.status, bad.raw).toBe(400);
    expect(bad.raw).toContain("Count must be one of the listed options");
  });

  it("counts agent_b's orders for agent_b only", async () => {
    const b = await t.as("agent_b");
    const answer = await b.get<Page>(`/merchant/order-list?count=exact&limit=10`);
    expect([answer.body.data.total, answer.body.data.total_exact]).toEqual([OWN.agent_b, true]);
  });
});

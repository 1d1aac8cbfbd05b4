// The demo seed makes rows the API can serve and the console can edit: every sampled row of every table
// passes its entity schema (the "update" shape the server validates edits with), the agent tree and the
// scope columns hold the invariants the server's security relies on, relations point at rows the owner
// can see, the demo accounts sign in, and the generator is deterministic.
//
// Cheap password hashing for the test: set before anything that hashes is imported (core/passwords.ts reads it
// once), hence the dynamic imports below. The database is helper.ts's: in-memory PGlite, or a throwaway
// schema in the PostgreSQL of DATABASE_URL.
process.env.SCRYPT_N = "1024";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSystemColumn } from "../../src/schema/constants.ts";
import type { Db } from "../../server/db/db.ts";
import type { EntityModel } from "../../server/model/model.ts";
import type { SeedSummary } from "../../server/seed/demo.ts";

type Row = Record<string, unknown>;

const ORDERS = 2000;
const q = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

const load = async () => ({
  ...(await import("./helper.ts")),
  ...(await import("../../server/db/migrate.ts")),
  ...(await import("../../server/seed/demo.ts")),
  ...(await import("../../server/model/model.ts")),
  ...(await import("../../server/entities/answer.ts")),
  ...(await import("../../server/core/passwords.ts")),
  ...(await import("../../server/entities/validation.ts")),
  ...(await import("../../src/schema/ajv.ts")),
  ...(await import("../../src/generated/schemas.ts")),
});
let m: Awaited<ReturnType<typeof load>>;
let db: Db;
let drop: (() => Promise<void>) | undefined;
let summary: SeedSummary;

// In-memory PGlite, or a throwaway schema when DATABASE_URL is set (CI runs tests/api on both).
beforeAll(async () => {
  m = await load();
  ({ db, drop } = await m.openTestDb());
  await m.migrate(db);
  summary = await m.seedDemo(db, { orders: ORDERS });
}, 180_000);

afterAll(async () => {
  await drop?.();
});

const tables = () => m.storedModels();
const scopedTables = () => tables().filter((model) => model.scoped);

/** A stored row as an edit sends it back: the API's view of it, without system columns and secrets. */
function apiShape(model: EntityModel, row: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(m.toApi(model, row))) {
    if (isSystemColumn(name) && !(name in model.schema.properties)) continue;
    if (model.writeOnly.has(name)) continue;
    out[name] = value;
  }
  return out;
}

describe("demo seed", () => {
  it("fills every table but the payment accounts and the users' saved views, with the orders asked for", () => {
    expect(summary.orders).toBe(ORDERS);
    const empty = Object.entries(summary.counts)
      .filter(([, n]) => n === 0)
      .map(([t]) => t);
    // Saved views are each user's own, made by the user: none in the demo, every list opens as it comes.
    expect(empty).toEqual(["payment_setting", "saved_view"]);
    expect(summary.counts.machine).toBeGreaterThanOrEqual(250);
    expect(summary.counts.shop).toBeGreaterThanOrEqual(20);
    expect(summary.counts.shop).toBeLessThanOrEqual(40);
  });

  it("makes rows that satisfy their entity schemas", async () => {
    const failures: string[] = [];
    for (const model of tables()) {
      // The server's own check of an edit: the entity schema, write-only and server-owned fields optional.
      const validate = m.validatorFor(model, "update");
      const { rows } = await db.query<Row>(`select * from ${q(model.table)} order by md5(id::text) limit 50`);
      for (const row of rows) {
        if (validate(apiShape(model, row))) continue;
        for (const e of validate.errors ?? []) {
          failures.push(
            `${model.table}#${row.id} ${e.instancePath || "/"} ${e.keyword} ${e.message} ${JSON.stringify(e.params)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("builds a consistent agent tree", async () => {
    const { rows } = await db.query<{
      id: number;
      pid: number | null;
      agent_id: number;
      agent_path: string;
      parent_path: string | null;
    }>(
      `select a.id, a.pid, a.agent_id, a.agent_path, p.agent_path as parent_path from agent a left join agent p on p.id = a.pid order by a.id`,
    );
    const roots = rows.filter((r) => r.pid === null);
    expect(roots).toHaveLength(1);
    expect(roots[0].agent_path).toBe(`/${roots[0].id}/`);
    for (const r of rows) {
      expect(r.agent_id).toBe(r.id);
      if (r.pid !== null) expect(r.agent_path).toBe(`${r.parent_path}${r.id}/`);
    }
    const depth = Math.max(...rows.map((r) => r.agent_path.split("/").filter(Boolean).length));
    expect(depth).toBe(3);
  });

  it("scopes every row of every scoped table to its owner's path", async () => {
    for (const model of scopedTables()) {
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from ${q(model.table)} t left join agent a on a.id = t.agent_id where a.id is null or t.agent_path <> a.agent_path`,
      );
      expect(rows[0].n, model.table).toBe(0);
    }
  });

  it("points relations at existing rows the owner can see", async () => {
    const problems: string[] = [];
    for (const model of tables()) {
      for (const [name, property] of Object.entries(model.schema.properties)) {
        const relation = property["x-relation"];
        const field = model.fields.get(name);
        if (!relation || !field?.stored) continue;
        const target = m.modelOf(relation.entity);
        const ids =
          field.kind === "json" ? `(select jsonb_array_elements_text(t.${q(name)})::bigint)` : `(select t.${q(name)})`;
        const { rows: dangling } = await db.query<{ n: number }>(
          `select count(*)::int as n from ${q(model.table)} t, lateral ${ids} as r(id) where r.id is not null and not exists (select 1 from ${q(target.table)} x where x.id = r.id)`,
        );
        if (dangling[0].n) problems.push(`${model.table}.${name}: ${dangling[0].n} dangling`);
        // The agent tree's own links (pid) point upwards by nature; everything else stays in the subtree.
        if (!model.scoped || !target.scoped || model.name === "agent") continue;
        const { rows: hidden } = await db.query<{ n: number }>(
          `select count(*)::int as n from ${q(model.table)} t, lateral ${ids} as r(id) join ${q(target.table)} x on x.id = r.id
            where x.agent_path not like t.agent_path || '%'`,
        );
        if (hidden[0].n) problems.push(`${model.table}.${name}: ${hidden[0].n} outside the owner's subtree`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps on every history row the title of the record it names (a clean record its operator's name)", async () => {
    const problems: string[] = [];
    for (const model of tables())
      for (const [name, property] of Object.entries(model.schema.properties)) {
        const copy = property["x-relation"]?.titleCopy;
        if (!copy) continue;
        const target = m.modelOf(property["x-relation"]!.entity);
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from ${q(model.table)} t join ${q(target.table)} x on x.id::text = t.${q(name)}::text
            where t.${q(copy)}::text is distinct from x.${q(target.titleField!)}::text`,
        );
        if (rows[0].n) problems.push(`${model.table}.${copy}: ${rows[0].n} not its ${target.name}'s title`);
      }
    expect(problems).toEqual([]);
    const { rows } = await db.query<{ n: number }>(`select count(operator_name)::int as n from clean_record`);
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it("creates the five demo accounts", async () => {
    const agent = async (account: string) =>
      (
        await db.query<Row>(
          `select a.*, r.name as role_name from agent a join role r on r.id = a.role_id where account = $1 and deleted_at is null`,
          [account],
        )
      ).rows[0];
    const admin = await agent("admin");
    const a = await agent("agent_a");
    const a1 = await agent("agent_a1");
    const b = await agent("agent_b");
    expect(admin.pid).toBeNull();
    expect(admin.role_name).toBe("Platform admin");
    expect([a.pid, b.pid]).toEqual([admin.id, admin.id]);
    expect([a.role_name, b.role_name, a1.role_name]).toEqual(["Level-1 agent", "Level-1 agent", "Level-2 agent"]);
    expect(a1.pid).toBe(a.id);
    const operator = (await db.query<Row>(`select * from operator where account = 'operator_a' and deleted_at is null`))
      .rows[0];
    expect(operator.agent_id).toBe(a.id);
    expect(operator.refill).toBe(1);
    for (const [row, password] of [
      [admin, "admin123"],
      [a, "demo123"],
      [a1, "demo123"],
      [b, "demo123"],
      [operator, "demo123"],
    ] as const) {
      expect(await m.verifyPassword(password, row.password as string), String(row.account)).toBe(true);
    }
  });

  it("binds operator_a to some of agent_a's machines with a profit type", async () => {
    const { rows } = await db.query<{
      machine_agent: number;
      owner: number;
      profit_type: string;
      kind: string;
      deleted_at: Date | null;
    }>(
      `select mc.agent_id as machine_agent, a.id as owner, b.profit_type, mc.kind, mc.deleted_at
         from operator_binding b join operator o on o.id = b.operator_id join machine mc on mc.id = b.machine_id join agent a on a.account = 'agent_a'
        where o.account = 'operator_a'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThanOrEqual(5);
    for (const r of rows) {
      expect(r.machine_agent).toBe(r.owner);
      expect(["percent", "fixed"]).toContain(r.profit_type);
      expect(r.deleted_at).toBeNull();
    }
  });

  it("gives the roles the intended permissions", async () => {
    const { rows } = await db.query<{ name: string; permissions: string[] }>(
      `select name, permissions from role order by id`,
    );
    const byName = new Map(rows.map((r) => [r.name, new Set(r.permissions)]));
    expect([...byName.get("Platform admin")!].sort()).toEqual(m.grantablePermissions().sort());
    const l1 = byName.get("Level-1 agent")!;
    for (const key of [
      "goods.add",
      "machine.update",
      "machine_channel.update",
      "shop.add",
      "channel_plan.add",
      "page.update",
      "order.refund",
      "order.export",
      "operator.add",
      "agent.add",
      "agent.recover",
    ]) {
      expect(l1.has(key), key).toBe(true);
    }
    // Level-1 agents pick roles for their sub-agents (role.all) but never manage roles.
    expect(l1.has("role.all")).toBe(true);
    const forbidden = [...l1].filter(
      (k) =>
        (/^(role|version|payment_setting|plugin)\./.test(k) && k !== "role.all") ||
        [
          "system_setting.set",
          "application.add",
          "application.update",
          "application.delete",
          "application.install",
          "application.upgrade",
        ].includes(k),
    );
    expect(forbidden).toEqual([]);
    const l2 = byName.get("Level-2 agent")!;
    expect(l2.size).toBeLessThan(l1.size);
    expect(l2.has("goods.add") && l2.has("shop.update") && l2.has("machine.update") && l2.has("order.list")).toBe(true);
    expect(l2.has("order.refund") || l2.has("agent.add")).toBe(false);
  });

  it("makes orders that belong to their machine's owner, inside the last 90 days", async () => {
    const { rows } = await db.query<Row>(
      `select count(*) filter (where o.agent_id <> mc.agent_id or o.agent_path <> mc.agent_path or o.shop_id is distinct from mc.shop_id)::int as wrong_owner,
              count(*) filter (where o.refund_money > o.money or o.money <= 0)::int as wrong_money,
              count(*) filter (where o.order_time > now() or o.order_time < now() - interval '91 days')::int as wrong_time,
              count(distinct o.pay_status)::int as statuses, count(distinct o.pay_type)::int as pay_types, count(distinct o.order_no)::int as numbers,
              count(distinct mc.kind)::int as kinds
         from "order" o join machine mc on mc.id = o.machine_id`,
    );
    expect(rows[0]).toEqual({
      wrong_owner: 0,
      wrong_money: 0,
      wrong_time: 0,
      statuses: 6,
      pay_types: 9,
      numbers: ORDERS,
      kinds: 5,
    });
    const lanes = await db.query<{ n: number }>(`select count(*)::int as n from machine_channel where "left" > count`);
    expect(lanes.rows[0].n).toBe(0);
    const withdrawals = await db.query<{ status: string }>(`select distinct status from withdrawal order by status`);
    expect(withdrawals.rows.map((r) => r.status)).toEqual(["approved", "paid", "pending", "refused"]);
  });

  it("licenses the demo until 2036-12-31: the vendor's serial number for the demo's installation and documented key", async () => {
    const { licenceStatus } = await import("../../server/domain/licence/index.ts");
    // Checked with the vendor's public key, built in; counted from a fixed day: 2030-01-01 to 2037-01-01 is
    // 7 years with 2 leap days, less the licence's last second.
    expect(await licenceStatus(db, undefined, Date.parse("2030-01-01T00:00:00.000Z"))).toEqual({
      state: "licensed",
      licensee: "Mekong Smart Retail",
      valid_until: "2036-12-31T23:59:59.000Z",
      days_left: 7 * 365 + 2,
      key_saved: 1,
      installation: "demo-mekong-smart-retail",
    });
    expect((await licenceStatus(db)).state).toBe("licensed");
    const { rows } = await db.query<{ key: string; value: string }>(
      `select key, value from sys_state where key like 'licence:%' order by key`,
    );
    expect(rows.map((r) => [r.key, r.value.slice(0, 5)])).toEqual([
      ["licence:installation", "demo-"],
      ["licence:secret_key", "demo-"],
      ["licence:serial", "VMS2."],
    ]);
    expect(rows[0].value).toBe("demo-mekong-smart-retail");
    expect(rows[1].value).toBe("demo-secret-key-mekong-2026");
  });

  it("refuses a database that already has agents", async () => {
    await expect(m.seedDemo(db, { orders: 10 })).rejects.toThrow(/not empty/);
  });

  it("is deterministic", async () => {
    const { db: other, drop: dropOther } = await m.openTestDb();
    try {
      await m.migrate(other);
      await m.seedDemo(other, { orders: ORDERS });
      const fingerprint = async (d: Db) =>
        (
          await d.query<{ f: string }>(
            `select (select md5(string_agg(concat_ws(':', machine_id, money, refund_money, pay_status, pay_type, channel_number, quantity), ',' order by id)) from "order")
                 || (select md5(string_agg(concat_ws(':', mac_name, mac_id, kind, shop_id, last_report_at is null), ',' order by id)) from machine)
                 || (select md5(string_agg(concat_ws(':', machine_id, channel_number, goods_id, "left"), ',' order by id)) from machine_channel) as f`,
          )
        ).rows[0].f;
      expect(await fingerprint(other)).toBe(await fingerprint(db));
    } finally {
      await dropOther();
    }
  }, 180_000);
});

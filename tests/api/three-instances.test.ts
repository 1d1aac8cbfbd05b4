// Several instances, one truth (issue 34): a scripted day of work (sign-ins, lists, edits, a delete and
// its recovery, a restock, a refund that takes back an operator's share, a withdrawal requested, approved
// and paid out, an export, the ledger read) run once on one server process and once spread round-robin
// over three processes on one PostgreSQL database gives the same answers, step by step, and the same
// final database, table by table (every stored column but the clocks' and the password hashes' salts),
// and a clean ledger on both. Two databases (schemas) prepared by the same fixtures in the same order, so
// their ids agree. PGlite allows one process per database: without DATABASE_URL the suite is skipped.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableSpecs } from "../../server/db/migrate.ts";
import { differences, post } from "../../server/domain/money/ledger.ts";
import { recordPayments } from "../../server/domain/money/orders.ts";
import { createTestApp, send, type Reply, type TestApp } from "./helper.ts";
import { startServer, stopped } from "./processes.ts";
import { Fixtures, type Row } from "./fixtures.ts";

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

/** Tables that hold a process's traffic rather than the business: sign-in tokens, attempts, replays. */
const TRAFFIC = new Set(["sys_token", "sys_login_attempt", "sys_login_throttle", "sys_idempotency"]);

interface World {
  t: TestApp;
  schema: string;
  goods: number;
  machine: number;
  lane: number;
  order: number;
  newGoods: Row;
}

/** The same records, made in the same order, in a database of its own. */
async function prepare(): Promise<World> {
  const t = await createTestApp();
  const fx = new Fixtures(t);
  const { rows } = await t.db.query<{ schema: string }>(`select current_schema() as schema`);
  await t.db.query(
    `insert into "system_setting" (singleton_key, site_name, withdraw_fee) values ('global', 'Day', 0.05)`,
  );
  const goods = Number((await fx.createRecord("goods", "agent_a", { stock: 40 })).id);
  const plan = await fx.createRecord("channel_plan", "agent_a", {
    channels: [{ channel_number: 1, goods_id: goods, count: 10, price: 300 }],
  });
  const machine = Number((await fx.createRecord("machine", "agent_a", { kind: "vending" })).id);
  const agentA = await fx.client("agent_a");
  const bound = await agentA.post("/merchant/machine-bind-plan", { id: machine, channel_plan_id: plan.id });
  expect(bound.status, bound.raw).toBe(200);
  const share = await agentA.post("/merchant/operator-bind-machine", {
    operator_id: t.ids.operator_a,
    machine_id: machine,
    profit_type: "percent",
    profit_percent: 0.1,
  });
  expect(share.status, share.raw).toBe(200);
  const { rows: lanes } = await t.db.query<{ id: number }>(
    `update machine_channel set "left" = 0 where machine_id = $1 returning id::int`,
    [machine],
  );
  const owner = await fx.owner("agent_a");
  const { rows: orders } = await t.db.query<{ id: number }>(
    `insert into "order" (order_no, mac_name, machine_id, agent_id, agent_path, order_time, pay_time, pay_status, money, refund_money, device_kind)
     values ('DAY-0001', 'VM-DAY', $1, $2, $3, '2026-11-20T08:00:00Z', '2026-11-20T08:00:05Z', 'paid', 1000, 0, 'vending') returning id::int`,
    [machine, owner.id, owner.path],
  );
  await t.db.transaction((tx) => recordPayments(tx, [orders[0].id], new Date("2026-11-20T08:00:05Z")));
  await t.db.transaction((tx) =>
    post(tx, [{ agentId: owner.id, kind: "order_income", amount: 5000, balance: 5000, revenue: 5000 }]),
  );
  const newGoods = await fx.makeRecord("goods", "agent_a");
  return { t, schema: rows[0].schema, goods, machine, lane: lanes[0].id, order: orders[0].id, newGoods };
}

type Account = "admin" | "agent_a" | "operator_a";
const PASSWORDS: Record<Account, string> = { admin: "admin123", agent_a: "demo123", operator_a: "demo123" };

interface Step {
  name: string;
  as?: Account;
  /** The call, from the world and the answers so far (by step name). */
  call: (w: World, said: Map<string, Reply<Row>>) => { path: string; method?: string; body?: unknown };
}

const data = (said: Map<string, Reply<Row>>, step: string) => said.get(step)!.body.data;

/** The day, in order. */
const DAY: Step[] = [
  ...(["agent_a", "admin", "operator_a"] as const).map((account) => ({
    name: `sign in ${account}`,
    call: () => ({ path: "/merchant/login", body: { account, password: PASSWORDS[account] } }),
  })),
  { name: "goods list", as: "agent_a", call: () => ({ path: "/merchant/goods-list?page=1&limit=20" }) },
  { name: "goods add", as: "agent_a", call: (w) => ({ path: "/merchant/goods-add", body: w.newGoods }) },
  {
    name: "goods rename",
    as: "agent_a",
    call: (_, said) => ({
      path: "/merchant/goods-update",
      body: { ...data(said, "goods add"), title: "Day's lemon tea" },
    }),
  },
  {
    name: "goods delete",
    as: "agent_a",
    call: (_, said) => ({ path: `/merchant/goods-delete?id=${String(data(said, "goods add").id)}`, method: "DELETE" }),
  },
  {
    name: "goods recover",
    as: "agent_a",
    call: (_, said) => ({ path: "/merchant/goods-recycle-recover", body: { id: data(said, "goods add").id } }),
  },
  { name: "my devices", as: "operator_a", call: () => ({ path: "/merchant/machine-list?page=1&limit=10" }) },
  {
    name: "restock",
    as: "operator_a",
    call: (w) => ({
      path: "/merchant/machine-replenishment-goods",
      body: { id: w.machine, lanes: [{ channel_id: w.lane, quantity: 6 }] },
    }),
  },
  {
    name: "refund",
    as: "admin",
    call: (w) => ({ path: "/merchant/order-refund", body: { id: w.order, refund_money: 400 } }),
  },
  { name: "operator's earnings", as: "operator_a", call: () => ({ path: "/merchant/operator-earnings" }) },
  {
    name: "withdraw",
    as: "agent_a",
    call: () => ({
      path: "/merchant/data-withdraw-apply",
      body: { amount: 2000, legal_name: "Day", payout_method: "social_wallet", account_number: "wxid_day" },
    }),
  },
  {
    name: "approve",
    as: "admin",
    call: (_, said) => ({
      path: "/merchant/data-withdraw-action",
      body: { id: data(said, "withdraw").id, action: "approve" },
    }),
  },
  {
    name: "pay out",
    as: "admin",
    call: (_, said) => ({
      path: "/merchant/data-withdraw-action",
      body: { id: data(said, "withdraw").id, action: "confirm" },
    }),
  },
  { name: "orders", as: "agent_a", call: () => ({ path: "/merchant/order-list?page=1&limit=20" }) },
  { name: "ledger", as: "admin", call: () => ({ path: "/merchant/data-payment-list?page=1&limit=50" }) },
  { name: "statistics", as: "agent_a", call: () => ({ path: "/merchant/statistics-total" }) },
  { name: "export", as: "agent_a", call: () => ({ path: "/merchant/order-export?format=csv" }) },
];

/** An answer without what the clock or a random draw decides (times, tokens, request ids). */
function steady(value: unknown): unknown {
  if (typeof value === "string")
    return value
      .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, "<time>")
      .replace(/\d{1,2}\/\d{1,2}\/\d{4},? \d\d:\d\d(:\d\d)?/g, "<time>");
  if (Array.isArray(value)) return value.map(steady);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !/(_at|_time|^token|^expires|^request_?id)$/i.test(key) && key !== "paid_at")
        .map(([key, v]) => [key, steady(v)]),
    );
  return value;
}

/** Runs the day against these servers, step i on server i mod n; answers each step's reply. */
async function runDay(w: World, bases: string[]): Promise<Map<string, Reply<Row>>> {
  const said = new Map<string, Reply<Row>>();
  const tokens = new Map<Account, string>();
  for (const [i, step] of DAY.entries()) {
    const base = bases[i % bases.length];
    const call = step.call(w, said);
    const reply = await send<Row>(base, {
      ...call,
      headers: step.as ? { authorization: `Bearer ${tokens.get(step.as)}` } : {},
    });
    expect(reply.status, `${step.name} on ${base}: ${reply.raw}`).toBe(200);
    if (step.name.startsWith("sign in ")) tokens.set(step.name.slice(8) as Account, String(reply.body.data.token));
    said.set(step.name, reply);
  }
  return said;
}

/** Every business table's rows, ordered, without their clocks' columns and the hashes' salts. */
async function contents(t: TestApp): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const spec of tableSpecs()) {
    if (TRAFFIC.has(spec.name)) continue;
    const columns = spec.columns
      .filter(([name, type]) => !/timestamptz/.test(type) && name !== "password" && name !== "at")
      .map(([name]) => `"${name}"`);
    const { rows } = await t.db.query(`select ${columns.join(", ")} from "${spec.name}" order by 1, 2`);
    out[spec.name] = rows.map((r) => steady(r));
  }
  return out;
}

describe.skipIf(!ON_POSTGRES)(
  `a day of work over three server processes${ON_POSTGRES ? "" : " (skipped: DATABASE_URL is unset; PGlite is one process per database)"}`,
  () => {
    let one: World;
    let three: World;
    let servers: { child: ChildProcess; base: string }[] = [];
    beforeAll(async () => {
      one = await prepare();
      three = await prepare();
      servers = await Promise.all([
        startServer(one.schema),
        startServer(three.schema),
        startServer(three.schema),
        startServer(three.schema),
      ]);
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => stopped(s.child)));
      await one?.t.close();
      await three?.t.close();
    });

    it("answers each step alike and leaves the same database and ledger as one process", async () => {
      expect([one.goods, one.machine, one.lane, one.order]).toEqual([
        three.goods,
        three.machine,
        three.lane,
        three.order,
      ]);
      const alone = await runDay(one, [servers[0].base]);
      const spread = await runDay(
        three,
        servers.slice(1).map((s) => s.base),
      );
      for (const step of DAY)
        expect(steady(spread.get(step.name)!.body), step.name).toEqual(steady(alone.get(step.name)!.body));
      // The day did what it says: the operator's share came back in part, the payout left the ledger.
      const kinds = await three.t.db.query<{ kind: string }>(
        `select kind from "payment_record" where kind in ('operator_share_reversal', 'withdrawal_payout') order by kind`,
      );
      expect(kinds.rows.map((r) => r.kind)).toEqual(["operator_share_reversal", "withdrawal_payout"]);
      const [a, b] = [await contents(one.t), await contents(three.t)];
      expect(Object.keys(b)).toEqual(Object.keys(a));
      for (const table of Object.keys(a)) expect(b[table], table).toEqual(a[table]);
      expect(await differences(one.t.db)).toEqual([]);
      expect(await differences(three.t.db)).toEqual([]);
    }, 120_000);
  },
);

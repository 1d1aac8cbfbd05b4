// The ledger's posting and its check, called directly: each kind's direction, the figures and the
// balances after each entry, movements that move nothing, the all-or-nothing refusal and the 409's
// figures, and the check's report of each figure. Every test posts for an agent of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { differences, post, type LedgerKind, type Movement } from "../../server/domain/money/ledger.ts";
import { createTestApp, type TestApp } from "./helper.ts";
import type { HttpError } from "../../server/core/errors.ts";
import { translate } from "../../server/core/i18n.ts";
import { LANGUAGES } from "../../src/schema/constants.ts";
import { Fixtures } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
});
afterAll(() => t?.close());

/** A new agent with these stored figures (in minor units), and its nickname. */
async function newAgent(figures: { withdrawable?: number; frozen?: number; total_revenue?: number } = {}) {
  const { id } = await fx.createRecord("agent", "admin");
  await t.db.query(`update "agent" set withdrawable = $2, frozen = $3, total_revenue = $4 where id = $1`, [
    id,
    figures.withdrawable ?? 0,
    figures.frozen ?? 0,
    figures.total_revenue ?? 0,
  ]);
  const { rows } = await t.db.query<{ nickname: string }>(`select nickname from "agent" where id = $1`, [id]);
  return { id: id as number, nickname: rows[0].nickname };
}

const posting = (movements: Movement[]) => t.db.transaction((tx) => post(tx, movements));

async function figuresOf(agentId: number) {
  const { rows } = await t.db.query<Record<string, unknown>>(
    `select withdrawable, frozen, total_revenue from "agent" where id = $1`,
    [agentId],
  );
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

async function entriesOf(agentId: number) {
  const { rows } = await t.db.query<Record<string, unknown>>(
    `select kind, direction, amount, balance_change, frozen_change, revenue_change, balance_after, frozen_after,
            order_id, order_no, withdrawal_id, delivery_order_id, pay_type, paid_at, remark, agent_path
       from "payment_record" where agent_id = $1 order by id`,
    [agentId],
  );
  return rows;
}

/** Each kind as the agent sees it (SPEC: payment records), written apart from the ledger's own table. */
const DIRECTIONS: [LedgerKind, "income" | "expense"][] = [
  ["order_income", "income"],
  ["refund", "expense"],
  ["profit_share", "income"],
  ["profit_reversal", "expense"],
  ["withdrawal_request", "expense"],
  ["withdrawal_refused", "income"],
  ["withdrawal_payout", "expense"],
  ["withdrawal_fee", "expense"],
  ["delivery_pending", "income"],
  ["delivery_income", "income"],
  ["delivery_deduction", "expense"],
];

describe("post", () => {
  it("writes one entry per movement: its kind's direction, its amount and every reference given", async () => {
    const agent = await newAgent();
    const at = "2026-01-02T03:04:05.000Z";
    const entries = await posting(
      DIRECTIONS.map(([kind], i) => ({
        agentId: agent.id,
        kind,
        amount: 100 + i,
        orderId: 1000 + i,
        orderNo: `NO-${i}`,
        withdrawalId: 2000 + i,
        deliveryOrderId: 3000 + i,
        payType: i,
        at,
        remark: `r${i}`,
      })),
    );
    expect(entries).toHaveLength(11);
    const rows = await entriesOf(agent.id);
    const { rows: paths } = await t.db.query<{ agent_path: string }>(`select agent_path from "agent" where id = $1`, [
      agent.id,
    ]);
    expect(
      rows.map((r) => ({
        ...r,
        amount: Number(r.amount),
        order_id: Number(r.order_id),
        withdrawal_id: Number(r.withdrawal_id),
        delivery_order_id: Number(r.delivery_order_id),
        pay_type: Number(r.pay_type),
        paid_at: new Date(r.paid_at as string).toISOString(),
        balance_change: Number(r.balance_change),
        frozen_change: Number(r.frozen_change),
        revenue_change: Number(r.revenue_change),
        balance_after: Number(r.balance_after),
        frozen_after: Number(r.frozen_after),
      })),
    ).toEqual(
      DIRECTIONS.map(([kind, direction], i) => ({
        kind,
        direction,
        amount: 100 + i,
        balance_change: 0,
        frozen_change: 0,
        revenue_change: 0,
        balance_after: 0,
        frozen_after: 0,
        order_id: 1000 + i,
        order_no: `NO-${i}`,
        withdrawal_id: 2000 + i,
        delivery_order_id: 3000 + i,
        pay_type: i,
        paid_at: at,
        remark: `r${i}`,
        agent_path: paths[0].agent_path,
      })),
    );
  });

  it("leaves references empty and dates an entry now when none is given", async () => {
    const agent = await newAgent();
    const before = Date.now();
    await posting([{ agentId: agent.id, kind: "order_income", amount: 5, balance: 5, revenue: 5 }]);
    const [row] = await entriesOf(agent.id);
    expect(row).toMatchObject({ order_id: null, order_no: null, withdrawal_id: null, delivery_order_id: null });
    expect(row.pay_type).toBeNull();
    expect(row.remark).toBeNull();
    const paid = new Date(row.paid_at as string).getTime();
    expect(paid).toBeGreaterThanOrEqual(before - 1000);
    expect(paid).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("moves each figure by the sum of the movements and records the balances after each entry", async () => {
    const agent = await newAgent();
    const entries = await posting([
      { agentId: agent.id, kind: "order_income", amount: 500, balance: 500, revenue: 500 },
      { agentId: agent.id, kind: "delivery_pending", amount: 200, frozen: 200 },
      { agentId: agent.id, kind: "withdrawal_request", amount: 100, balance: -100, frozen: 100 },
    ]);
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 400, frozen: 300, total_revenue: 500 });
    expect(entries.map((e) => [e.kind, Number(e.balance_after), Number(e.frozen_after)])).toEqual([
      ["order_income", 500, 0],
      ["delivery_pending", 500, 200],
      ["withdrawal_request", 400, 300],
    ]);
    for (const e of entries) {
      expect(typeof e.id).toBe("number");
      expect(e.agent_id).toBe(agent.id);
    }
    expect(await differences(t.db)).not.toContainEqual(expect.objectContaining({ who: "agent", id: agent.id }));
  });

  it("keeps each agent's balances after apart when one posting moves several agents", async () => {
    const a = await newAgent({ withdrawable: 1000 });
    const b = await newAgent({ withdrawable: 50 });
    const entries = await posting([
      { agentId: a.id, kind: "refund", amount: 300, balance: -300 },
      { agentId: b.id, kind: "profit_share", amount: 30, balance: 30, revenue: 30 },
      { agentId: a.id, kind: "refund", amount: 200, balance: -200 },
    ]);
    expect(entries.map((e) => [e.agent_id, Number(e.balance_after)])).toEqual([
      [a.id, 700],
      [b.id, 80],
      [a.id, 500],
    ]);
  });

  it("writes nothing for a movement that moves nothing, and an entry for any that moves something", async () => {
    const agent = await newAgent({ withdrawable: 100, frozen: 100, total_revenue: 100 });
    expect(await posting([])).toEqual([]);
    expect(await posting([{ agentId: agent.id, kind: "refund", amount: 0 }])).toEqual([]);
    expect(await entriesOf(agent.id)).toEqual([]);
    const moved = await posting([
      { agentId: agent.id, kind: "withdrawal_fee", amount: 7 },
      { agentId: agent.id, kind: "refund", amount: 0, balance: -1 },
      { agentId: agent.id, kind: "withdrawal_payout", amount: 0, frozen: -2 },
      { agentId: agent.id, kind: "profit_reversal", amount: 0, revenue: -3 },
      { agentId: agent.id, kind: "refund", amount: 0, balance: 0, frozen: 0, revenue: 0 },
    ]);
    expect(moved.map((e) => e.kind)).toEqual(["withdrawal_fee", "refund", "withdrawal_payout", "profit_reversal"]);
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 99, frozen: 98, total_revenue: 97 });
  });

  it("refuses the whole posting when the balance would go below zero: 409 with what it has and what was asked", async () => {
    const agent = await newAgent({ withdrawable: 300, frozen: 50, total_revenue: 900 });
    await expect(
      posting([
        { agentId: agent.id, kind: "refund", amount: 200, balance: -200 },
        { agentId: agent.id, kind: "refund", amount: 200, balance: -200, frozen: 10 },
      ]),
    ).rejects.toMatchObject({
      status: 409,
      key: "insufficientBalance",
      params: { agent: agent.nickname, available: "3.00", needed: "4.00" },
    });
    expect(await entriesOf(agent.id)).toEqual([]);
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 300, frozen: 50, total_revenue: 900 });
    // Exactly the balance: accepted, down to zero.
    await posting([{ agentId: agent.id, kind: "refund", amount: 300, balance: -300 }]);
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 0, frozen: 50, total_revenue: 900 });
  });

  it("names the frozen amount when that is what would go below zero", async () => {
    const agent = await newAgent({ withdrawable: 10_000, frozen: 50 });
    await expect(
      posting([{ agentId: agent.id, kind: "withdrawal_payout", amount: 80, balance: 5, frozen: -80 }]),
    ).rejects.toMatchObject({ status: 409, params: { agent: agent.nickname, available: "0.50", needed: "0.80" } });
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 10_000, frozen: 50, total_revenue: 0 });
  });

  it("names the balance when the frozen amount comes down to exactly zero", async () => {
    const agent = await newAgent({ withdrawable: 300, frozen: 50 });
    await expect(
      posting([{ agentId: agent.id, kind: "withdrawal_payout", amount: 400, balance: -400, frozen: -50 }]),
    ).rejects.toMatchObject({ status: 409, params: { agent: agent.nickname, available: "3.00", needed: "4.00" } });
  });

  it("refuses money of an agent that does not exist in words, never by its id, in every language", async () => {
    for (const movement of [
      { agentId: 987_654, kind: "refund" as const, amount: 1, balance: -1 },
      { agentId: 987_654, kind: "order_income" as const, amount: 1, balance: 1, revenue: 1 },
    ]) {
      const error = await posting([movement]).then(
        () => undefined,
        (e: HttpError) => e,
      );
      expect(error).toMatchObject({ status: 409, key: "agentGone" });
      const words = LANGUAGES.map((lng) => translate(lng, `errors:${error!.key}`, error!.params));
      expect(words[0]).toBe("The agent this money belongs to no longer exists: nothing was changed");
      for (const text of words) expect(text).not.toMatch(/#\d|agentGone|\{\{/);
      expect(new Set(words).size).toBe(LANGUAGES.length);
    }
  });

  it("refuses a total revenue below zero", async () => {
    const agent = await newAgent({ withdrawable: 100, frozen: 100, total_revenue: 10 });
    await expect(
      posting([{ agentId: agent.id, kind: "profit_reversal", amount: 11, revenue: -11 }]),
    ).rejects.toMatchObject({ status: 409 });
    expect(await figuresOf(agent.id)).toEqual({ withdrawable: 100, frozen: 100, total_revenue: 10 });
  });

  it("refuses for every agent when one of them is short, naming that one", async () => {
    const rich = await newAgent({ withdrawable: 1000 });
    const poor = await newAgent({ withdrawable: 10 });
    await expect(
      posting([
        { agentId: rich.id, kind: "refund", amount: 100, balance: -100 },
        { agentId: poor.id, kind: "refund", amount: 20, balance: -20 },
      ]),
    ).rejects.toMatchObject({ status: 409, params: { agent: poor.nickname, available: "0.10", needed: "0.20" } });
    expect(await entriesOf(rich.id)).toEqual([]);
    expect(await figuresOf(rich.id)).toEqual({ withdrawable: 1000, frozen: 0, total_revenue: 0 });
  });
});

describe("differences", () => {
  it("reports each stored figure that differs from the sum of its entries, and nothing else", async () => {
    const agent = await newAgent();
    await posting([{ agentId: agent.id, kind: "order_income", amount: 500, balance: 500, frozen: 20, revenue: 500 }]);
    const mine = async () => (await differences(t.db)).filter((d) => d.who === "agent" && d.id === agent.id);
    expect(await mine()).toEqual([]);
    await t.db.query(`update "agent" set withdrawable = 507, frozen = 19, total_revenue = 600 where id = $1`, [
      agent.id,
    ]);
    expect(await mine()).toEqual([
      { who: "agent", id: agent.id, nickname: agent.nickname, figure: "withdrawable", stored: 507, ledger: 500 },
      { who: "agent", id: agent.id, nickname: agent.nickname, figure: "frozen", stored: 19, ledger: 20 },
      { who: "agent", id: agent.id, nickname: agent.nickname, figure: "total_revenue", stored: 600, ledger: 500 },
    ]);
  });

  it("counts an agent without entries as zero on both sides", async () => {
    const agent = await newAgent({ withdrawable: 3 });
    expect((await differences(t.db)).filter((d) => d.who === "agent" && d.id === agent.id)).toEqual([
      { who: "agent", id: agent.id, nickname: agent.nickname, figure: "withdrawable", stored: 3, ledger: 0 },
    ]);
  });
});

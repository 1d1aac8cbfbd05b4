// machine-statistics: each device's takings from its orders (paid less refunds), within the caller's scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
}, 60_000);
afterAll(() => t?.close());

interface Stat {
  id: number;
  total_money: number;
  total_number: number;
  month_money: number;
  week_money: number;
  day_money: number;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe("machine-statistics", () => {
  it("adds up paid orders less refunds by day, week, month and in all", async () => {
    const machine = await fx.createRecord("machine", "agent_a", { mac_name: "STAT-1" });
    const order = (money: number, pay_time: string, pay_status: string, refund_money = 0) =>
      fx.insertRecord("order", "agent_a", { machine_id: machine.id, money, pay_time, pay_status, refund_money });
    await order(500, daysAgo(0), "paid");
    await order(300, daysAgo(3), "partial_refund", 100);
    await order(700, daysAgo(20), "paid");
    await order(900, daysAgo(60), "paid");
    await order(999, daysAgo(0), "pending");
    await order(999, daysAgo(0), "refund_success", 999);

    const agentA = await fx.client("agent_a");
    const reply = await agentA.get<{ list: Stat[] }>("/merchant/machine-statistics?mac_name_like=STAT-1");
    expect(reply.status).toBe(200);
    const [stat] = reply.body.data.list;
    expect(stat.id).toBe(machine.id);
    expect(stat.total_number).toBe(4);
    expect(stat.total_money).toBe(500 + 200 + 700 + 900);
    expect(stat.month_money).toBe(500 + 200 + 700);
    expect(stat.week_money).toBe(500 + 200);
    // Only the order paid just now is today's, in any time zone.
    expect(stat.day_money).toBe(500);

    const agentB = await fx.client("agent_b");
    const other = await agentB.get<{ list: Stat[] }>("/merchant/machine-statistics?mac_name_like=STAT-1");
    expect(other.body.data.list).toEqual([]);
    expect((await (await fx.client("operator_a")).get("/merchant/machine-statistics?colour=1")).status).toBe(400);
  });
});

// The money trail: profit settings, then the ledger day by day, oldest first (the day's payments and
// refunds, the withdrawals the agents ask for and the reviews of them), then invite bonuses. Everything
// goes through the server's own money functions (server/domain/money): the same ledger, profit shares,
// refunds and withdrawal transitions, so the demo shows no figure the server would not, and each entry's
// balance after it is the one of its time.
import { q } from "../../core/sql.ts";
import { post as postLedger } from "../../domain/money/ledger.ts";
import { recordPayments, recordRefunds } from "../../domain/money/orders.ts";
import { requestWithdrawal } from "../../domain/money/withdrawals.ts";
import { runTransition } from "../../entities/engine.ts";
import { modelOf } from "../../model/model.ts";
import { adminContext, dateOnly, DAY, insertMany, localDayStart, ORDER_DAYS, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type AgentTree, type Seeded, type SeededAgent } from "./seeded.ts";
import { PAID_STATES } from "../../../src/schema/groups.ts";

export async function seedMoney(seed: Seed, { agents, pages }: Pick<Seeded, "agents" | "pages">): Promise<void> {
  const { tx } = seed;
  const settings = profitSettings(seed, agents, pages);
  await insertMany(tx, "profit_setting", settings);
  const withdrawals = await seedLedgerDays(seed, agents);
  await seedInvites(seed, agents);
  const { rows: ledgerCount } = await tx.query<{ n: number }>(`select count(*)::int as n from ${q("payment_record")}`);
  seed.log(`profit settings ${settings.length}, withdrawals ${withdrawals}, ledger entries ${ledgerCount[0].n}`);
}

/** A level-1 agent earns from its sub-agents' pages, a share of each order. */
function profitSettings(seed: Seed, agents: AgentTree, pages: Map<string, number>): Rows["profit_setting"][] {
  const { rng } = seed;
  const rows: Rows["profit_setting"][] = [];
  for (const agent of agents.field.filter((a) => a.spec.level === 2)) {
    for (const [key, pageId] of pages) {
      if (!key.startsWith(`${agent.id}:`)) continue;
      const fixed = rng.chance(0.25);
      rows.push({
        agent_id: agent.parent!.id,
        agent_path: agent.parent!.path,
        page_id: pageId,
        profit_type: fixed ? "fixed" : "percent",
        percent: fixed ? undefined : rng.pick([0.05, 0.08, 0.1]),
        amount: fixed ? rng.pick([20, 30, 50]) : undefined,
      });
    }
  }
  return rows;
}

/** A withdrawal a field agent asks for on a given day back from today; slot is its place among the agent's. */
interface WithdrawalPlan {
  agent: SeededAgent;
  day: number;
  slot: number;
}

/** A review due: the withdrawal transitions to run on a request, once its time has come. */
interface Review {
  at: Date;
  id: number;
  actions: ("approve" | "confirm" | "refuse")[];
}

/**
 * The ledger day by day: each field agent asks on a few days for part of its balance; older requests are
 * settled (some refused), a recent one approved or paid, yesterday's pending. Answers how many were asked.
 */
async function seedLedgerDays(seed: Seed, agents: AgentTree): Promise<number> {
  const plans: WithdrawalPlan[] = agents.field.flatMap((agent, ai) =>
    [26 - (ai % 3), 19 - (ai % 3), 12 - (ai % 3), 5 - (ai % 3), 1].map((day, slot) => ({ agent, day, slot })),
  );
  const money = adminContext(seed.tx, agents.root);
  const reviews: Review[] = [];
  let withdrawals = 0;
  const localMidnight = new Date(localDayStart(seed.now) * 1000 - 7 * 3600_000);
  const dayStart = (day: number) => new Date(localMidnight.getTime() - day * DAY);
  for (let day = ORDER_DAYS; day >= 0; day--) {
    const from = dayStart(day);
    const to = day === 0 ? new Date(seed.nowMs + 1) : dayStart(day - 1);
    await recordDay(seed, from, to);
    for (const plan of plans.filter((p) => p.day === day)) {
      const asked = await requestPlanned(seed, plan, agents.field.indexOf(plan.agent), from);
      if (asked === undefined) continue;
      withdrawals++;
      if (asked.actions.length) reviews.push(asked);
    }
    // Reviews due by the end of the day, through the withdrawal transitions and their side effects.
    for (const r of reviews.filter((r) => r.at < to).sort((a, b) => a.at.getTime() - b.at.getTime())) {
      for (const action of r.actions) {
        const body: { id: number; action: string; refuse_reason?: string } = { id: r.id, action };
        if (action === "refuse")
          body.refuse_reason = "The account name does not match the legal name; please correct it and apply again.";
        await runTransition(money, modelOf("withdrawal"), "data-withdraw-action", body);
      }
      reviews.splice(reviews.indexOf(r), 1);
    }
  }
  return withdrawals;
}

/** The payments and the refunds of the orders of [from, to), in their order. */
async function recordDay(seed: Seed, from: Date, to: Date): Promise<void> {
  const { tx } = seed;
  const { rows: paid } = await tx.query<{ id: number }>(
    `select id from ${q("order")} where pay_time >= $1 and pay_time < $2 and pay_status = any($3) order by pay_time, id`,
    [from.toISOString(), to.toISOString(), PAID_STATES],
  );
  for (let i = 0; i < paid.length; i += 20_000)
    await recordPayments(
      tx,
      paid.slice(i, i + 20_000).map((r) => Number(r.id)),
      seed.now,
    );
  const { rows: refunded } = await tx.query<{ id: number; refund_money: number; refund_time: Date }>(
    `select id, refund_money, refund_time from ${q("order")}
      where refund_time >= $1 and refund_time < $2 and refund_money > 0 order by refund_time, id`,
    [from.toISOString(), to.toISOString()],
  );
  await recordRefunds(
    tx,
    refunded.map((r) => ({
      orderId: Number(r.id),
      before: 0,
      after: Number(r.refund_money),
      at: new Date(r.refund_time).toISOString(),
    })),
  );
}

/**
 * The planned withdrawal, asked on the day that starts at `from` for part of the agent's balance, and the
 * review it is due; nothing when the balance is under 1,000. `ai` is the agent's place among the field's.
 */
async function requestPlanned(
  seed: Seed,
  { agent, slot }: WithdrawalPlan,
  ai: number,
  from: Date,
): Promise<Review | undefined> {
  const { tx, rng, nowMs } = seed;
  const { rows } = await tx.query<{ withdrawable: number }>(
    `select coalesce(withdrawable, 0) as withdrawable from ${q("agent")} where id = $1`,
    [agent.id],
  );
  const balance = Number(rows[0].withdrawable);
  if (balance < 1000) return undefined;
  const status =
    slot < 3
      ? (ai + slot) % 4 === 1
        ? "refused"
        : "paid"
      : slot === 3
        ? ai % 2 === 0
          ? "approved"
          : "paid"
        : "pending";
  const requested = Math.floor((balance * (0.4 + rng.next() * 0.3)) / 100) * 100;
  const at = new Date(Math.min(nowMs - 600_000, from.getTime() + rng.int(10, 20) * 3600_000));
  const method = rng.weighted([
    ["bank_transfer", 6],
    ["social_wallet", 3],
    ["online_wallet", 2],
  ] as const);
  const bank = method === "bank_transfer";
  const withdrawal = await requestWithdrawal(
    tx,
    { id: agent.id, path: agent.path },
    {
      amount: requested,
      legal_name: agent.spec.legalName,
      payout_method: method,
      bank_name: bank ? agent.spec.bank.name : undefined,
      province: bank ? agent.spec.bank.province : undefined,
      city: bank ? agent.spec.bank.city : undefined,
      account_number: bank
        ? `${rng.digits(4)}-${rng.digits(2)}-${rng.digits(6)}-${rng.digits(1)}`
        : method === "social_wallet"
          ? `wxid_${rng.hex(10).toLowerCase()}`
          : `${agent.spec.account}@wallet.example`,
      branch: bank ? agent.spec.bank.branch : undefined,
      remark: `${["Weekly", "Monthly", "Mid-month"][slot % 3]} payout`,
    },
    at,
  );
  const actions: Review["actions"] =
    status === "refused"
      ? ["refuse"]
      : status === "paid"
        ? ["approve", "confirm"]
        : status === "approved"
          ? ["approve"]
          : [];
  return { at: new Date(Math.min(nowMs, at.getTime() + 20 * 3600_000)), id: Number(withdrawal.id), actions };
}

/** Invite profit: promotion bonuses of a few agents, credited like any share. */
async function seedInvites(seed: Seed, agents: AgentTree): Promise<void> {
  const { tx, rng, ago } = seed;
  const invites = agents.field.slice(0, 4).flatMap((agent, i) =>
    Array.from({ length: 6 }, (_, n) => ({
      agent,
      at: ago(2 + n * 11 + i, rng),
      amount: 100 * (1 + ((n + i) % 3)),
    })),
  );
  const orderNo = (at: Date, n: number) => `INV${dateOnly(at).replaceAll("-", "")}${String(n + 1).padStart(4, "0")}`;
  const inviteIds = await insertMany(
    tx,
    "profit_record",
    invites.map((v, n) => ({
      order_no: orderNo(v.at, n),
      ...owner(v.agent),
      amount: v.amount,
      refunded_amount: 0,
      status: "shared",
      type: "invite",
      created_at: v.at,
      updated_at: v.at,
    })),
  );
  await postLedger(
    tx,
    invites.map((v, n) => ({
      agentId: v.agent.id,
      kind: "profit_share" as const,
      amount: v.amount,
      balance: v.amount,
      revenue: v.amount,
      orderNo: orderNo(v.at, n),
      at: v.at.toISOString(),
      remark: `Invite bonus ${inviteIds[n]}`,
    })),
  );
}

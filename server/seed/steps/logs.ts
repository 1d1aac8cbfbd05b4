// Logs and records around the devices: charging sessions of the charging orders, QR scans, lanes cleared
// and restocked by the operators, customers' work orders, and recycling deliveries with their reviews
// (through the server's delivery functions, so the ledger has them).
import { q } from "../../core/sql.ts";
import { recordDeliveries, reviewDeliveries } from "../../domain/money/deliveries.ts";
import { CUSTOMER_NAMES, SERVICE_PROBLEMS, SHOPS, type Region } from "../data.ts";
import { adminContext, insertMany, type Rng, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type AgentTree, type Seeded, type SeededMachine } from "./seeded.ts";

type Inputs = Pick<Seeded, "agents" | "plans" | "machines" | "operators">;

export async function seedLogs(seed: Seed, inputs: Inputs): Promise<void> {
  const { tx, log } = seed;
  const live = inputs.machines.filter((m) => m.active);
  const chargeRows = await chargeLogs(seed, inputs);
  await insertMany(tx, "charge_log", chargeRows);
  await insertMany(tx, "scan_record", scanRecords(seed, live));
  const cleanRows = cleanRecords(seed, inputs);
  await insertMany(tx, "clean_record", cleanRows);
  await insertMany(tx, "machine_restock", await restocks(seed));
  const serviceRows = serviceOrders(seed, live);
  await insertMany(tx, "service_order", serviceRows);
  const deliveries = await seedDeliveries(seed, inputs.agents);
  log(
    `charge logs ${chargeRows.length}, scan records 240, clean records ${cleanRows.length}, service orders ${serviceRows.length}, deliveries ${deliveries}`,
  );
}

/** A mobile number in the agent's region: 0 Cambodia, 1 Thailand, otherwise China. */
function mobileIn(region: Region, rng: Rng): string {
  if (region === 0) return `+855 ${rng.int(10, 99)} ${rng.digits(3)} ${rng.digits(3)}`;
  if (region === 1) return `+66 ${rng.int(80, 99)} ${rng.digits(3)} ${rng.digits(4)}`;
  return `+86 1${rng.int(30, 89)} ${rng.digits(4)} ${rng.digits(4)}`;
}

/** The sessions of up to 240 paid charging orders: a sample of them, and those still in use. */
async function chargeLogs(seed: Seed, { plans, machines }: Inputs): Promise<Rows["charge_log"][]> {
  const { tx, rng, nowMs } = seed;
  const byId = new Map(machines.map((m) => [m.id, m]));
  const step = Math.max(1, Math.floor(seed.orders / 1200));
  const { rows: timed } = await tx.query<{
    order_no: string;
    machine_id: number;
    order_time: Date;
    money: number;
    use_status: string;
  }>(
    `select o.order_no, o.machine_id, o.order_time, o.money, o.use_status from ${q("order")} o
      where o.machine_id = any($1) and o.pay_status = 'paid' and (o.id % $2 = 0 or o.use_status = 'in_use') order by o.id limit 240`,
    [
      machines.filter((m) => m.kind === "charging_cable" || m.kind === "charging_pile").map((m) => m.id),
      Math.max(1, Math.floor(step / 2)),
    ],
  );
  return timed.map((o) => {
    const m = byId.get(Number(o.machine_id))!;
    const pile = plans.get(m.agent.spec.key)!.pile;
    const start = new Date(o.order_time);
    let minutes: number;
    let energy: number | undefined;
    if (m.kind === "charging_pile") {
      energy = Math.round((Number(o.money) / (pile!.electricity + pile!.service)) * 100) / 100;
      minutes = Math.min(pile!.maxHours * 60, Math.round((energy / 7) * 60));
    } else {
      minutes = m.items.find((it) => it.price === Number(o.money))?.minutes ?? 60;
      energy = Math.round(minutes * 0.012 * 100) / 100;
    }
    const ended = o.use_status !== "in_use";
    return {
      order_no: o.order_no,
      mac_name: m.macName,
      machine_id: m.id,
      port_number: rng.int(1, m.kind === "charging_pile" ? 2 : 6),
      start_time: start,
      end_time: ended ? new Date(Math.min(nowMs, start.getTime() + minutes * 60_000)) : undefined,
      minutes: ended ? minutes : undefined,
      energy_kwh: ended ? energy : undefined,
      money: Number(o.money),
      ...owner(m.agent),
      created_at: start,
    };
  });
}

/** Customers' scans of the codes on working machines over the last two weeks, oldest first. */
function scanRecords(seed: Seed, live: SeededMachine[]): Rows["scan_record"][] {
  const { rng, ago } = seed;
  return Array.from({ length: 240 }, () => {
    const m = rng.pick(live);
    const at = ago(rng.next() * 14, rng);
    return {
      machine_id: m.id,
      mac_name: m.macName,
      nickname: rng.pick(CUSTOMER_NAMES),
      openid: `o${rng.hex(4)}${rng.hex(23).toLowerCase()}`,
      shop_id: m.shopId,
      scanned_at: at,
      ...owner(m.agent),
      created_at: at,
    };
  }).sort((a, b) => a.scanned_at.getTime() - b.scanned_at.getTime());
}

/** Goods the operators took out of their vending machines' lanes, oldest first. */
function cleanRecords(seed: Seed, { plans, machines, operators }: Inputs): Rows["clean_record"][] {
  const { rng, ago } = seed;
  const byId = new Map(machines.map((m) => [m.id, m]));
  const rows: (Rows["clean_record"] & { cleaned_at: Date })[] = [];
  for (const b of operators.bindings) {
    const m = byId.get(b.machine_id)!;
    if (m.kind !== "vending") continue;
    const lanesOfMachine = plans.get(m.agent.spec.key)!.channel;
    const plan = [...lanesOfMachine.values()].find((p) => p.id === m.planId)!;
    for (let i = 0; i < rng.int(1, 3); i++) {
      const ch = rng.pick(plan.channels);
      const quantity = rng.int(1, 6);
      const at = ago(rng.int(1, 60), rng);
      rows.push({
        mac_name: m.macName,
        machine_id: m.id,
        operator_id: b.operator_id,
        goods_id: ch.goods_id,
        quantity,
        money: quantity * ch.price,
        cleaned_at: at,
        remark: rng.pick([
          `Expired stock removed from lane ${ch.channel_number}.`,
          `Dented cans taken out of lane ${ch.channel_number}.`,
          `Lane ${ch.channel_number} jammed; items removed and spiral reset.`,
        ]),
        ...owner(m.agent),
        created_at: at,
      });
    }
  }
  return rows.sort((a, b) => a.cleaned_at.getTime() - b.cleaned_at.getTime());
}

/**
 * Restocks the operators made on their devices' lanes in the last weeks (the lanes' "left" is what is
 * there now; a record says what was loaded and what the lane then held), oldest first.
 */
async function restocks(seed: Seed): Promise<Rows["machine_restock"][]> {
  const { tx, rng, ago } = seed;
  const { rows: boundLanes } = await tx.query<{
    id: number;
    machine_id: number;
    channel_number: number;
    goods_id: number;
    left: number;
    count: number;
    operator_id: number;
    nickname: string;
    agent_id: number;
    agent_path: string;
    mac_name: string;
  }>(
    `select c.id, c.machine_id, c.channel_number, c.goods_id, c."left", c.count, b.operator_id, o.nickname,
            c.agent_id, c.agent_path, m.mac_name
       from ${q("operator_binding")} b join ${q("machine_channel")} c on c.machine_id = b.machine_id
       join ${q("operator")} o on o.id = b.operator_id join ${q("machine")} m on m.id = c.machine_id
      where c.goods_id is not null and c."left" > 0
      order by c.id`,
  );
  return boundLanes
    .filter(() => rng.chance(0.25))
    .map((lane) => {
      const at = ago(rng.int(1, 21), rng);
      const leftAfter = rng.int(Math.max(1, Number(lane.left)), Number(lane.count));
      return {
        machine_id: lane.machine_id,
        mac_name: lane.mac_name,
        channel_id: lane.id,
        channel_number: lane.channel_number,
        goods_id: lane.goods_id,
        quantity: rng.int(1, leftAfter),
        left_after: leftAfter,
        actor_kind: "operator" as const,
        actor_id: lane.operator_id,
        actor_name: lane.nickname,
        restocked_at: at,
        agent_id: lane.agent_id,
        agent_path: lane.agent_path,
        created_at: at,
      };
    })
    .sort((a, b) => a.restocked_at.getTime() - b.restocked_at.getTime());
}

/** Customers' work orders over the last 45 days: the recent ones pending, most older ones completed. */
function serviceOrders(seed: Seed, live: SeededMachine[]): Rows["service_order"][] {
  const { rng, ago, nowMs } = seed;
  return Array.from({ length: 42 }, (_, i) => {
    const m = rng.pick(live);
    const problem = rng.pick(SERVICE_PROBLEMS);
    const age = rng.next() * 45;
    const status: Rows["service_order"]["status"] =
      age < 2
        ? "pending"
        : age < 6
          ? rng.pick(["pending", "processing"] as const)
          : rng.chance(0.85)
            ? "completed"
            : "processing";
    const at = ago(age, rng);
    const region = m.agent.spec.region;
    return {
      type: problem.type,
      mac_name: m.macName,
      machine_id: m.id,
      problem: problem.text.replace("{lane}", String(rng.int(1, 10))),
      phone: mobileIn(region, rng),
      screenshots: i % 3 === 0 ? [`/uploads/demo/service/ticket-${i + 1}.jpg`] : undefined,
      room: rng.chance(0.5) ? SHOPS.find((s) => s.agent === m.agent.spec.key)?.name.slice(0, 64) : undefined,
      status,
      reply:
        status === "completed"
          ? rng.pick([
              "Refunded to the original payment method.",
              "Technician reset the machine; it works again.",
              "Lane cleared and restocked.",
              "Thanks, we passed the request to the outlet.",
            ])
          : undefined,
      ...owner(m.agent),
      created_at: at,
      updated_at: status === "pending" ? at : new Date(Math.min(nowMs, at.getTime() + rng.int(1, 30) * 3600_000)),
    };
  }).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/**
 * Recycling deliveries over the last 30 days: delivered ones make pending income for their agents; most
 * older ones are reviewed, credited or (for a violation) deducted, as a reviewer would. Answers how many.
 */
async function seedDeliveries(seed: Seed, agents: AgentTree): Promise<number> {
  const { tx, rng, ago, nowMs } = seed;
  const deliveries = Array.from({ length: 45 }, (_, i) => {
    const agent = rng.pick(agents.field);
    const weight = Math.round((0.5 + rng.next() * 25) * 1000) / 1000;
    const estimated = Math.round(weight * 150);
    const age = rng.next() * 30;
    const processed = age > 1.5 && rng.chance(0.85);
    const violation = processed && rng.chance(0.12);
    const deduction = processed
      ? violation
        ? rng.chance(0.5)
          ? estimated
          : Math.round(estimated * 0.3)
        : 0
      : undefined;
    const at = ago(age, rng);
    const region = agent.spec.region;
    const row: Rows["delivery_order"] & { created_at: Date } = {
      phone: mobileIn(region, rng),
      snapshot_url: `/uploads/demo/recycle/delivery-${i + 1}.jpg`,
      weight_kg: weight,
      estimated_income: estimated,
      violation_url: violation ? `/uploads/demo/recycle/violation-${i + 1}.jpg` : undefined,
      delivery_time: at,
      status: "pending",
      ...owner(agent),
      created_at: at,
    };
    const review = processed
      ? {
          at: new Date(Math.min(nowMs, at.getTime() + rng.int(1, 20) * 3600_000)).toISOString(),
          income: estimated - (deduction ?? 0),
          remark: violation
            ? "Bottles mixed with food waste; deduction applied."
            : "Clean PET bottles, weight confirmed.",
        }
      : undefined;
    return { row, review };
  }).sort((a, b) => a.row.created_at.getTime() - b.row.created_at.getTime());
  const ids = await insertMany(
    tx,
    "delivery_order",
    deliveries.map((d) => d.row),
  );
  await recordDeliveries(tx, ids);
  const reviewer = adminContext(tx, agents.root);
  for (const [i, d] of deliveries.entries()) {
    if (!d.review) continue;
    await reviewDeliveries(reviewer, {
      ids: [ids[i]],
      outcome: d.review.income > 0 ? "income" : "deduction",
      actual_income: d.review.income > 0 ? d.review.income : undefined,
      remark: d.review.remark,
      at: d.review.at,
    });
  }
  return deliveries.length;
}

// Machines and their lanes: each field agent's devices of every kind at its outlets, on its plans, with
// the hardware identity, the network, the last report and, for vending machines, lanes filled from the
// plan's layout. The devices that were online keep reporting while the server runs on the demo data.
import type { NetworkType } from "../../../src/generated/types.ts";
import { KIND_PREFIX, KINDS, MACHINE_MODELS, SHOPS, type Kind, type ModelSpec } from "../data.ts";
import { DAY, dateOnly, insertMany, setState, type Rng, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type Hardware, type Seeded, type SeededAgent, type SeededMachine } from "./seeded.ts";

type Inputs = Pick<Seeded, "agents" | "hardware" | "outlets" | "catalogues" | "plans">;

type LaneRow = Omit<Rows["machine_channel"], "machine_id">;
type PlanColumns = Pick<
  Rows["machine"],
  "channel_plan_id" | "charge_plan_id" | "charge_pile_plan_id" | "dry_plan_id" | "car_wash_plan_id"
>;

/** How busy a kind of device is, before its own popularity. */
const KIND_WEIGHT: Record<Kind, number> = {
  vending: 3,
  charging_cable: 1.6,
  charging_pile: 0.8,
  dryer: 0.7,
  car_wash: 0.6,
};

export async function seedMachines(seed: Seed, inputs: Inputs): Promise<SeededMachine[]> {
  const { tx, log } = seed;
  const machines: SeededMachine[] = [];
  const machineRows: Rows["machine"][] = [];
  const laneRows: LaneRow[][] = [];
  const serial = new Map<string, number>();
  for (const agent of inputs.agents.field) {
    for (const kind of KINDS) {
      for (let n = 0; n < (agent.spec.machines[kind] ?? 0); n++) {
        const made = makeMachine(seed, inputs, draft(seed, inputs, agent, kind, serial));
        machines.push(made.machine);
        machineRows.push(made.row);
        laneRows.push(made.lanes);
      }
    }
  }
  const machineIds = await insertMany(tx, "machine", machineRows);
  machineIds.forEach((id, i) => (machines[i].id = id));
  // The devices that report while the server runs on the demo data (server/seed/devices.ts).
  await setState(
    tx,
    "demo:reporting",
    machines.filter((m) => m.online).map((m) => m.id),
  );
  const lanes: Rows["machine_channel"][] = [];
  machines.forEach((m, i) => {
    for (const lane of laneRows[i])
      lanes.push({ machine_id: m.id, ...lane, ...owner(m.agent), created_at: machineRows[i].created_at });
  });
  await insertMany(tx, "machine_channel", lanes);
  const countKind = (k: Kind) => machines.filter((m) => m.kind === k).length;
  log(`machines ${machines.length} (${KINDS.map((k) => `${k} ${countKind(k)}`).join(", ")}), lanes ${lanes.length}`);
  return machines;
}

/** A machine's first draws: what it is, its name and hardware id, whether it works, where it stands. */
interface Draft {
  agent: SeededAgent;
  kind: Kind;
  model: ModelSpec;
  macName: string;
  network: NetworkType;
  macId: string;
  active: boolean;
  online: boolean;
  battery?: number;
  expiresInDays: number;
  shop: { id: number; index: number };
}

function draft(seed: Seed, inputs: Inputs, agent: SeededAgent, kind: Kind, serial: Map<string, number>): Draft {
  const { rng } = seed;
  const model =
    kind === "vending"
      ? rng.weighted(MACHINE_MODELS.filter((m) => m.kind === "vending").map((m, i) => [m, [4, 4, 2][i]] as const))
      : MACHINE_MODELS.find((m) => m.kind === kind)!;
  const prefix = `${KIND_PREFIX[kind]}-${agent.spec.cityCode}`;
  const seq = (serial.get(prefix) ?? 0) + 1;
  serial.set(prefix, seq);
  const macName = `${prefix}-${String(seq).padStart(4, "0")}`;
  const network =
    kind === "vending"
      ? model.protocol === "android_vending"
        ? "android"
        : "4g"
      : kind === "charging_cable"
        ? rng.chance(0.8)
          ? "bluetooth"
          : "4g"
        : kind === "dryer" && rng.chance(0.3)
          ? "bluetooth"
          : "4g";
  const macId =
    network === "bluetooth"
      ? ["A4", "C1", "38", rng.hex(2), rng.hex(2), rng.hex(2)].join(":")
      : `86451205${rng.digits(7)}`;
  const active = !rng.chance(0.03);
  const online = active && rng.chance(0.9);
  const battery = network === "bluetooth" ? rng.int(5, 100) : undefined;
  const expiresInDays = rng.chance(0.05) ? rng.int(3, 29) : rng.int(60, 900);
  const shops = inputs.outlets.get(agent.spec.key)!;
  const shop = shops[rng.weighted(shops.map((s, i) => [i, i === 0 ? 3 : 2] as const))];
  return { agent, kind, model, macName, network, macId, active, online, battery, expiresInDays, shop };
}

function makeMachine(
  seed: Seed,
  inputs: Inputs,
  d: Draft,
): { machine: SeededMachine; row: Rows["machine"]; lanes: LaneRow[] } {
  const { rng } = seed;
  const { planColumns, planId, lanes, items } = fit(rng, d, inputs);
  const popularity = 0.3 + rng.next() * rng.next() * 3;
  const machine: SeededMachine = {
    id: 0, // once inserted
    kind: d.kind,
    agent: d.agent,
    shopId: d.shop.id,
    macName: d.macName,
    macId: d.macId,
    weight: d.active ? KIND_WEIGHT[d.kind] * popularity : 0,
    items,
    planId,
    network: d.network,
    active: d.active,
    online: d.online,
  };
  return { machine, row: machineRow(seed, d, inputs.hardware, planColumns), lanes };
}

/** The machine's plan, and what an order can buy on it: a vending machine's lanes, another's packages. */
function fit(rng: Rng, d: Draft, inputs: Inputs) {
  const plans = inputs.plans.get(d.agent.spec.key)!;
  const items: SeededMachine["items"] = [];
  const lanes: LaneRow[] = [];
  let planColumns: PlanColumns;
  let planId: number;
  if (d.kind === "vending") {
    const plan = plans.channel.get(d.model.name)!;
    const catalog = inputs.catalogues.get(d.agent.spec.key)!;
    planId = plan.id;
    planColumns = { channel_plan_id: planId };
    const fill = !d.active
      ? 0
      : rng.chance(0.06)
        ? 0
        : rng.chance(0.2)
          ? 0.15 + rng.next() * 0.2
          : 0.45 + rng.next() * 0.55;
    for (const ch of plan.channels) {
      const l = Math.max(0, Math.min(ch.count, Math.round(ch.count * fill * (0.4 + rng.next() * 0.9))));
      const goods = catalog.find((c) => c.id === ch.goods_id)!;
      lanes.push({
        channel_number: ch.channel_number,
        goods_id: ch.goods_id,
        goods_name: goods.spec.title,
        left: l,
        count: ch.count,
        shelf_status: rng.chance(0.97) ? 1 : 0,
      });
      items.push({ channel: ch.channel_number, price: ch.price, cost: goods.cost, goods: ch.goods_id });
    }
  } else if (d.kind === "charging_cable") {
    planId = plans.charge!.id;
    planColumns = { charge_plan_id: planId };
    for (const p of plans.charge!.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
  } else if (d.kind === "charging_pile") {
    planId = plans.pile!.id;
    planColumns = { charge_pile_plan_id: planId };
    for (const fee of [2000, 3000, 5000, 8000]) items.push({ channel: 0, price: fee });
  } else if (d.kind === "dryer") {
    const plan = rng.pick(plans.dryer);
    planId = plan.id;
    planColumns = { dry_plan_id: planId };
    for (const p of plan.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
  } else {
    planId = plans.carWash!.id;
    planColumns = { car_wash_plan_id: planId };
    for (const p of plans.carWash!.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
  }
  return { planColumns, planId, lanes, items };
}

function machineRow(seed: Seed, d: Draft, hardware: Hardware, planColumns: PlanColumns): Rows["machine"] {
  const { rng, ago, nowMs } = seed;
  const { agent, kind, model, network, active, shop } = d;
  return {
    mac_name: d.macName,
    mac_id: d.macId,
    kind,
    protocol_id: hardware.protocolIds.get(model.protocol)!,
    model_id: hardware.modelIds.get(model)!,
    spec_id: hardware.specIds.get(model.spec)!,
    iccid: network === "4g" || (network === "android" && rng.chance(0.5)) ? `898550${rng.digits(13)}` : undefined,
    network_type: network,
    // What the device last said: online ones just now, the others some hours to days ago; inactive
    // ones never reported. Their status is worked out from this when read (server/db/live.ts).
    last_report_at: !active
      ? undefined
      : d.online
        ? new Date(nowMs - rng.int(5, 240) * 1000).toISOString()
        : ago(rng.int(1, 6), rng),
    battery_level: d.battery,
    mode: rng.weighted([
      ["normal", 85],
      ["recharge", 5],
      ["4g", 5],
      ["scan", 5],
    ] as const),
    ...owner(agent),
    shop_id: shop.id,
    room_number:
      kind === "dryer"
        ? `Dorm ${rng.pick(["A", "B", "C", "D"])}-${rng.int(1, 12)}F`
        : rng.pick([
            "Lobby B1",
            "Ground floor, east gate",
            "2F near escalator",
            "Exit 3",
            "Food court",
            "Parking P2",
            "Main entrance",
          ]),
    ...planColumns,
    maxnumber: kind === "vending" ? model.channels * model.capacity : undefined,
    expiry_date: dateOnly(new Date(nowMs + d.expiresInDays * DAY)),
    remark: rng.chance(0.4)
      ? `${SHOPS.filter((s) => s.agent === agent.spec.key)[shop.index].name}, ${rng.pick(["next to the lifts", "opposite the cashier", "by the main door", "near the restrooms", "under the stairs"])}.`
      : undefined,
    created_at: active ? ago(rng.int(95, 600), rng) : ago(rng.int(1, 10), rng),
  };
}

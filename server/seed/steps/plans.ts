// Plans, per field agent and for the kinds of device it runs: lane layouts for each vending model, cable
// deposits and hours, the EV tariff, dryer programmes and the car-wash bay.
import { MACHINE_MODELS, SHOPS } from "../data.ts";
import { insertOne, type Seed } from "./kit.ts";
import { owner, type Plans, type Seeded, type SeededAgent } from "./seeded.ts";

type Inputs = Pick<Seeded, "agents" | "hardware" | "catalogues">;

/** A field agent's plans, by agent key. */
export async function seedPlans(seed: Seed, inputs: Inputs): Promise<Map<string, Plans>> {
  const plansOf = new Map<string, Plans>();
  for (const agent of inputs.agents.field) {
    const kinds = agent.spec.machines;
    const city = SHOPS.find((s) => s.agent === agent.spec.key)!.city;
    const plans: Plans = { channel: new Map(), dryer: [] };
    if (kinds.vending) await channelPlans(seed, agent, city, plans, inputs);
    if (kinds.charging_cable) plans.charge = await chargePlan(seed, agent, city);
    if (kinds.charging_pile) plans.pile = await pilePlan(seed, agent, city);
    if (kinds.dryer) plans.dryer = await dryerPlans(seed, agent, city);
    if (kinds.car_wash) plans.carWash = await carWashPlan(seed, agent, city);
    plansOf.set(agent.spec.key, plans);
  }
  seed.log("plans: channel, charge, deposit, charging-pile, dryer, car-wash");
  return plansOf;
}

/** A lane layout per vending model, from the agent's goods that go in a lane. */
async function channelPlans(seed: Seed, agent: SeededAgent, city: string, plans: Plans, inputs: Inputs) {
  const { tx, rng, ago } = seed;
  const laneGoods = inputs.catalogues.get(agent.spec.key)!.filter((c) => !c.spec.noLane);
  for (const model of MACHINE_MODELS.filter((m) => m.kind === "vending")) {
    const picked = rng.sample(laneGoods, model.channels);
    const channels = Array.from({ length: model.channels }, (_, i) => {
      const item = picked[i % picked.length];
      return { channel_number: i + 1, goods_id: item.id, count: model.capacity, price: item.price };
    });
    const id = await insertOne(tx, "channel_plan", {
      name: `${city} ${model.name.split(" ")[0]} layout`,
      model_id: inputs.hardware.modelIds.get(model)!,
      channels,
      sort: plans.channel.size + 1,
      sync_subor: agent.children.length ? 1 : 0,
      remark: `Standard ${model.channels}-lane layout for ${agent.spec.nickname}.`,
      ...owner(agent),
      created_at: ago(rng.int(100, 300), rng),
    });
    plans.channel.set(model.name, { id, channels });
  }
}

/** The cable deposit and the cable hours that take it. */
async function chargePlan(seed: Seed, agent: SeededAgent, city: string): Promise<Plans["charge"]> {
  const { tx, rng, ago } = seed;
  const depositId = await insertOne(tx, "deposit_plan", {
    name: `Cable deposit ${city}`,
    deposit: rng.pick([2000, 3000, 5000]),
    refund_mode: rng.pick(["original", "balance"] as const),
    remark: "Refunded when the cable is returned to any station.",
    ...owner(agent),
    created_at: ago(rng.int(100, 300), rng),
  });
  const packages = [
    { minutes: 60, fee: 100 },
    { minutes: 180, fee: 250 },
    { minutes: 480, fee: 500 },
  ];
  const byAd = rng.chance(0.4);
  const id = await insertOne(tx, "charge_plan", {
    name: `${city} cable hours`,
    packages,
    hourly_tiers: [
      { hours: 1, fee: 100 },
      { hours: 3, fee: 250 },
      { hours: 8, fee: 500 },
    ],
    free_by_ad: byAd ? 1 : 0,
    ad_publisher_id: byAd ? `pub-${rng.digits(10)}` : undefined,
    ad_id: byAd ? `adunit-${rng.hex(16).toLowerCase()}` : undefined,
    deposit_plan_id: depositId,
    sort: 1,
    ...owner(agent),
    created_at: ago(rng.int(100, 300), rng),
  });
  return { id, packages };
}

async function pilePlan(seed: Seed, agent: SeededAgent, city: string): Promise<Plans["pile"]> {
  const { tx, rng, ago } = seed;
  const pile = { electricity: rng.pick([110, 120, 135]), service: rng.pick([30, 40, 50]), maxHours: 8 };
  const id = await insertOne(tx, "charge_pile_plan", {
    name: `${city} EV tariff`,
    electricity_fee: pile.electricity,
    service_fee: pile.service,
    max_hours: pile.maxHours,
    description: "Per kWh: electricity plus service fee, daytime tariff.",
    sort: 1,
    ...owner(agent),
    created_at: ago(rng.int(100, 300), rng),
  });
  return { id, ...pile };
}

/** Two programmes: shoes dried and disinfected, garments cared for. */
async function dryerPlans(seed: Seed, agent: SeededAgent, city: string): Promise<Plans["dryer"]> {
  const { tx, rng, ago } = seed;
  const dryer: Plans["dryer"] = [];
  for (const [name, mode, temperature] of [
    ["Shoe dryer", "dry_disinfect", "medium"],
    ["Garment care", "cleaning_care", "low"],
  ] as const) {
    const packages =
      name === "Shoe dryer"
        ? [
            { minutes: 30, fee: 200 },
            { minutes: 60, fee: 350 },
          ]
        : [
            { minutes: 45, fee: 300 },
            { minutes: 90, fee: 500 },
          ];
    const id = await insertOne(tx, "dryer_plan", {
      name: `${name}, ${city}`,
      mode,
      temperature,
      packages,
      description: mode === "dry_disinfect" ? "Drying with UV disinfection." : "Gentle warm-air care for garments.",
      sort: dryer.length + 1,
      ...owner(agent),
      created_at: ago(rng.int(100, 300), rng),
    });
    dryer.push({ id, packages });
  }
  return dryer;
}

async function carWashPlan(seed: Seed, agent: SeededAgent, city: string): Promise<Plans["carWash"]> {
  const { tx, rng, ago } = seed;
  const packages = [
    { minutes: 10, fee: 2000 },
    { minutes: 20, fee: 3500 },
    { minutes: 30, fee: 5000 },
  ];
  const id = await insertOne(tx, "car_wash_plan", {
    name: `Self-service bay, ${city}`,
    mode: rng.pick(["ordinary", "fine", "coating", "luxurious"] as const),
    packages,
    description: "Foam, rinse and dry.",
    sort: 1,
    ...owner(agent),
    created_at: ago(rng.int(100, 300), rng),
  });
  return { id, packages };
}

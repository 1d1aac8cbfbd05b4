// The platform's hardware and software: device protocols, specs and models, the applications devices run
// (vending, charging, timed services) and the plugins.
import { MACHINE_MODELS, PROTOCOLS, type Kind, type ModelSpec } from "../data.ts";
import { insertMany, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import type { Hardware } from "./seeded.ts";

/** The new ids by the keys of the rows they were made for. */
const idsBy = <K>(keys: K[], ids: number[]): Map<K, number> => new Map(keys.map((key, i) => [key, ids[i]]));

export async function seedHardware(seed: Seed): Promise<Hardware> {
  const { tx, ago } = seed;
  const protocolIds = idsBy(
    PROTOCOLS.map((p) => p.code),
    await insertMany(
      tx,
      "machine_protocol",
      PROTOCOLS.map((p) => ({ ...p, created_at: ago(400) })),
    ),
  );
  const specNames = [...new Set(MACHINE_MODELS.map((m) => m.spec))];
  const specIds = idsBy(
    specNames,
    await insertMany(
      tx,
      "machine_spec",
      specNames.map((name) => ({ name, created_at: ago(400) })),
    ),
  );
  const modelIds: Map<ModelSpec, number> = idsBy(
    MACHINE_MODELS,
    await insertMany(
      tx,
      "machine_model",
      MACHINE_MODELS.map((m) => ({
        name: m.name,
        channel_count: m.channels,
        channel_capacity: m.capacity,
        created_at: ago(400),
      })),
    ),
  );
  const appIds = await insertMany(tx, "application", applications(ago));
  const appOfKind: Record<Kind, number> = {
    vending: appIds[0],
    charging_cable: appIds[1],
    charging_pile: appIds[1],
    dryer: appIds[2],
    car_wash: appIds[2],
  };
  await insertMany(tx, "plugin", plugins(ago));
  return { protocolIds, specIds, modelIds, appIds, appOfKind };
}

const applications = (ago: Seed["ago"]): Rows["application"][] => [
  {
    name: "Smart Vending",
    version_number: "2.3.1",
    latest_version: "2.4.0",
    logo: "/uploads/demo/application/vending-logo.png",
    square_logo: "/uploads/demo/application/vending-square.png",
    config_image: "/uploads/demo/application/vending-config.jpg",
    install_status: "installed",
    description: "Sells snacks and drinks from vending lanes through the customer mini-program.",
    created_at: ago(390),
  },
  {
    name: "Smart Charging",
    version_number: "1.8.0",
    latest_version: "1.8.0",
    logo: "/uploads/demo/application/charging-logo.png",
    square_logo: "/uploads/demo/application/charging-square.png",
    config_image: "/uploads/demo/application/charging-config.jpg",
    install_status: "installed",
    description: "Rents charging cables by the hour and sells energy at EV wallboxes.",
    created_at: ago(380),
  },
  {
    name: "Laundry & Car Wash",
    version_number: "1.2.4",
    latest_version: "1.2.4",
    logo: "/uploads/demo/application/services-logo.png",
    square_logo: "/uploads/demo/application/services-square.png",
    config_image: "/uploads/demo/application/services-config.jpg",
    install_status: "installed",
    description: "Timed services: shoe and garment dryers, self-service car-wash bays.",
    created_at: ago(300),
  },
];

const plugins = (ago: Seed["ago"]): Rows["plugin"][] => [
  {
    name: "Profit sharing",
    code: "profit_share",
    status: 1,
    sort: 1,
    description: "Shares part of each order with the agents above the page owner, within daily and per-order limits.",
    created_at: ago(300),
  },
  {
    name: "Invite rewards",
    code: "invite_reward",
    status: 0,
    sort: 2,
    description: "Pays a one-off reward to the agent who invited a new outlet.",
    created_at: ago(200),
  },
];

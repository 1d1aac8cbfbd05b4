// The platform's own settings: the version it runs, the demo's licence, the system settings, and each
// level-1 agent's goods and plugin settings.
import { adoptInstallation, installLicence } from "../../domain/licence/index.ts";
import { insertOne, ORDER_DAYS, setState, type Seed } from "./kit.ts";
import type { Rows } from "./rows.ts";
import { owner, type Seeded } from "./seeded.ts";

// The demo's licence: the secret key the "vendor" gave with it, the installation id the demo seed gives its
// database, and a serial number the vendor signed (its private key, never in this repository) for that
// installation and key, until 2036-12-31. Any other database makes an id of its own (random), which this
// public serial number does not license.
export const DEMO_SECRET_KEY = "demo-secret-key-mekong-2026";
export const DEMO_INSTALLATION = "demo-mekong-smart-retail";
export const DEMO_SERIAL =
  "VMS2.eyJsaWNlbnNlZSI6Ik1la29uZyBTbWFydCBSZXRhaWwiLCJ2YWxpZF91bnRpbCI6IjIwMzYtMTItMzFUMjM6NTk6NTkuMDAwWiIsImluc3RhbGxhdGlvbiI6ImRlbW8tbWVrb25nLXNtYXJ0LXJldGFpbCIsImtleV9zaGEyNTYiOiJiODAyNTE4YTE5YzNmOTlmY2VjYjIwMmU5MWY5OWVmNzFjMzljYTE4MzlhOTUyNGVhOWIxMTgwNzI2MjUxNDQwIn0.wmQev4AUCfhQ5I2mTfJ0KDevGT4HghoO8snc7CtuTikTBJOv83epY0ndTRPRAyK9DuaAit73oMGaJXxnXDDQAQ";

export async function seedPlatform(
  seed: Seed,
  { agents, hardware }: Pick<Seeded, "agents" | "hardware">,
): Promise<void> {
  const { tx, rng, ago, log } = seed;
  await insertOne(tx, "version", {
    version_number: "1.0.0",
    upgrade_time: ago(ORDER_DAYS + 5),
    description: "First production release of the merchant console.",
    content:
      "<ul><li>Agents, outlets, devices and lanes.</li><li>Orders, refunds and withdrawals.</li><li>Vending, charging, dryer and car-wash plans.</li></ul>",
    created_at: ago(ORDER_DAYS + 5),
  });
  // The version this system runs: an upgrade screen offers what was published after it.
  await setState(tx, "installed_version", "1.0.0");
  // The demo's licence, until 2036-12-31 (DESIGN.md section 6): this fresh database takes the demo's
  // installation id (an id once made never changes: one already there stays, and the serial is then void).
  if ((await adoptInstallation(tx, DEMO_INSTALLATION)) !== DEMO_INSTALLATION)
    log("this database already has an installation id: the demo's serial number does not license it");
  await installLicence(tx, DEMO_SECRET_KEY, DEMO_SERIAL);
  await insertOne(tx, "system_setting", SYSTEM_SETTING);
  for (const agent of agents.levelOne) {
    await insertOne(tx, "goods_setting", {
      singleton_key: agent.path,
      shelve: 1,
      format: 1,
      stock: 1,
      allocate: rng.chance(0.5) ? 1 : 0,
      goods_days: 180,
      expire_day: 15,
      is_discount: 1,
      two_discount: 0.9,
      three_discount: 0.8,
      ...owner(agent),
    });
    await insertOne(tx, "plugin_setting", {
      singleton_key: agent.path,
      daily_max_amount: 200_000,
      per_order_amount: 500,
      application_ids: [hardware.appIds[0], hardware.appIds[1]],
      ...owner(agent),
    });
  }
}

const SYSTEM_SETTING: Rows["system_setting"] = {
  singleton_key: "global",
  site_name: "Mekong Smart Retail",
  logo: "/uploads/demo/setting/logo.png",
  currency: "USD",
  full_domain: "https://console.mekong-retail.example",
  profit_days: 7,
  withdraw_fee: 0.006,
  max_daily_profit: 1_000_000,
  machine_deposit: 50_000,
  stock_alert_quantity: 5,
  goods_valid_days: 180,
  near_expiry_days: 15,
  sms_provider: "cloud-sms",
  sms_sign_name: "Mekong Retail",
  sms_template_id: "SMS_274150012",
  mini_appid: "wx8f3a2c9d1e7b6a54",
  nav_title: "Mekong Vending",
  bg_music: "/uploads/demo/setting/welcome.mp3",
  promotion_poster: "/uploads/demo/setting/poster.jpg",
  agent_agreement:
    "<h3>Agent agreement</h3><p>Agents keep devices stocked, clean and online, and settle refunds within 24 hours.</p>",
};

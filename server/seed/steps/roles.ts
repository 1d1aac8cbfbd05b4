// Roles and admin groups: the platform admin's role with every permission, the level-1 agents' (a
// regional business) and the level-2 agents' (their goods, outlets and devices; the rest read-only).
import { entitySchemas, permissionKeys } from "../../../src/generated/schemas.ts";
import { ADMIN_GROUPS } from "../data.ts";
import { insertMany, type Seed } from "./kit.ts";
import type { Roles } from "./seeded.ts";

const READ_OPS = new Set(["list", "detail", "all", "get", "export"]);

/** Permission keys a role may hold: those its schema's item pattern accepts (a key the pattern refused
 * would make the role unsavable in the console). */
export function grantablePermissions(): string[] {
  const items = (entitySchemas.role.properties.permissions as { items?: { pattern?: string } }).items;
  const pattern = items?.pattern ? new RegExp(items.pattern) : undefined;
  return permissionKeys.filter((key) => !pattern || pattern.test(key));
}

/** Level-1 agents run a regional business: everything on goods, devices, outlets, plans, pages, orders,
 * data lists, operators and their own sub-agents; not the platform (roles, versions, settings, payment
 * accounts, applications, plugins) and not the review of withdrawals (an agent would approve its own). */
function levelOnePermissions(): string[] {
  const full = new Set([
    ...["goods", "goods_category", "goods_sku", "goods_setting"],
    ...["machine", "machine_channel", "machine_ad", "machine_replacement", "machine_restock"],
    ...["shop", "shop_group", "wifi"],
    ...["channel_plan", "charge_plan", "deposit_plan", "charge_pile_plan", "dryer_plan", "car_wash_plan", "page"],
    ...["order", "profit_record", "payment_record", "scan_record", "charge_log", "clean_record", "stock_consumption"],
    ...["delivery_order", "service_order", "operator", "operator_binding", "shop_manager", "agent", "plugin_setting"],
    "profit_setting",
  ]);
  const readOnly = new Set([
    "machine_model",
    "machine_spec",
    "machine_protocol",
    "application",
    "admin_group",
    "withdrawal",
    "system_setting",
  ]);
  return grantablePermissions().filter((key) => {
    const [entity, op] = key.split(".");
    // role.all: the add-agent form picks a role; the server lets an agent grant only what it holds.
    // withdrawal.apply: an agent withdraws its own earnings (an admin reviews them).
    return (
      full.has(entity) || (readOnly.has(entity) && READ_OPS.has(op)) || key === "role.all" || key === "withdrawal.apply"
    );
  });
}

/** Level-2 agents: manage their goods, outlets and devices; read the rest of their business. */
function levelTwoPermissions(): string[] {
  const full = new Set([
    "goods",
    "goods_category",
    "goods_sku",
    "shop",
    "shop_group",
    "wifi",
    "machine",
    "machine_channel",
    "machine_ad",
    "machine_restock",
    "shop_manager",
  ]);
  const readOnly = new Set([
    ...[
      "order",
      "profit_record",
      "payment_record",
      "withdrawal",
      "scan_record",
      "charge_log",
      "clean_record",
      "stock_consumption",
    ],
    ...[
      "service_order",
      "delivery_order",
      "machine_replacement",
      "operator",
      "operator_binding",
      "agent",
      "goods_setting",
    ],
    ...["channel_plan", "charge_plan", "deposit_plan", "charge_pile_plan", "dryer_plan", "car_wash_plan", "page"],
    ...["machine_model", "machine_spec", "machine_protocol", "application"],
  ]);
  return grantablePermissions().filter((key) => {
    const [entity, op] = key.split(".");
    return full.has(entity) || (readOnly.has(entity) && READ_OPS.has(op)) || key === "withdrawal.apply";
  });
}

export async function seedRoles(seed: Seed): Promise<Roles> {
  const { tx, ago, log } = seed;
  const roleIds = await insertMany(tx, "role", [
    {
      name: "Platform admin",
      level: 1,
      sort: 10,
      permissions: grantablePermissions(),
      description: "Runs the platform: every permission.",
      created_at: ago(400),
    },
    {
      name: "Level-1 agent",
      level: 2,
      sort: 20,
      permissions: levelOnePermissions(),
      description: "City-level reseller: devices, goods, outlets, plans, orders and its own sub-agents.",
      created_at: ago(400),
    },
    {
      name: "Level-2 agent",
      level: 3,
      sort: 30,
      permissions: levelTwoPermissions(),
      description: "District partner: manages its goods, outlets and devices, reads the rest.",
      created_at: ago(400),
    },
  ]);
  const adminGroupIds = await insertMany(
    tx,
    "admin_group",
    ADMIN_GROUPS.map((g) => ({ ...g, created_at: ago(390) })),
  );
  log(`roles 3, admin groups ${adminGroupIds.length}`);
  return { roleOf: (level) => roleIds[level], adminGroupIds };
}

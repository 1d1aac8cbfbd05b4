// The demo seed (DESIGN.md section 6): a business that looks real. A three-level agent tree with the
// demo accounts, outlets at real places, a few hundred devices of every kind with lanes and stock,
// goods with variants, plans, pages, 90 days of orders and the money trail behind them (profit,
// payments, withdrawals). Deterministic: one seeded PRNG for the reference data, and a hash of the row
// number for each order (so the bench can scale the same generator to millions of orders inside
// PostgreSQL with INSERT ... SELECT FROM generate_series). Only the anchor, "now", moves.
//
// Invariants the server's security relies on: the root agent has pid NULL and agent_path '/<id>/';
// every other agent's path is its superior's path + '<id>/' and its agent_id is its own id; every
// scoped row carries its owner's agent_id and agent_path; relations of a scoped row point at rows its
// owner can see (its own subtree), so the console can edit what the seed made.
import type { Db, Queryable } from "../db/db.ts";
import { q } from "../core/sql.ts";
import { rebuildRollups, setRollupTriggers } from "../db/rollups.ts";
import { runTransition } from "../entities/engine.ts";
import { hashPassword } from "../core/passwords.ts";
import { modelOf, storedModels } from "../model/model.ts";
import type { Ctx } from "../entities/context.ts";
import { money as moneyArea } from "../domain/money/index.ts";
import { recordDeliveries, reviewDeliveries } from "../domain/money/deliveries.ts";
import { post as postLedger } from "../domain/money/ledger.ts";
import { recordPayments, recordRefunds } from "../domain/money/orders.ts";
import { requestWithdrawal } from "../domain/money/withdrawals.ts";
import { adoptInstallation, installLicence } from "../domain/licence/index.ts";

// The demo's licence: the secret key the "vendor" gave with it, the installation id the demo seed gives its
// database, and a serial number the vendor signed (its private key, never in this repository) for that
// installation and key, until 2036-12-31. Any other database makes an id of its own (random), which this
// public serial number does not license.
export const DEMO_SECRET_KEY = "demo-secret-key-mekong-2026";
export const DEMO_INSTALLATION = "demo-mekong-smart-retail";
export const DEMO_SERIAL =
  "VMS2.eyJsaWNlbnNlZSI6Ik1la29uZyBTbWFydCBSZXRhaWwiLCJ2YWxpZF91bnRpbCI6IjIwMzYtMTItMzFUMjM6NTk6NTkuMDAwWiIsImluc3RhbGxhdGlvbiI6ImRlbW8tbWVrb25nLXNtYXJ0LXJldGFpbCIsImtleV9zaGEyNTYiOiJiODAyNTE4YTE5YzNmOTlmY2VjYjIwMmU5MWY5OWVmNzFjMzljYTE4MzlhOTUyNGVhOWIxMTgwNzI2MjUxNDQwIn0.wmQev4AUCfhQ5I2mTfJ0KDevGT4HghoO8snc7CtuTikTBJOv83epY0ndTRPRAyK9DuaAit73oMGaJXxnXDDQAQ";
import { entitySchemas, permissionKeys } from "../../src/generated/schemas.ts";
import {
  ADMIN_GROUPS,
  AGENTS,
  CATEGORIES,
  CUSTOMER_NAMES,
  GOODS,
  KIND_PREFIX,
  KINDS,
  MACHINE_MODELS,
  OPERATOR_NAMES,
  PROTOCOLS,
  REGION_UTC_OFFSET_HOURS,
  SERVICE_PROBLEMS,
  SHOP_GROUPS,
  SHOPS,
  type AgentSpec,
  type GoodsSpec,
  type Kind,
  type ModelSpec,
} from "./data.ts";

export interface SeedOptions {
  /** Orders over the last 90 days (default 20,000; the bench uses 1,000,000). */
  orders?: number;
  log?: (line: string) => void;
}

export interface SeedSummary {
  /** Rows per table after seeding. */
  counts: Record<string, number>;
  orders: number;
  elapsedMs: number;
}

type Row = Record<string, unknown>;

const DAY = 86_400_000;
const ORDER_DAYS = 90;
const ORDER_BATCH = 100_000;
/** From this many orders on, the order table's indexes are built after the load instead of during it. */
const BULK_INDEX_THRESHOLD = 200_000;
const PAID_LIKE = ["paid", "refund_requested", "refund_success", "partial_refund"];

// ---------------------------------------------------------------- deterministic randomness

function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    chance: (p: number): boolean => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      let r = next() * items.reduce((s, [, w]) => s + w, 0);
      for (const [item, w] of items) if ((r -= w) < 0) return item;
      return items[items.length - 1][0];
    },
    digits: (n: number): string => Array.from({ length: n }, () => String(int(0, 9))).join(""),
    hex: (n: number): string => Array.from({ length: n }, () => "0123456789ABCDEF"[int(0, 15)]).join(""),
    /** k distinct items, in a stable shuffled order. */
    sample: <T>(items: readonly T[], k: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, Math.min(k, copy.length));
    },
  };
}
type Rng = ReturnType<typeof prng>;

/** A mobile number in the agent's region: 0 Cambodia, 1 Thailand, otherwise China. */
function mobileIn(region: number, rng: Rng): string {
  if (region === 0) return `+855 ${rng.int(10, 99)} ${rng.digits(3)} ${rng.digits(3)}`;
  if (region === 1) return `+66 ${rng.int(80, 99)} ${rng.digits(3)} ${rng.digits(4)}`;
  return `+86 1${rng.int(30, 89)} ${rng.digits(4)} ${rng.digits(4)}`;
}

/** Expands weights into a lookup table of `size` entries: table[random index] samples the weights. */
function lookupTable(weights: number[], size: number): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const table: number[] = [];
  let acc = 0;
  weights.forEach((w, i) => {
    acc += w;
    const upto = Math.round((acc / total) * size);
    while (table.length < upto) table.push(i);
  });
  while (table.length < size) table.push(weights.length - 1);
  return table;
}

// ---------------------------------------------------------------- inserting

const sqlValue = (v: unknown): unknown =>
  v instanceof Date ? v.toISOString() : v !== null && typeof v === "object" ? JSON.stringify(v) : v;

/** Inserts rows (missing keys take the column default), chunked; returns the new ids in row order. */
async function insertMany(tx: Queryable, table: string, rows: Row[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += perChunk) {
    const params: unknown[] = [];
    const tuples = rows.slice(i, i + perChunk).map((row) => {
      const cells = columns.map((c) => {
        if (row[c] === undefined) return "default";
        params.push(sqlValue(row[c]));
        return `$${params.length}`;
      });
      return `(${cells.join(", ")})`;
    });
    const { rows: out } = await tx.query<{ id: number }>(
      `insert into ${q(table)} (${columns.map(q).join(", ")}) values ${tuples.join(", ")} returning id`,
      params,
    );
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

async function insertOne(tx: Queryable, table: string, row: Row): Promise<number> {
  return (await insertMany(tx, table, [row]))[0];
}

// ---------------------------------------------------------------- roles

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
    ...["delivery_order", "service_order", "operator", "operator_binding", "agent", "plugin_setting"],
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

// ---------------------------------------------------------------- the seed

/** The platform admin's context inside the seed's transaction, with the money area's side effects. */
function seedContext(tx: Queryable, admin: AgentRow): Ctx & { tx: Queryable } {
  return {
    db: undefined as never, // every call below uses the transaction
    tx,
    lng: "en",
    principal: {
      kind: "agent",
      id: admin.id,
      agentId: admin.id,
      agentPath: admin.path,
      isAdmin: true,
      permissions: new Set(),
      name: "admin",
      account: "admin",
    },
    domain: { hooks: new Map(), effects: new Map(Object.entries(moneyArea.effects ?? {})) },
  };
}

interface AgentRow {
  spec: AgentSpec;
  id: number;
  path: string;
  children: AgentRow[];
  parent?: AgentRow;
}

interface MachineRow {
  id: number;
  idx: number;
  kind: Kind;
  agent: AgentRow;
  shopId: number;
  macName: string;
  weight: number;
  /** What an order can buy: lane, price and the goods' cost, or a package fee. */
  items: { channel: number; price: number; cost?: number; minutes?: number; goods?: number }[];
  planId?: number;
  network: string;
  active: boolean;
}

interface Plans {
  channel: Map<
    string,
    { id: number; channels: { channel_number: number; goods_id: number; count: number; price: number }[] }
  >;
  charge?: { id: number; packages: { minutes: number; fee: number }[] };
  pile?: { id: number; electricity: number; service: number; maxHours: number };
  dryer: { id: number; packages: { minutes: number; fee: number }[] }[];
  carWash?: { id: number; packages: { minutes: number; fee: number }[] };
}

/** Epoch seconds of 00:00 UTC on today's date in the business's home time zone (UTC+7). */
function localDayStart(now: Date): number {
  const local = new Date(now.getTime() + 7 * 3600_000);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) / 1000;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const orderCount = Math.max(0, Math.floor(options.orders ?? 20_000));

  const existing = await db.query<{ n: number }>(`select count(*)::int as n from ${q("agent")}`);
  if (Number(existing.rows[0].n) > 0) {
    throw new Error("The database is not empty: it already has agents. The demo seed runs only on an empty database.");
  }

  // Hashing is slow by design: once per distinct password, outside the transaction.
  log("hashing the demo passwords");
  const [adminHash, demoHash] = [await hashPassword("admin123"), await hashPassword("demo123")];

  const now = new Date();
  const nowMs = now.getTime();
  const ago = (days: number, rng?: Rng): Date =>
    new Date(nowMs - days * DAY - (rng ? rng.int(0, DAY / 1000 - 1) * 1000 : 0));
  const dateOnly = (d: Date) => d.toISOString().slice(0, 10);

  await db.transaction(async (tx) => {
    const rng = prng(20261121);
    // Loaded in bulk: the statistics roll-ups are computed once at the end, not row by row.
    await setRollupTriggers(tx, false);

    // ---------------------------------------------------------------- roles, groups, agents
    const [adminRoleId, l1RoleId, l2RoleId] = await insertMany(tx, "role", [
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
    const roleOf = (level: number) => [adminRoleId, l1RoleId, l2RoleId][level];
    const groupIds = await insertMany(
      tx,
      "admin_group",
      ADMIN_GROUPS.map((g) => ({ ...g, created_at: ago(390) })),
    );
    log(`roles 3, admin groups ${groupIds.length}`);

    const agents = new Map<string, AgentRow>();
    for (const spec of AGENTS) {
      const parent = spec.parent ? agents.get(spec.parent)! : undefined;
      const id = await insertOne(tx, "agent", {
        nickname: spec.nickname,
        account: spec.account,
        password: spec.account === "admin" ? adminHash : demoHash,
        phone: spec.phone,
        role_id: roleOf(spec.level),
        parent_role_id: roleOf(Math.max(0, spec.level - 1)),
        pid: parent?.id ?? null,
        cate_id: spec.group === undefined ? undefined : groupIds[spec.group],
        withdrawable: 0,
        frozen: 0,
        total_revenue: 0,
        description: spec.description,
        created_at: ago(380 - spec.level * 60, rng),
      });
      const path = `${parent?.path ?? "/"}${id}/`;
      await tx.query(`update ${q("agent")} set agent_id = $1, agent_path = $2, updated_at = created_at where id = $1`, [
        id,
        path,
      ]);
      const row: AgentRow = { spec, id, path, children: [], parent };
      parent?.children.push(row);
      agents.set(spec.key, row);
    }
    const root = agents.get("admin")!;
    const fieldAgents = [...agents.values()].filter((a) => a.spec.level > 0);
    const levelOne = fieldAgents.filter((a) => a.spec.level === 1);
    const owner = (a: AgentRow) => ({ agent_id: a.id, agent_path: a.path });
    log(`agents ${agents.size} (3 levels)`);

    // ---------------------------------------------------------------- hardware, applications, plugins
    const protocolIds = new Map<string, number>();
    (
      await insertMany(
        tx,
        "machine_protocol",
        PROTOCOLS.map((p) => ({ ...p, created_at: ago(400) })),
      )
    ).forEach((id, i) => protocolIds.set(PROTOCOLS[i].code, id));
    const specNames = [...new Set(MACHINE_MODELS.map((m) => m.spec))];
    const specIds = new Map<string, number>();
    (
      await insertMany(
        tx,
        "machine_spec",
        specNames.map((name) => ({ name, created_at: ago(400) })),
      )
    ).forEach((id, i) => specIds.set(specNames[i], id));
    const modelIds = new Map<ModelSpec, number>();
    (
      await insertMany(
        tx,
        "machine_model",
        MACHINE_MODELS.map((m) => ({
          name: m.name,
          channel_count: m.channels,
          channel_capacity: m.capacity,
          created_at: ago(400),
        })),
      )
    ).forEach((id, i) => modelIds.set(MACHINE_MODELS[i], id));

    const appIds = await insertMany(tx, "application", [
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
    ]);
    const appOfKind: Record<Kind, number> = {
      vending: appIds[0],
      charging_cable: appIds[1],
      charging_pile: appIds[1],
      dryer: appIds[2],
      car_wash: appIds[2],
    };
    await insertMany(tx, "plugin", [
      {
        name: "Profit sharing",
        code: "profit_share",
        status: 1,
        sort: 1,
        description:
          "Shares part of each order with the agents above the page owner, within daily and per-order limits.",
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
    ]);

    // ---------------------------------------------------------------- outlets
    const shopsOf = new Map<string, { id: number; index: number }[]>();
    for (const agent of fieldAgents) {
      const specs = SHOPS.filter((s) => s.agent === agent.spec.key);
      const used = [...new Set(specs.map((s) => s.group))].sort();
      const groupId = new Map<number, number>();
      (
        await insertMany(
          tx,
          "shop_group",
          used.map((g, i) => ({
            name: SHOP_GROUPS[g],
            sort: (i + 1) * 10,
            ...owner(agent),
            created_at: ago(360, rng),
          })),
        )
      ).forEach((id, i) => groupId.set(used[i], id));
      const rows = specs.map((s) => {
        const discount = rng.chance(0.3);
        return {
          name: s.name,
          image: `/uploads/demo/shop/${slug(s.name)}.jpg`,
          phone: s.phone,
          cate_id: groupId.get(s.group),
          province: s.province,
          city: s.city,
          district: s.district,
          address: s.address,
          longitude: s.lng,
          latitude: s.lat,
          ...owner(agent),
          open_mall: rng.chance(0.6) ? 1 : 0,
          is_discount: discount ? 1 : 0,
          discount: discount ? rng.pick([0.8, 0.85, 0.9, 0.95]) : undefined,
          meal_appid: rng.chance(0.3) ? `wx${rng.hex(16).toLowerCase()}` : undefined,
          meal_url: rng.chance(0.3) ? `pages/meal/index?shop=${slug(s.name)}` : undefined,
          short_video_url: rng.chance(0.2) ? `https://v.example.com/${slug(s.name)}` : undefined,
          created_at: ago(rng.int(150, 350), rng),
        };
      });
      const ids = await insertMany(tx, "shop", rows);
      shopsOf.set(
        agent.spec.key,
        ids.map((id, index) => ({ id, index })),
      );
    }
    log(`outlets ${SHOPS.length} in ${new Set(SHOPS.map((s) => s.city)).size} cities`);

    // ---------------------------------------------------------------- goods catalogues
    // Goods are scoped: an agent sees only its own subtree's, so every agent that stocks machines has
    // its catalogue (synced down from its superior), and its lanes and plans use it.
    interface CatalogItem {
      id: number;
      spec: GoodsSpec;
      price: number;
      downPrice: number;
      /** What the goods cost the agent (its superior's wholesale price, or the buying price). */
      cost: number;
    }
    const catalogOf = new Map<string, CatalogItem[]>();
    const downPrice = (g: GoodsSpec) => Math.round((g.cost + (g.price - g.cost) * 0.4) / 10) * 10;
    let goodsCount = 0;
    const skuRows: Row[] = [];
    for (const agent of [root, ...fieldAgents]) {
      const catIds = new Map<string, number>();
      for (const level of [false, true]) {
        const cats = CATEGORIES.filter((c) => Boolean(c.parent) === level);
        const ids = await insertMany(
          tx,
          "goods_category",
          cats.map((c) => ({
            name: c.name,
            pic: `/uploads/demo/goods-category/${c.key}.jpg`,
            pid: c.parent ? catIds.get(c.parent) : undefined,
            sort: c.sort,
            ...owner(agent),
            created_at: ago(340, rng),
          })),
        );
        ids.forEach((id, i) => catIds.set(cats[i].key, id));
      }
      const parentCatalog = agent.parent ? catalogOf.get(agent.parent.spec.key) : undefined;
      const goods = agent.spec.level === 0 ? GOODS : GOODS.filter((g) => g.spec || g.noLane || rng.chance(0.75));
      const rows = goods.map((g) => {
        const fromParent = parentCatalog?.find((c) => c.spec === g);
        const cost = agent.spec.level === 2 && fromParent ? fromParent.downPrice : g.cost;
        const s = slug(g.title);
        return {
          title: g.title,
          cate_id: catIds.get(g.cat),
          pic_url: `/uploads/demo/goods/${s}.jpg`,
          detail_url: [`/uploads/demo/goods/${s}-detail-1.jpg`, `/uploads/demo/goods/${s}-detail-2.jpg`],
          carousel_url: [`/uploads/demo/goods/${s}-1.jpg`, `/uploads/demo/goods/${s}-2.jpg`],
          unit_price: g.price,
          cost_price: cost,
          down_price: Math.max(cost, downPrice(g)),
          stock: rng.int(20, 400),
          stock_warning: rng.pick([5, 10, 20]),
          open_spec: g.spec ? 1 : 0,
          spec_name: g.spec?.name,
          spec_attributes: g.spec ? [{ name: g.spec.name, values: g.spec.values.map(([v]) => v) }] : undefined,
          spec_price: g.spec?.values[0][1],
          spec_pic: g.spec ? `/uploads/demo/goods/${s}-spec.jpg` : undefined,
          desc_spec_price: g.spec
            ? g.spec.values.map(([v, p]) => `${v}: ${(p / 100).toFixed(2)}`).join("; ")
            : undefined,
          description: g.description,
          open_sync_subor: agent.children.length ? 1 : 0,
          sync_user: agent.children.length ? agent.children.map((c) => c.id) : undefined,
          ...owner(agent),
          created_at: ago(rng.int(120, 330), rng),
        };
      });
      const ids = await insertMany(tx, "goods", rows);
      goodsCount += ids.length;
      const catalog = ids.map((id, i) => ({
        id,
        spec: goods[i],
        price: goods[i].price,
        downPrice: rows[i].down_price,
        cost: rows[i].cost_price,
      }));
      catalogOf.set(agent.spec.key, catalog);
      for (const item of catalog) {
        for (const [value, price] of item.spec.spec?.values ?? []) {
          skuRows.push({
            goods_id: item.id,
            specs: [{ name: item.spec.spec!.name, value }],
            price,
            image: `/uploads/demo/goods/${slug(item.spec.title)}-${slug(value)}.jpg`,
            stock: rng.int(0, 120),
            status: rng.chance(0.9) ? 1 : 0,
            ...owner(agent),
          });
        }
      }
    }
    await insertMany(tx, "goods_sku", skuRows);
    log(`goods ${goodsCount} in ${agents.size} catalogues (${GOODS.length} products), variants ${skuRows.length}`);

    // ---------------------------------------------------------------- plans
    const plansOf = new Map<string, Plans>();
    for (const agent of fieldAgents) {
      const kinds = agent.spec.machines;
      const city = SHOPS.find((s) => s.agent === agent.spec.key)!.city;
      const plans: Plans = { channel: new Map(), dryer: [] };
      if (kinds.vending) {
        const laneGoods = catalogOf.get(agent.spec.key)!.filter((c) => !c.spec.noLane);
        for (const model of MACHINE_MODELS.filter((m) => m.kind === "vending")) {
          const picked = rng.sample(laneGoods, model.channels);
          const channels = Array.from({ length: model.channels }, (_, i) => {
            const item = picked[i % picked.length];
            return { channel_number: i + 1, goods_id: item.id, count: model.capacity, price: item.price };
          });
          const id = await insertOne(tx, "channel_plan", {
            name: `${city} ${model.name.split(" ")[0]} layout`,
            model_id: modelIds.get(model),
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
      if (kinds.charging_cable) {
        const depositId = await insertOne(tx, "deposit_plan", {
          name: `Cable deposit ${city}`,
          deposit: rng.pick([2000, 3000, 5000]),
          refund_mode: rng.pick(["original", "balance"]),
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
        plans.charge = { id, packages };
      }
      if (kinds.charging_pile) {
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
        plans.pile = { id, ...pile };
      }
      if (kinds.dryer) {
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
            description:
              mode === "dry_disinfect" ? "Drying with UV disinfection." : "Gentle warm-air care for garments.",
            sort: plans.dryer.length + 1,
            ...owner(agent),
            created_at: ago(rng.int(100, 300), rng),
          });
          plans.dryer.push({ id, packages });
        }
      }
      if (kinds.car_wash) {
        const packages = [
          { minutes: 10, fee: 2000 },
          { minutes: 20, fee: 3500 },
          { minutes: 30, fee: 5000 },
        ];
        const id = await insertOne(tx, "car_wash_plan", {
          name: `Self-service bay, ${city}`,
          mode: rng.pick(["ordinary", "fine", "coating", "luxurious"]),
          packages,
          description: "Foam, rinse and dry.",
          sort: 1,
          ...owner(agent),
          created_at: ago(rng.int(100, 300), rng),
        });
        plans.carWash = { id, packages };
      }
      plansOf.set(agent.spec.key, plans);
    }
    log("plans: channel, charge, deposit, charging-pile, dryer, car-wash");

    // ---------------------------------------------------------------- machines and lanes
    const machines: MachineRow[] = [];
    const serial = new Map<string, number>();
    const machineRows: Row[] = [];
    const laneRows: Row[][] = [];
    for (const agent of fieldAgents) {
      const plans = plansOf.get(agent.spec.key)!;
      const shops = shopsOf.get(agent.spec.key)!;
      const catalog = catalogOf.get(agent.spec.key)!;
      for (const kind of KINDS) {
        for (let n = 0; n < (agent.spec.machines[kind] ?? 0); n++) {
          const model =
            kind === "vending"
              ? rng.weighted(
                  MACHINE_MODELS.filter((m) => m.kind === "vending").map((m, i) => [m, [4, 4, 2][i]] as const),
                )
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
          const shop = shops[rng.weighted(shops.map((s, i) => [i, i === 0 ? 3 : 2] as const))];
          const idx = machines.length;
          const items: MachineRow["items"] = [];
          let planColumns: Row;
          const lanes: Row[] = [];
          if (kind === "vending") {
            const plan = plans.channel.get(model.name)!;
            planColumns = { channel_plan_id: plan.id };
            const fill = !active
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
          } else if (kind === "charging_cable") {
            planColumns = { charge_plan_id: plans.charge!.id };
            for (const p of plans.charge!.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
          } else if (kind === "charging_pile") {
            planColumns = { charge_pile_plan_id: plans.pile!.id };
            for (const fee of [2000, 3000, 5000, 8000]) items.push({ channel: 0, price: fee });
          } else if (kind === "dryer") {
            const plan = rng.pick(plans.dryer);
            planColumns = { dry_plan_id: plan.id };
            for (const p of plan.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
          } else {
            planColumns = { car_wash_plan_id: plans.carWash!.id };
            for (const p of plans.carWash!.packages) items.push({ channel: 0, price: p.fee, minutes: p.minutes });
          }

          const popularity = 0.3 + rng.next() * rng.next() * 3;
          const kindWeight: Record<Kind, number> = {
            vending: 3,
            charging_cable: 1.6,
            charging_pile: 0.8,
            dryer: 0.7,
            car_wash: 0.6,
          };
          machines.push({
            id: 0,
            idx,
            kind,
            agent,
            shopId: shop.id,
            macName,
            weight: active ? kindWeight[kind] * popularity : 0,
            items,
            planId: Object.values(planColumns)[0] as number,
            network,
            active,
          });
          laneRows.push(lanes);
          machineRows.push({
            mac_name: macName,
            mac_id: macId,
            kind,
            protocol_id: protocolIds.get(model.protocol),
            model_id: modelIds.get(model),
            spec_id: specIds.get(model.spec),
            iccid:
              network === "4g" || (network === "android" && rng.chance(0.5)) ? `898550${rng.digits(13)}` : undefined,
            network_type: network,
            // What the device last said: online ones just now, the others some hours to days ago; inactive
            // ones never reported. Their status is worked out from this when read (server/db/live.ts).
            last_report_at: !active
              ? undefined
              : online
                ? new Date(nowMs - rng.int(5, 240) * 1000).toISOString()
                : ago(rng.int(1, 6), rng),
            battery_level: battery,
            mode: rng.weighted([
              ["normal", 85],
              ["recharge", 5],
              ["4g", 5],
              ["scan", 5],
            ]),
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
            expiry_date: dateOnly(new Date(nowMs + expiresInDays * DAY)),
            remark: rng.chance(0.4)
              ? `${SHOPS.filter((s) => s.agent === agent.spec.key)[shop.index].name}, ${rng.pick(["next to the lifts", "opposite the cashier", "by the main door", "near the restrooms", "under the stairs"])}.`
              : undefined,
            created_at: active ? ago(rng.int(95, 600), rng) : ago(rng.int(1, 10), rng),
          });
        }
      }
    }
    const machineIds = await insertMany(tx, "machine", machineRows);
    machineIds.forEach((id, i) => (machines[i].id = id));
    // The devices that report while the server runs on the demo data (server/seed/devices.ts).
    await tx.query(
      `insert into sys_state (key, value) values ('demo:reporting', $1)
       on conflict (key) do update set value = excluded.value`,
      [JSON.stringify(machineIds.filter((_, i) => typeof machineRows[i].last_report_at === "string"))],
    );
    const lanes: Row[] = [];
    machines.forEach((m, i) => {
      for (const lane of laneRows[i])
        lanes.push({ machine_id: m.id, ...lane, ...owner(m.agent), created_at: machineRows[i].created_at });
    });
    await insertMany(tx, "machine_channel", lanes);
    const countKind = (k: Kind) => machines.filter((m) => m.kind === k).length;
    log(`machines ${machines.length} (${KINDS.map((k) => `${k} ${countKind(k)}`).join(", ")}), lanes ${lanes.length}`);

    // ---------------------------------------------------------------- operators and bindings
    const operatorsOf = new Map<string, number[]>();
    const bindings: Row[] = [];
    const boundMachines = new Set<number>();
    for (const agent of fieldAgents) {
      const names = OPERATOR_NAMES[agent.spec.key] ?? [];
      const rows = names.map((nickname, i) => ({
        nickname,
        account:
          agent.spec.key === "agent_a" && i === 0
            ? "operator_a"
            : `op_${agent.spec.key.replace("agent_", "")}_${i + 1}`,
        password: demoHash,
        phone: `${agent.spec.phone.split(" ")[0]} ${rng.int(10, 99)} ${rng.int(100, 999)} ${rng.int(100, 999)}`,
        refill: agent.spec.key === "agent_a" && i === 0 ? 1 : rng.chance(0.7) ? 1 : 0,
        ...owner(agent),
        remark: `${rng.pick(["Morning", "Afternoon", "Night"])} shift, ${rng.pick(["restocking and cleaning", "restocking", "cleaning and cash checks"])}.`,
        created_at: ago(rng.int(30, 200), rng),
      }));
      const ids = await insertMany(tx, "operator", rows);
      operatorsOf.set(agent.spec.key, ids);
      const own = machines.filter((m) => m.agent === agent && m.active);
      const vending = own.filter((m) => m.kind === "vending");
      ids.forEach((operatorId, i) => {
        const isDemo = rows[i].account === "operator_a";
        const pool = isDemo ? vending : own;
        const chosen = rng.sample(
          pool.filter((m) => !boundMachines.has(m.id)),
          isDemo ? 4 : rng.int(3, 6),
        );
        for (const m of chosen) {
          boundMachines.add(m.id);
          const percent = rng.chance(0.7);
          bindings.push({
            operator_id: operatorId,
            machine_id: m.id,
            profit_type: percent ? "percent" : "fixed",
            profit_percent: percent ? rng.pick([0.05, 0.08, 0.1, 0.125, 0.15]) : undefined,
            profit_amount: percent ? undefined : rng.pick([20, 30, 50]),
            share_excess: rng.chance(0.2) ? 1 : 0,
            ...owner(agent),
          });
        }
      });
    }
    await insertMany(tx, "operator_binding", bindings);
    log(`operators ${[...operatorsOf.values()].flat().length}, bindings ${bindings.length}`);

    // ---------------------------------------------------------------- pages, content, settings
    const pageOf = new Map<string, number>(); // `${agentId}:${applicationId}`
    for (const agent of fieldAgents) {
      const plans = plansOf.get(agent.spec.key)!;
      const city = SHOPS.find((s) => s.agent === agent.spec.key)!.city;
      const layout = (goods: boolean) => ({
        modules: [
          { id: "banner-1", type: "banner", count: 3, interval: 4000 },
          { id: "notice-1", type: "notice", color: "#ff7a00" },
          {
            id: "grid-1",
            type: "grid",
            columns: 2,
            style: "card",
            ratio: "15:16",
            items: [
              {
                image: "/uploads/demo/page/grid-drinks.jpg",
                link: "/pages/goods/list?cate=drinks",
                label: "Cold drinks",
              },
              { image: "/uploads/demo/page/grid-snacks.jpg", link: "/pages/goods/list?cate=snacks", label: "Snacks" },
            ],
          },
          ...(goods
            ? [{ id: "goods-1", type: "goods", columns: 2, showPrice: true }]
            : [{ id: "image-1", type: "image", image: "/uploads/demo/page/how-it-works.jpg" }]),
          { id: "spacer-1", type: "spacer", height: 24 },
        ],
      });
      const base = (name: string) => ({
        name,
        show_type: rng.pick(["logo", "long_logo", "banner"]),
        banner_count: 3,
        logo: `/uploads/demo/page/${agent.spec.key}-logo.png`,
        long_logo: `/uploads/demo/page/${agent.spec.key}-logo-wide.png`,
        bg_image: `/uploads/demo/page/${agent.spec.key}-top-bg.jpg`,
        is_vip: rng.chance(0.2) ? 1 : 0,
        is_open: 1,
        profit_model: rng.pick(["profit", "price"]),
        profit_type: "percent",
        max_profit: rng.pick([20000, 50000, 100000]),
        share_excess: 0,
        ...owner(agent),
        created_at: ago(rng.int(60, 250), rng),
      });
      const first = plans.channel.values().next().value;
      if (first) {
        const id = await insertOne(tx, "page", {
          ...base(`${city} snacks & drinks`),
          channel_plan_id: first.id,
          application_id: appIds[0],
          goods_columns: 2,
          sort: 10,
          layout: layout(true),
        });
        pageOf.set(`${agent.id}:${appIds[0]}`, id);
      }
      if (plans.charge) {
        const id = await insertOne(tx, "page", {
          ...base(`${city} charging`),
          charge_plan_id: plans.charge.id,
          application_id: appIds[1],
          goods_columns: 1,
          sort: 20,
          layout: layout(false),
        });
        pageOf.set(`${agent.id}:${appIds[1]}`, id);
      }
    }

    await insertMany(tx, "banner", [
      {
        title: "Songkran iced drinks week",
        picture: "/uploads/demo/banner/songkran-drinks.jpg",
        skip_type: "page",
        url: "/pages/goods/list?cate_id=2",
        status: 1,
        sort: 1,
        created_at: ago(40),
      },
      {
        title: "Charge for free: watch a 15-second ad",
        picture: "/uploads/demo/banner/free-charge.jpg",
        skip_type: "page",
        url: "/pages/charge/index",
        status: 1,
        sort: 2,
        created_at: ago(35),
      },
      {
        title: "New: EV wallboxes at Terminal 21",
        picture: "/uploads/demo/banner/ev-terminal21.jpg",
        skip_type: "url",
        url: "https://www.example.com/news/ev-terminal-21",
        status: 1,
        sort: 3,
        created_at: ago(20),
      },
      {
        title: "Order lunch from the mall kitchen",
        picture: "/uploads/demo/banner/meal-order.jpg",
        skip_type: "mini_program",
        appid: "wx8f3a2b1c4d5e6f70",
        secret: "demo-secret-not-real",
        status: 1,
        sort: 4,
        created_at: ago(15),
      },
      {
        title: "Water Festival opening hours",
        picture: "/uploads/demo/banner/water-festival.jpg",
        skip_type: "none",
        status: 0,
        sort: 5,
        created_at: ago(80),
      },
    ]);
    await insertMany(tx, "notice", [
      {
        title: "Maintenance at Central Market, Phnom Penh",
        status: 1,
        sort: 1,
        content: "<p>The machines at Central Market will be restocked and serviced on Sunday from 06:00 to 08:00.</p>",
        created_at: ago(3),
      },
      {
        title: "Refunds now arrive within 24 hours",
        status: 1,
        sort: 2,
        content: "<p>Refunds to social-app wallets and KHQR are now processed the same day.</p>",
        created_at: ago(12),
      },
      {
        title: "New cable stations in Chiang Mai",
        status: 1,
        sort: 3,
        content: "<p>Ten new charging-cable stations are live around Nimman and the university.</p>",
        created_at: ago(25),
      },
      {
        title: "Price update for imported snacks",
        status: 0,
        sort: 4,
        content: "<p>Imported snack prices change on the 1st of next month; lanes update automatically.</p>",
        created_at: ago(50),
      },
      {
        title: "Shenzhen dormitory dryers: UV lamps replaced",
        status: 1,
        sort: 5,
        content: "<p>All dryers at Shenzhen University dormitories have new UV lamps.</p>",
        created_at: ago(8),
      },
    ]);
    await insertMany(tx, "service_entry", [
      {
        type: "equipment_issue",
        title: "Machine did not dispense",
        logo: "/uploads/demo/service/not-dispensed.png",
        status: 1,
        sort: 1,
      },
      {
        type: "equipment_issue",
        title: "Cable or charger not working",
        logo: "/uploads/demo/service/cable.png",
        status: 1,
        sort: 2,
      },
      {
        type: "order_issue",
        title: "Charged but no order",
        logo: "/uploads/demo/service/payment.png",
        status: 1,
        sort: 3,
      },
      { type: "order_issue", title: "Ask for a refund", logo: "/uploads/demo/service/refund.png", status: 1, sort: 4 },
      {
        type: "system_bug",
        title: "App or mini-program error",
        logo: "/uploads/demo/service/bug.png",
        status: 1,
        sort: 5,
      },
      { type: "other", title: "Suggestions", logo: "/uploads/demo/service/idea.png", status: 0, sort: 6 },
    ]);
    await insertMany(tx, "mini_page_url", [
      { name: "Home", path: "/pages/index/index", type: "tab_bar", remark: "Device page after scanning the code." },
      {
        name: "Order list",
        path: "/pages/order/list",
        type: "tab_bar",
        remark: "Customer's own orders, newest first.",
      },
      { name: "Me", path: "/pages/user/index", type: "tab_bar" },
      { name: "Goods list", path: "/pages/goods/list", type: "page", remark: "Takes cate_id to open one category." },
      { name: "Goods detail", path: "/pages/goods/detail", type: "page" },
      { name: "Charging", path: "/pages/charge/index", type: "page", remark: "Cable and wallbox packages." },
      { name: "Service request", path: "/pages/service/create", type: "page" },
      { name: "Recycling delivery", path: "/pages/recycle/index", type: "page" },
    ]);
    await insertOne(tx, "version", {
      version_number: "1.0.0",
      upgrade_time: ago(ORDER_DAYS + 5),
      description: "First production release of the merchant console.",
      content:
        "<ul><li>Agents, outlets, devices and lanes.</li><li>Orders, refunds and withdrawals.</li><li>Vending, charging, dryer and car-wash plans.</li></ul>",
      created_at: ago(ORDER_DAYS + 5),
    });
    // The version this system runs: an upgrade screen offers what was published after it.
    await tx.query(
      `insert into sys_state (key, value) values ('installed_version', $1) on conflict (key) do update set value = excluded.value`,
      [JSON.stringify("1.0.0")],
    );
    // The demo's licence, until 2036-12-31 (DESIGN.md section 6): this fresh database takes the demo's
    // installation id (an id once made never changes: one already there stays, and the serial is then void).
    if ((await adoptInstallation(tx, DEMO_INSTALLATION)) !== DEMO_INSTALLATION)
      log("this database already has an installation id: the demo's serial number does not license it");
    await installLicence(tx, DEMO_SECRET_KEY, DEMO_SERIAL);
    await insertOne(tx, "system_setting", {
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
    });
    for (const agent of levelOne) {
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
        application_ids: [appIds[0], appIds[1]],
        ...owner(agent),
      });
    }

    // Ads on screen machines, module replacements, guest Wi-Fi at the outlets.
    const screens = machines.filter((m) => m.network === "android" && m.active);
    await insertMany(
      tx,
      "machine_ad",
      rng.sample(screens, 24).map((m, i) => {
        const type = rng.weighted([
          ["image", 5],
          ["video", 3],
          ["audio", 1],
        ] as const);
        return {
          machine_id: m.id,
          type,
          image: type !== "audio" ? `/uploads/demo/ads/promo-${(i % 6) + 1}.jpg` : undefined,
          video: type === "video" ? `/uploads/demo/ads/promo-${(i % 3) + 1}.mp4` : undefined,
          audio: type === "audio" ? "/uploads/demo/ads/jingle.mp3" : undefined,
          status: rng.chance(0.8) ? 1 : 0,
          sort: (i % 3) + 1,
          ...owner(m.agent),
          created_at: ago(rng.int(1, 60), rng),
        };
      }),
    );
    const replaced = rng.sample(
      machines.filter((m) => m.network === "4g" && m.active),
      12,
    );
    const replacementRows: Row[] = [];
    for (const m of replaced) {
      replacementRows.push({
        machine_id: m.id,
        mac_name: m.macName,
        old_mac_id: `86451205${rng.digits(7)}`,
        new_mac_id: machineRows[m.idx].mac_id,
        reason: rng.pick([
          "4G module burnt out after a power surge.",
          "Main board replaced after water damage.",
          "Modem firmware could not be updated; module swapped.",
          "Antenna connector broken during cleaning.",
        ]),
        operator_name: rng.pick(Object.values(OPERATOR_NAMES).flat()),
        replaced_at: ago(rng.int(5, 200), rng),
        ...owner(m.agent),
      });
    }
    await insertMany(tx, "machine_replacement", replacementRows);
    const wifiRows: Row[] = [];
    for (const agent of fieldAgents) {
      for (const shop of shopsOf.get(agent.spec.key)!.slice(0, 2)) {
        const name = slug(SHOPS.filter((s) => s.agent === agent.spec.key)[shop.index].name).slice(0, 18);
        for (let i = 1; i <= 2; i++) {
          wifiRows.push({
            shop_id: shop.id,
            ssid: `${name}-guest-${String(i).padStart(2, "0")}`,
            password: `guest${rng.digits(4)}`,
            status: rng.chance(0.85) ? 1 : 0,
            ...owner(agent),
          });
        }
      }
    }
    await insertMany(tx, "wifi", wifiRows);
    log("pages, banners, notices, service entries, mini page urls, version, settings, ads, replacements, wifi");

    // ---------------------------------------------------------------- orders
    await insertOrders(tx, {
      machines,
      count: orderCount,
      now,
      appOfKind,
      pageOf: (m) => pageOf.get(`${m.agent.id}:${appOfKind[m.kind]}`),
      log,
    });

    const localMidnight = new Date(localDayStart(now) * 1000 - 7 * 3600_000);

    // ---------------------------------------------------------------- the money trail
    // Everything here goes through the server's own money functions (server/domain/money): the same
    // ledger, profit shares, refunds and withdrawal transitions, so the demo shows no figure the server
    // would not. Day by day, oldest first, so each entry's balance after it is the one of its time.
    const byId = new Map(machines.map((m) => [m.id, m]));
    const step = Math.max(1, Math.floor(orderCount / 1200));
    const money = seedContext(tx, agents.get("admin")!);

    // Profit settings: a level-1 agent earns from its sub-agents' pages, a share of each order.
    const settingRows: Row[] = [];
    for (const agent of fieldAgents.filter((a) => a.spec.level === 2)) {
      for (const [key, pageId] of pageOf) {
        if (!key.startsWith(`${agent.id}:`)) continue;
        const fixed = rng.chance(0.25);
        settingRows.push({
          agent_id: agent.parent!.id,
          agent_path: agent.parent!.path,
          page_id: pageId,
          profit_type: fixed ? "fixed" : "percent",
          percent: fixed ? undefined : rng.pick([0.05, 0.08, 0.1]),
          amount: fixed ? rng.pick([20, 30, 50]) : undefined,
        });
      }
    }
    await insertMany(tx, "profit_setting", settingRows);

    // Withdrawals: each field agent asks on a few days for part of its balance; older requests are
    // settled (some refused), a recent one approved or paid, yesterday's pending.
    interface WithdrawalPlan {
      agent: AgentRow;
      day: number;
      slot: number;
    }
    const plans: WithdrawalPlan[] = fieldAgents.flatMap((agent, ai) =>
      [26 - (ai % 3), 19 - (ai % 3), 12 - (ai % 3), 5 - (ai % 3), 1].map((day, slot) => ({ agent, day, slot })),
    );
    interface Resolution {
      at: Date;
      id: number;
      actions: ("approve" | "confirm" | "refuse")[];
    }
    const resolutions: Resolution[] = [];
    let withdrawals = 0;
    const dayStart = (day: number) => new Date(localMidnight.getTime() - day * DAY);
    for (let day = ORDER_DAYS; day >= 0; day--) {
      const from = dayStart(day);
      const to = day === 0 ? new Date(nowMs + 1) : dayStart(day - 1);
      const { rows: paid } = await tx.query<{ id: number }>(
        `select id from ${q("order")} where pay_time >= $1 and pay_time < $2 and pay_status = any($3) order by pay_time, id`,
        [from.toISOString(), to.toISOString(), PAID_LIKE],
      );
      for (let i = 0; i < paid.length; i += 20_000)
        await recordPayments(
          tx,
          paid.slice(i, i + 20_000).map((r) => Number(r.id)),
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
      for (const plan of plans.filter((p) => p.day === day)) {
        const { rows } = await tx.query<{ withdrawable: number }>(
          `select coalesce(withdrawable, 0) as withdrawable from ${q("agent")} where id = $1`,
          [plan.agent.id],
        );
        const balance = Number(rows[0].withdrawable);
        if (balance < 1000) continue;
        const ai = fieldAgents.indexOf(plan.agent);
        const slot = plan.slot;
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
          { id: plan.agent.id, path: plan.agent.path },
          {
            amount: requested,
            legal_name: plan.agent.spec.legalName,
            payout_method: method,
            bank_name: bank ? plan.agent.spec.bank.name : undefined,
            province: bank ? plan.agent.spec.bank.province : undefined,
            city: bank ? plan.agent.spec.bank.city : undefined,
            account_number: bank
              ? `${rng.digits(4)}-${rng.digits(2)}-${rng.digits(6)}-${rng.digits(1)}`
              : method === "social_wallet"
                ? `wxid_${rng.hex(10).toLowerCase()}`
                : `${plan.agent.spec.account}@wallet.example`,
            branch: bank ? plan.agent.spec.bank.branch : undefined,
            remark: `${["Weekly", "Monthly", "Mid-month"][slot % 3]} payout`,
          },
          at,
        );
        withdrawals++;
        const actions: Resolution["actions"] =
          status === "refused"
            ? ["refuse"]
            : status === "paid"
              ? ["approve", "confirm"]
              : status === "approved"
                ? ["approve"]
                : [];
        if (actions.length)
          resolutions.push({
            at: new Date(Math.min(nowMs, at.getTime() + 20 * 3600_000)),
            id: Number(withdrawal.id),
            actions,
          });
      }
      // Reviews due by the end of the day, through the withdrawal transitions and their side effects.
      for (const r of resolutions.filter((r) => r.at < to).sort((a, b) => a.at.getTime() - b.at.getTime())) {
        for (const action of r.actions) {
          const body: Row = { id: r.id, action };
          if (action === "refuse")
            body.refuse_reason = "The account name does not match the legal name; please correct it and apply again.";
          await runTransition(money, modelOf("withdrawal"), "data-withdraw-action", body);
        }
        resolutions.splice(resolutions.indexOf(r), 1);
      }
    }
    // Invite profit: promotion bonuses of a few agents, credited like any share.
    const invites = fieldAgents.slice(0, 4).flatMap((agent, i) =>
      Array.from({ length: 6 }, (_, n) => ({
        agent,
        at: ago(2 + n * 11 + i, rng),
        amount: 100 * (1 + ((n + i) % 3)),
      })),
    );
    const inviteIds = await insertMany(
      tx,
      "profit_record",
      invites.map((v, n) => ({
        order_no: `INV${dateOnly(v.at).replaceAll("-", "")}${String(n + 1).padStart(4, "0")}`,
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
        orderNo: `INV${dateOnly(v.at).replaceAll("-", "")}${String(n + 1).padStart(4, "0")}`,
        at: v.at.toISOString(),
        remark: `Invite bonus ${inviteIds[n]}`,
      })),
    );
    const { rows: ledgerCount } = await tx.query<{ n: number }>(
      `select count(*)::int as n from ${q("payment_record")}`,
    );
    log(`profit settings ${settingRows.length}, withdrawals ${withdrawals}, ledger entries ${ledgerCount[0].n}`);

    // ---------------------------------------------------------------- logs and records around the devices
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
    const chargeRows = timed.map((o) => {
      const m = byId.get(Number(o.machine_id))!;
      const plans = plansOf.get(m.agent.spec.key)!;
      const start = new Date(o.order_time);
      let minutes: number;
      let energy: number | undefined;
      if (m.kind === "charging_pile") {
        energy = Math.round((Number(o.money) / (plans.pile!.electricity + plans.pile!.service)) * 100) / 100;
        minutes = Math.min(plans.pile!.maxHours * 60, Math.round((energy / 7) * 60));
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
    await insertMany(tx, "charge_log", chargeRows);

    const live = machines.filter((m) => m.active);
    await insertMany(
      tx,
      "scan_record",
      Array.from({ length: 240 }, () => {
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
      }).sort((a, b) => a.scanned_at.getTime() - b.scanned_at.getTime()),
    );

    const cleanRows: Row[] = [];
    for (const b of bindings) {
      const m = byId.get(b.machine_id as number)!;
      if (m.kind !== "vending") continue;
      const lanesOfMachine = plansOf.get(m.agent.spec.key)!.channel;
      const plan = [...lanesOfMachine.values()].find((p) => p.id === m.planId)!;
      for (let i = 0; i < rng.int(1, 3); i++) {
        const ch = rng.pick(plan.channels);
        const quantity = rng.int(1, 6);
        const at = ago(rng.int(1, 60), rng);
        cleanRows.push({
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
    cleanRows.sort((a, b) => (a.cleaned_at as Date).getTime() - (b.cleaned_at as Date).getTime());
    await insertMany(tx, "clean_record", cleanRows);

    // Restocks the operators made on their devices' lanes in the last weeks (the lanes' "left" is what
    // is there now; a record says what was loaded and what the lane then held).
    const { rows: boundLanes } = await tx.query<Row>(
      `select c.id, c.machine_id, c.channel_number, c.goods_id, c."left", c.count, b.operator_id, o.nickname,
              c.agent_id, c.agent_path, m.mac_name
         from ${q("operator_binding")} b join ${q("machine_channel")} c on c.machine_id = b.machine_id
         join ${q("operator")} o on o.id = b.operator_id join ${q("machine")} m on m.id = c.machine_id
        where c.goods_id is not null and c."left" > 0
        order by c.id`,
    );
    const restockRows: Row[] = boundLanes
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
          actor_kind: "operator",
          actor_id: lane.operator_id,
          actor_name: lane.nickname,
          restocked_at: at,
          agent_id: lane.agent_id,
          agent_path: lane.agent_path,
          created_at: at,
        };
      })
      .sort((a, b) => (a.restocked_at as Date).getTime() - (b.restocked_at as Date).getTime());
    await insertMany(tx, "machine_restock", restockRows);

    // Work orders and recycling deliveries.
    const serviceRows = Array.from({ length: 42 }, (_, i) => {
      const m = rng.pick(live);
      const problem = rng.pick(SERVICE_PROBLEMS);
      const age = rng.next() * 45;
      const status =
        age < 2
          ? "pending"
          : age < 6
            ? rng.pick(["pending", "processing"])
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
    await insertMany(tx, "service_order", serviceRows);

    const deliveryRows = Array.from({ length: 45 }, (_, i) => {
      const agent = rng.pick(fieldAgents);
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
      return {
        row: {
          phone: mobileIn(region, rng),
          snapshot_url: `/uploads/demo/recycle/delivery-${i + 1}.jpg`,
          weight_kg: weight,
          estimated_income: estimated,
          violation_url: violation ? `/uploads/demo/recycle/violation-${i + 1}.jpg` : undefined,
          delivery_time: at,
          status: "pending",
          ...owner(agent),
          created_at: at,
        },
        review: processed
          ? {
              at: new Date(Math.min(nowMs, at.getTime() + rng.int(1, 20) * 3600_000)).toISOString(),
              income: estimated - (deduction ?? 0),
              remark: violation
                ? "Bottles mixed with food waste; deduction applied."
                : "Clean PET bottles, weight confirmed.",
            }
          : undefined,
      };
    }).sort((a, b) => a.row.created_at.getTime() - b.row.created_at.getTime());
    // Delivered: pending income for the agents; reviewed: credited or deducted, as a reviewer would.
    const deliveryIds = await insertMany(
      tx,
      "delivery_order",
      deliveryRows.map((d) => d.row),
    );
    await recordDeliveries(tx, deliveryIds);
    for (const [i, d] of deliveryRows.entries()) {
      if (!d.review) continue;
      await reviewDeliveries(money, {
        ids: [deliveryIds[i]],
        outcome: d.review.income > 0 ? "income" : "deduction",
        actual_income: d.review.income > 0 ? d.review.income : undefined,
        remark: d.review.remark,
        at: d.review.at,
      });
    }
    log(
      `charge logs ${chargeRows.length}, scan records 240, clean records ${cleanRows.length}, service orders ${serviceRows.length}, deliveries ${deliveryRows.length}`,
    );

    // ---------------------------------------------------------------- the recycle bins
    const agentB = agents.get("agent_b")!;
    const retired = machines.filter((m) => m.agent === agentB && !m.active && !boundMachines.has(m.id)).slice(0, 2);
    const binAt = ago(4);
    if (retired.length)
      await tx.query(`update ${q("machine")} set deleted_at = $1, deleted_by = $2, shop_id = null where id = any($3)`, [
        binAt,
        agentB.id,
        retired.map((m) => m.id),
      ]);
    for (const agent of levelOne) {
      await tx.query(
        `update ${q("goods")} set deleted_at = $1, deleted_by = $2 where agent_id = $2 and title = 'Folding Umbrella'`,
        [binAt, agent.id],
      );
    }
    const agentA = agents.get("agent_a")!;
    const oldPlan = plansOf.get("agent_a")!.channel.values().next().value!;
    await insertOne(tx, "channel_plan", {
      name: "Phnom Penh 2025 layout (old)",
      model_id: (
        await tx.query<{ model_id: number }>(`select model_id from ${q("channel_plan")} where id = $1`, [oldPlan.id])
      ).rows[0].model_id,
      channels: oldPlan.channels,
      sort: 99,
      sync_subor: 0,
      remark: "Replaced by the current layout.",
      ...owner(agentA),
      created_at: ago(300),
      deleted_at: ago(30),
      deleted_by: agentA.id,
    });
    await insertOne(tx, "operator", {
      nickname: "Vuthy Sem",
      account: "op_a_former",
      password: demoHash,
      phone: "+855 12 909 101",
      refill: 0,
      ...owner(agentA),
      remark: "Left in September.",
      created_at: ago(200),
      deleted_at: ago(60),
      deleted_by: agentA.id,
    });
    log("recycle bins: retired machines, discontinued goods, an old plan, a former operator");
    await setRollupTriggers(tx, true);
    await rebuildRollups(tx);
  });

  const counts: Record<string, number> = {};
  for (const model of storedModels()) {
    counts[model.table] = Number(
      (await db.query<{ n: number }>(`select count(*)::int as n from ${q(model.table)}`)).rows[0].n,
    );
  }
  const elapsedMs = Date.now() - started;
  log(`done in ${(elapsedMs / 1000).toFixed(1)} s`);
  return { counts, orders: counts.order ?? 0, elapsedMs };
}

// ---------------------------------------------------------------- orders in bulk

/**
 * Orders are made inside the database, `ORDER_BATCH` rows per statement: row number g drives a hash
 * (hashint8extended(g, k)) for each random choice, looked up in small tables passed as arrays: which
 * machine (weighted by popularity), which lane or package, which day (a growing business, busier
 * weekends), which hour (the daily rhythm), which pay status and pay type (regional habits).
 */
async function insertOrders(
  tx: Queryable,
  input: {
    machines: MachineRow[];
    count: number;
    now: Date;
    appOfKind: Record<Kind, number>;
    /** The mini-program page a machine's orders come through. */
    pageOf: (machine: MachineRow) => number | undefined;
    log: (line: string) => void;
  },
): Promise<void> {
  const { machines, count, now, appOfKind, pageOf, log } = input;
  if (count === 0) return;
  const nowSec = Math.floor(now.getTime() / 1000);
  const todayUtcMidnight = localDayStart(now);

  const machinePick = lookupTable(
    machines.map((m) => m.weight),
    8192,
  ).map((i) => i + 1);
  const itemChannel: number[] = [];
  const itemPrice: number[] = [];
  const itemCost: number[] = [];
  const itemGoods: (number | null)[] = [];
  const itemOffset: number[] = [];
  for (const m of machines) {
    itemOffset.push(itemChannel.length);
    for (const it of m.items) {
      itemChannel.push(it.channel);
      itemPrice.push(it.price);
      itemCost.push(it.cost ?? 0);
      itemGoods.push(it.goods ?? null);
    }
  }
  // Local hours: quiet nights, a morning peak, lunch, and the evening.
  const hourWeights = [1, 0.5, 0.3, 0.2, 0.3, 0.8, 2, 4, 5, 4.5, 4, 5, 7, 6, 4.5, 4.5, 5, 6.5, 7, 6.5, 5.5, 4.5, 3, 2];
  const hourPick = lookupTable(hourWeights, 1000);
  // Day offsets back from today: the business grows ~60 % over the quarter; weekends are busier.
  const dayWeights = Array.from({ length: ORDER_DAYS }, (_, d) => {
    const weekday = new Date((todayUtcMidnight - d * 86400) * 1000).getUTCDay();
    return (1 + (0.6 * (ORDER_DAYS - 1 - d)) / (ORDER_DAYS - 1)) * (weekday === 0 || weekday === 6 ? 1.25 : 1);
  });
  const dayPick = lookupTable(dayWeights, 2000);
  // Pay types 1..9 by region: Cambodia (KHQR-style bank payment first), Thailand, China (wallets).
  const payWeights = [
    [15, 10, 10, 2, 4, 5, 4, 10, 40],
    [10, 20, 10, 2, 6, 5, 30, 15, 2],
    [55, 3, 35, 1, 1, 4, 1, 0, 0],
  ];
  const payPick = payWeights.flatMap((w) => lookupTable(w, 100).map((i) => i + 1));
  // 0 paid, 1 pending, 2 cancelled, 3 refund_requested, 4 refund_success, 5 partial_refund
  const statusPick = lookupTable([880, 30, 30, 15, 25, 20], 1000);

  const params = [
    todayUtcMidnight,
    nowSec,
    machines.map((m) => m.id),
    machines.map((m) => m.agent.id),
    machines.map((m) => m.agent.path),
    machines.map((m) => m.shopId),
    machines.map((m) => m.macName),
    machines.map((m) => appOfKind[m.kind]),
    machines.map((m) => (m.kind === "vending" ? 1 : 0)),
    machines.map((m) => m.agent.spec.region),
    machines.map((m) => REGION_UTC_OFFSET_HOURS[m.agent.spec.region] * 3600),
    machines.map((m) => m.items.length),
    itemOffset,
    machinePick,
    itemChannel,
    itemPrice,
    hourPick,
    dayPick,
    payPick,
    statusPick,
    machines.map((m) => m.kind),
    machines.map((m) => pageOf(m) ?? null),
    itemCost,
    itemGoods,
  ];
  const h = (k: number) => `(hashint8extended(g, ${k}) & 9223372036854775807)`;
  const sql = `
    insert into ${q("order")} (order_no, mac_name, machine_id, application_id, agent_id, agent_path, shop_id, order_time, pay_time, pay_type,
                               pay_status, money, refund_money, refund_request_time, refund_time, channel_number, goods_id, quantity, delivered_quantity,
                               is_shipped, is_profit, is_drop, use_status, device_kind, page_id, cost_money, created_at, updated_at)
    with m as (
      select * from unnest($5::bigint[], $6::bigint[], $7::text[], $8::bigint[], $9::text[], $10::bigint[], $11::int[], $12::int[], $13::int[], $14::int[], $15::int[], $23::text[], $24::bigint[])
        with ordinality as u(id, agent_id, agent_path, shop_id, mac_name, app_id, vend, region, tz, n_items, item_off, kind, page_id, idx)
    ), it as (
      select * from unnest($17::int[], $18::int[], $25::int[], $26::bigint[]) with ordinality as u(channel, price, cost, goods, idx)
    ), r as (
      select g,
             ($16::int[])[1 + ${h(1)} % ${machinePick.length}] as midx,
             ($20::int[])[1 + ${h(2)} % ${dayPick.length}] as dd,
             ($19::int[])[1 + ${h(3)} % 1000] as hh,
             ${h(4)} % 3600 as sec,
             ${h(5)} as h5, ${h(6)} as h6, ${h(7)} as h7, ${h(8)} as h8
        from generate_series($1::bigint, $2::bigint) g
    ), t as (
      select r.*, m.id as machine_id, m.agent_id, m.agent_path, m.shop_id, m.mac_name, m.app_id, m.vend, m.region,
             m.kind, m.page_id, it.channel, it.price, it.cost, it.goods,
             to_timestamp($3::float8 - r.dd * 86400 + r.hh * 3600 + r.sec - m.tz) as t0
        from r join m on m.idx = r.midx join it on it.idx = m.item_off + 1 + r.h5 % m.n_items
    ), s as (
      select t.*,
             case when t0 > to_timestamp($4::float8) then t0 - interval '1 day' else t0 end as ot,
             case when vend = 1 then case when h6 % 100 < 85 then 1 when h6 % 100 < 97 then 2 else 3 end else 1 end as qty,
             ($22::int[])[1 + h7 % 1000] as st0
        from t
    ), u as (
      select s.*,
             case when st0 = 1 and ot < to_timestamp($4::float8) - interval '1 day' then 2 else st0 end as st,
             price * qty as amount
        from s
    ), v as (
      select u.*,
             (array['paid','pending','cancelled','refund_requested','refund_success','partial_refund'])[st + 1] as status,
             st in (0, 3, 4, 5) as paid,
             vend = 1 and st in (0, 3, 4, 5) and (h6 / 100) % 1000 < 6 as dropped,
             least(ot + (3 + h8 % 50) * interval '1 second', to_timestamp($4::float8)) as pt,
             case when st in (3, 4, 5) then least(ot + (600 + h8 % 172800) * interval '1 second', to_timestamp($4::float8)) end as rq
        from u
    ), w as (
      select v.*,
             case when st in (4, 5) then least(rq + (3600 + (h7 / 1000) % 86400) * interval '1 second', to_timestamp($4::float8)) end as rt,
             case when st = 4 then amount when st = 5 then greatest(1, amount * (20 + (h8 / 1000) % 60) / 100) else 0 end as refund
        from v
    )
    select to_char((ot at time zone 'UTC') + interval '7 hours', 'YYYYMMDDHH24MISS') || lpad((g % 10000000)::text, 7, '0'),
           mac_name, machine_id, app_id, agent_id, agent_path, shop_id, ot,
           case when paid then pt end,
           case when paid then ($21::int[])[1 + region * 100 + (h6 / 100000) % 100] end,
           status, amount, refund, rq, rt,
           case when vend = 1 then channel end,
           case when vend = 1 then goods end,
           qty,
           case when paid and not dropped then qty else 0 end,
           case when paid and not dropped then 1 else 0 end,
           0,
           case when dropped then 1 else 0 end,
           case when vend = 1 or not paid then 'none'
                when st = 0 and ot > to_timestamp($4::float8) - interval '90 minutes' then 'in_use' else 'ended' end,
           kind, page_id, cost * qty,
           ot,
           coalesce(rt, rq, case when paid then pt end, ot)
      from w`;
  // A big load goes faster without index upkeep: the order table's secondary indexes are set aside
  // and built again, from their own definitions, once the rows are in (same transaction).
  const deferIndexes = count >= BULK_INDEX_THRESHOLD;
  const indexes = deferIndexes
    ? (
        await tx.query<{ name: string; def: string }>(
          `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'order' and indexname not in (select conname from pg_constraint)`,
        )
      ).rows
    : [];
  for (const index of indexes) await tx.query(`drop index ${q(index.name)}`);
  for (let start = 1; start <= count; start += ORDER_BATCH) {
    const end = Math.min(count, start + ORDER_BATCH - 1);
    const t0 = Date.now();
    await tx.query(sql, [start, end, ...params]);
    log(`orders ${end.toLocaleString("en-US")} / ${count.toLocaleString("en-US")} (${Date.now() - t0} ms)`);
  }
  if (indexes.length) {
    const t0 = Date.now();
    for (const index of indexes) await tx.query(index.def);
    log(`order indexes rebuilt: ${indexes.length} (${Date.now() - t0} ms)`);
  }
  await tx.query(`analyze ${q("order")}`);
}

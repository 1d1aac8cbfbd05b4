// A device's settings (SPEC §7): cups, bake time, towels, the screen's background, ads, and what the console
// reads to offer a device its SIM number, plans, plugins and pages. Each setting applies to the device kinds
// that have it (KINDS); any other kind is refused with 409 naming the kinds it applies to. The setting
// fields are read-only in machine.json, so these calls are the only way to change them.
import type { Queryable } from "../../db/db.ts";
import { derive } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { toApi } from "../../entities/answer.ts";
import { scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import type { Row } from "../../entities/repository.ts";
import { forbidden, HttpError, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import type { Handlers } from "../area.ts";
import { entityKeyBase, enumKey } from "../../../src/schema/keys.ts";
import * as store from "./settings-store.ts";

type Kind = "vending" | "charging_cable" | "charging_pile" | "dryer" | "car_wash";

/** Which device kinds each setting applies to. */
export const KINDS = {
  cups: ["vending"],
  bakeTime: ["dryer"],
  towel: ["car_wash", "dryer"],
  /** Devices with a screen: every kind but the charging cable's box. */
  screen: ["vending", "charging_pile", "dryer", "car_wash"],
} satisfies Record<string, Kind[]>;

/** The plan entity a device of each kind runs (machine.<entity>_id). */
export const PLAN_OF_KIND = {
  vending: "channel_plan",
  charging_cable: "charge_plan",
  charging_pile: "charge_pile_plan",
  dryer: "dryer_plan",
  car_wash: "car_wash_plan",
} as const satisfies Record<Kind, string>;

const machineModel = () => modelOf("machine");

/** The device in the caller's scope (404 otherwise), of one of the kinds (409 otherwise). */
export async function deviceOfKind(ctx: Ctx, tx: Queryable, id: number, kinds?: readonly string[]): Promise<Row> {
  const row = await repo.findById(tx, machineModel(), scopeOf(ctx.principal), id);
  if (!row) throw notFound();
  if (kinds && !kinds.includes(row.kind as string)) throw wrongKind(ctx, kinds);
  return row;
}

export function wrongKind(ctx: Ctx, kinds: readonly string[]): HttpError {
  const names = kinds.map((k) => translate(ctx.lng, enumKey(entityKeyBase("machine"), "kind", k))).join(", ");
  return new HttpError(409, "machineKind", { kinds: names });
}

/** Writes the setting's columns on the device (kind checked first), audited under the call's name, and answers the device. */
async function setOnDevice(ctx: Ctx, id: number, kinds: readonly string[], action: string, values: Row) {
  const tx = sqlOf(ctx);
  const before = await deviceOfKind(ctx, tx, id, kinds);
  // The same values again change nothing and record nothing.
  if (Object.entries(values).every(([f, v]) => (before[f] ?? null) === v)) {
    await derive(ctx, machineModel(), [before]);
    return toApi(machineModel(), before);
  }
  const row = await repo.updateAt(tx, machineModel(), scopeOf(ctx.principal), id, undefined, values);
  if (!row) throw notFound();
  await audit(
    tx,
    ctx,
    "machine",
    id,
    action,
    Object.fromEntries(Object.keys(values).map((f) => [f, [before[f] ?? null, values[f]]])),
  );
  await derive(ctx, machineModel(), [row]);
  return toApi(machineModel(), row);
}

export const settingsHandlers: Handlers = {
  "machine-cup-set": ({ ctx, input }) =>
    setOnDevice(ctx, input.id, KINDS.cups, "machine-cup-set", { maxnumber: input.maxnumber }),

  "machine-baketime-set": ({ ctx, input }) =>
    setOnDevice(ctx, input.id, KINDS.bakeTime, "machine-baketime-set", { bake_time: input.bake_time }),

  "machine-towel-set": ({ ctx, input }) =>
    setOnDevice(ctx, input.id, KINDS.towel, "machine-towel-set", {
      towel_mode: input.towel_mode,
      towel_price: input.towel_mode === "paid" ? input.towel_price : null,
    }),

  "machine-bg-set": ({ ctx, input }) =>
    setOnDevice(ctx, input.id, KINDS.screen, "machine-bg-set", { bg_image: input.bg_image }),

  "machine-iccid": async ({ ctx, input }) => {
    const row = await deviceOfKind(ctx, sqlOf(ctx), input.id);
    // Only a device on the mobile network carries a SIM card.
    if (row.network_type !== "4g") throw new HttpError(409, "machineNoSim");
    return { id: Number(row.id), mac_name: String(row.mac_name), iccid: (row.iccid as string | null) ?? null };
  },

  // The plans the caller may give the device: its scope's, of the device's kind. An operator gives a
  // device no plan (machine.bind is never its), nor does an outlet manager: each is shown the one its device runs.
  "machine-application-plan": async ({ ctx, input }) => {
    const row = await deviceOfKind(ctx, sqlOf(ctx), input.id);
    const kind = row.kind as Kind;
    const entity = PLAN_OF_KIND[kind];
    const options = await repo.options(sqlOf(ctx), modelOf(entity), scopeOf(ctx.principal));
    if (ctx.principal.kind === "agent") return { kind, entity, list: options };
    const field = [...machineModel().fields.values()].find((f) => f.node["x-relation"]?.entity === entity)!.name;
    return { kind, entity, list: options.filter((plan) => Number(plan.id) === Number(row[field])) };
  },

  "get-open-plugins": async ({ ctx, input }) => {
    // The owner's profit-sharing limits are its agent's money settings: no operator screen shows them and
    // an operator cannot change them, so an operator is refused the call; so is an outlet manager (no money).
    if (ctx.principal.kind !== "agent") throw forbidden();
    const db = sqlOf(ctx);
    // The device's owner (the engine has checked the device is in the caller's scope), or the caller.
    let owner = { id: ctx.principal.agentId, path: ctx.principal.agentPath };
    if (input.machine_id !== undefined) {
      const device = await deviceOfKind(ctx, db, input.machine_id);
      owner = { id: Number(device.agent_id), path: device.agent_path as string };
    }
    const plugins = await store.enabledPlugins(db);
    const setting = await repo.singleton(db, modelOf("plugin_setting"), owner.path);
    return {
      agent_id: owner.id,
      plugins: plugins.map((p) => ({ ...p, id: Number(p.id) })),
      setting: setting
        ? {
            daily_max_amount: Number(setting.daily_max_amount),
            per_order_amount: Number(setting.per_order_amount),
            application_ids: (setting.application_ids as number[] | null) ?? [],
          }
        : null,
    };
  },

  // The settings the device and the customer mini program act on, for one device: its owner's multi-item
  // discounts and the platform's deposit per device, as they are now (README "Settings and what reads them").
  "machine-sale-terms": async ({ ctx, input }) => {
    const db = sqlOf(ctx);
    const device = await deviceOfKind(ctx, db, input.machine_id);
    const goods = await repo.singleton(db, modelOf("goods_setting"), device.agent_path as string);
    const system = await repo.singleton(db, modelOf("system_setting"), "global");
    const fraction = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      machine_id: Number(device.id),
      agent_id: Number(device.agent_id),
      currency: (system?.currency as "CNY" | "USD" | "KHR" | "THB" | null | undefined) ?? null,
      machine_deposit:
        system?.machine_deposit === null || system?.machine_deposit === undefined
          ? null
          : Number(system.machine_deposit),
      is_discount: Number(goods?.is_discount ?? 0) === 1 ? 1 : 0,
      two_discount: fraction(goods?.two_discount),
      three_discount: fraction(goods?.three_discount),
    };
  },

  "renovation-all-my": async ({ ctx, input }) => {
    const db = sqlOf(ctx);
    // A page for a device's kind (settings-store.ts pagesOf), or any of the caller's agent's.
    const kind = input.machine_id === undefined ? undefined : (await deviceOfKind(ctx, db, input.machine_id)).kind;
    const rows = await store.pagesOf(db, ctx.principal.agentId, kind as string | undefined);
    return rows.map((r) => ({ id: Number(r.id), title: r.title }));
  },
};

/**
 * Ads (machine_ad, put with machine-put-ad) go only on devices with a screen, and belong to the device's
 * owner: an ad the platform puts on an agent's device is that agent's to see and remove.
 */
export const settingsHooks: Record<string, EntityHooks> = {
  machine_ad: {
    async beforeWrite(ctx, tx, values, existing) {
      if (existing) return;
      const device = await deviceOfKind(ctx, tx, values.machine_id as number, KINDS.screen);
      values.agent_id = device.agent_id;
      values.agent_path = device.agent_path;
    },
  },
};

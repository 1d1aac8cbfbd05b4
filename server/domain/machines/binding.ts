// Binding devices: to an agent (the device, its lanes and restock records move into the new owner's
// subtree), to an outlet, to a channel plan (which lays out the lanes), to a room, to hardware (the
// device code keeps everything, a replacement is recorded); initialising a device. Each locks the
// devices it changes (in the caller's scope) first, so two bindings of one device never interleave; the
// statements that change them are in machine-store.ts.
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import { detail } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, HttpError, notFound } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";
import * as store from "./machine-store.ts";
import type { LockedMachine } from "./machine-store.ts";

export const idList = (id: number | number[]): number[] => (Array.isArray(id) ? id : [id]);

/**
 * The live devices among ids that the caller may see, locked for the rest of the transaction; a 404 when
 * any is missing, recycled or outside the caller's scope (nothing is changed then).
 */
export async function lockMachines(tx: Queryable, ctx: Ctx, ids: number[]): Promise<LockedMachine[]> {
  const rows = await store.lock(tx, scopeOf(ctx.principal), ids);
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** A translated 409 naming the devices of a kind the call does not apply to. */
function wrongKind(machines: LockedMachine[], kinds: string[]): void {
  const wrong = machines.filter((m) => !kinds.includes(m.kind));
  if (wrong.length) throw new HttpError(409, "machineWrongKind", { devices: wrong.map((m) => m.mac_name).join(", ") });
}

export const bindingHandlers: Handlers = {
  async "machine-bind-manage"({ ctx, input }) {
    const ids = idList(input.id);
    const machines = await lockMachines(ctx.tx, ctx, ids);
    // The new owner is one the caller sees (checked with the input: x-relation); its path is the scope.
    const owner = await store.agentOf(ctx.tx, input.agent_id);
    await store.moveToOwner(ctx.tx, ids, owner);
    for (const m of machines)
      await audit(ctx.tx, ctx, "machine", m.id, "bind_manage", { agent_id: [m.agent_id, input.agent_id] });
    return { count: ids.length };
  },

  async "machine-bind-shop"({ ctx, input }) {
    const ids = idList(input.id);
    const machines = await lockMachines(ctx.tx, ctx, ids);
    await store.setColumns(ctx.tx, ids, { shop_id: input.shop_id });
    for (const m of machines)
      await audit(ctx.tx, ctx, "machine", m.id, "bind_shop", { shop_id: [m.shop_id, input.shop_id] });
    return { count: ids.length };
  },

  async "machine-bind-plan"({ ctx, input }) {
    const ids = idList(input.id);
    const machines = await lockMachines(ctx.tx, ctx, ids);
    wrongKind(machines, ["vending"]);
    const lanes = await store.planLanes(ctx.tx, input.channel_plan_id);
    // Stock the new lanes cannot hold is taken out, recorded and put back into the goods' stock.
    for (const machine of machines) await store.layOutLanes(ctx.tx, machine, lanes, ctx.principal);
    await store.setColumns(ctx.tx, ids, { channel_plan_id: input.channel_plan_id });
    for (const m of machines)
      await audit(ctx.tx, ctx, "machine", m.id, "bind_plan", {
        channel_plan_id: [m.channel_plan_id, input.channel_plan_id],
      });
    return { count: ids.length };
  },

  // A charging plan applied to charging-cable devices: the plan is one the caller sees, the devices too.
  async "charge-plan-edit"({ ctx, input }) {
    if (!(await store.shareChargePlan(ctx.tx, scopeOf(ctx.principal), input.id))) throw notFound();
    const machines = await lockMachines(ctx.tx, ctx, input.machine_ids);
    wrongKind(machines, ["charging_cable"]);
    await store.setColumns(ctx.tx, input.machine_ids, { charge_plan_id: input.id });
    for (const m of machines)
      await audit(ctx.tx, ctx, "machine", m.id, "bind_plan", { charge_plan_id: [m.charge_plan_id, input.id] });
    return { count: input.machine_ids.length };
  },

  async "machine-bind-room"({ ctx, input }) {
    const [machine] = await lockMachines(ctx.tx, ctx, [input.id]);
    const room = input.room_number === "" ? null : input.room_number;
    await store.setColumns(ctx.tx, [input.id], { room_number: room });
    await audit(ctx.tx, ctx, "machine", input.id, "bind_room", { room_number: [machine.room_number, room] });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-bind-macname"({ ctx, input }) {
    const [machine] = await lockMachines(ctx.tx, ctx, [input.id]);
    if (machine.mac_id === input.mac_id) return detail(ctx, modelOf("machine"), input.id);
    const record = { reason: input.reason ?? null, operator: ctx.principal.name };
    if (!(await store.replaceHardware(ctx.tx, machine, input.mac_id, record)))
      throw badRequest([fieldMessage("mac_id", "machineHardwareTaken", ctx.lng, { mac_id: input.mac_id })]);
    await audit(ctx.tx, ctx, "machine", input.id, "bind_macname", { mac_id: [machine.mac_id, input.mac_id] });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-unbind-macname"({ ctx, input }) {
    const [machine] = await lockMachines(ctx.tx, ctx, [input.id]);
    await store.setColumns(ctx.tx, [input.id], { mac_id: null, last_report_at: null });
    await audit(ctx.tx, ctx, "machine", input.id, "unbind_macname", { mac_id: [machine.mac_id, null] });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-init"({ ctx, input }) {
    await lockMachines(ctx.tx, ctx, [input.id]);
    await store.reset(ctx.tx, input.id);
    await audit(ctx.tx, ctx, "machine", input.id, "init", null);
    return detail(ctx, modelOf("machine"), input.id);
  },
};

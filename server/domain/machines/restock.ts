// Restocking a device's lanes. What a lane may take is its free space (capacity less what is left);
// the rule is in the statement that loads it, so however many restocks of one lane arrive at once, none
// overfills it. The goods' stock goes down by what was loaded, never below 0, in the same transaction;
// each load is recorded. A restock never changes a lane's capacity or goods. The statements are in
// lane-store.ts.
import { scopeOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, notFound, type FieldError } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";
import * as store from "./lane-store.ts";
import type { Lane } from "./lane-store.ts";

/** The device (in the caller's scope, live) or a 404. */
async function machineOf(ctx: Ctx, id: number): Promise<{ id: number; mac_name: string }> {
  const row = await repo.findById(ctx.tx ?? ctx.db, modelOf("machine"), scopeOf(ctx.principal), id);
  if (!row) throw notFound();
  return { id: Number(row.id), mac_name: String(row.mac_name) };
}

/** The device's lanes, each marked low when shelved with goods and at or under the stock alert quantity. */
async function lanesOf(ctx: Ctx, machineId: number): Promise<{ lanes: Lane[]; alert: number }> {
  const sql = ctx.tx ?? ctx.db;
  const alert = await store.stockAlert(sql);
  const rows = await store.lanes(sql, machineId);
  return {
    alert,
    lanes: rows.map((r) => ({
      ...r,
      channel_id: Number(r.channel_id),
      goods_id: r.goods_id === null ? null : Number(r.goods_id),
      stock: r.stock === null ? null : Number(r.stock),
      low: r.goods_id !== null && Number(r.shelf_status) === 1 && Number(r.left) <= alert,
    })),
  };
}

export const restockHandlers: Handlers = {
  async "machine-replenishment-check"({ ctx, input }) {
    const machine = await machineOf(ctx, input.id);
    const { lanes, alert } = await lanesOf(ctx, machine.id);
    return { machine_id: machine.id, mac_name: machine.mac_name, stock_alert_quantity: alert, lanes };
  },

  async "machine-replenishment-goods"({ ctx, input }) {
    const tx = ctx.tx;
    const machine = await machineOf(ctx, input.id);
    const { lanes } = await lanesOf(ctx, machine.id);
    const byId = new Map(lanes.map((l) => [l.channel_id, l]));
    const errors: FieldError[] = [];
    // What to load: the lanes given, or with fill every shelved lane with goods to capacity (as far as
    // the goods' stock goes, lane by lane in number order).
    let loads: { channel_id: number; quantity: number; at: string }[];
    if (input.lanes?.length) {
      loads = input.lanes.map((l, i) => ({ ...l, at: `lanes/${i}` }));
      loads.forEach((l) => {
        const lane = byId.get(l.channel_id);
        if (!lane) errors.push(fieldMessage(`${l.at}/channel_id`, "laneNotOfDevice", ctx.lng));
        else if (lane.goods_id === null)
          errors.push(fieldMessage(`${l.at}/channel_id`, "laneNoGoods", ctx.lng, { lane: lane.channel_number }));
      });
      const seen = new Set<number>();
      for (const l of loads) {
        if (seen.has(l.channel_id)) errors.push(fieldMessage(`${l.at}/channel_id`, "laneTwice", ctx.lng));
        seen.add(l.channel_id);
      }
    } else if (input.fill) {
      const stockLeft = new Map<number, number>();
      loads = [];
      for (const lane of lanes) {
        if (lane.goods_id === null || lane.shelf_status !== 1 || lane.free <= 0) continue;
        const stock = stockLeft.get(lane.goods_id) ?? lane.stock ?? 0;
        const quantity = Math.min(lane.free, stock);
        if (quantity <= 0) continue;
        stockLeft.set(lane.goods_id, stock - quantity);
        loads.push({ channel_id: lane.channel_id, quantity, at: "fill" });
      }
      if (loads.length === 0) return { count: 0, quantity: 0 };
    } else throw badRequest([fieldMessage("lanes", "restockNothing", ctx.lng)]);
    if (errors.length) throw badRequest(errors);

    let total = 0;
    for (const load of loads) {
      const lane = byId.get(load.channel_id)!;
      // The free-space rule, in the statement that loads the lane.
      if (!(await store.load(tx, load.channel_id, machine.id, load.quantity))) {
        const free = await store.freeOf(tx, load.channel_id);
        errors.push(
          fieldMessage(`${load.at}/quantity`, "restockAboveFree", ctx.lng, { lane: lane.channel_number, free }),
        );
        continue;
      }
      if (!(await store.takeStock(tx, lane.goods_id, load.quantity))) {
        errors.push(
          fieldMessage(`${load.at}/quantity`, "restockAboveStock", ctx.lng, {
            goods: lane.goods_name ?? "",
            stock: await store.stockOf(tx, lane.goods_id),
          }),
        );
        continue;
      }
      await store.recordRestock(tx, load.channel_id, machine.mac_name, load.quantity, ctx.principal);
      total += load.quantity;
    }
    // All lanes or none: any refusal undoes the loads before it (the operation's transaction).
    if (errors.length) throw badRequest(errors);
    return { count: loads.length, quantity: total };
  },
};

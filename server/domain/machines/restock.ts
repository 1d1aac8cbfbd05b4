// Restocking a device's lanes. What a lane may take is its free space (capacity less what is left);
// the rule is in the statement that loads it, so however many restocks of one lane arrive at once, none
// overfills it. The goods' stock goes down by what was loaded, never below 0, in the same transaction;
// each load is recorded. A restock never changes a lane's capacity or goods.
import { q } from "../../core/sql.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, notFound, type FieldError } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";
import type { MachineReplenishmentCheckAnswer } from "../../../src/generated/types.ts";

/** A lane as the restock check answers it (its schema: machine-replenishment-check's answer). */
type Lane = MachineReplenishmentCheckAnswer["lanes"][number];

/** The device (in the caller's scope, live) or a 404. */
async function machineOf(ctx: Ctx, id: number): Promise<{ id: number; mac_name: string }> {
  const row = await repo.findById(ctx.tx ?? ctx.db, modelOf("machine"), scopeOf(ctx.principal), id);
  if (!row) throw notFound();
  return { id: Number(row.id), mac_name: String(row.mac_name) };
}

async function lanesOf(ctx: Ctx, machineId: number): Promise<{ lanes: Lane[]; alert: number }> {
  const sql = ctx.tx ?? ctx.db;
  const alert = Number(
    (
      await sql.query<{ alert: number }>(
        `select coalesce(max(stock_alert_quantity), 0) as alert from ${q("system_setting")}`,
      )
    ).rows[0].alert,
  );
  const { rows } = await sql.query<Lane>(
    `select c.id as channel_id, c.channel_number, c.goods_id, coalesce(g.title, c.goods_name) as goods_name, g.pic_url,
            c."left", c.count, greatest(c.count - c."left", 0) as free, c.shelf_status, g.stock
       from ${q("machine_channel")} c left join ${q("goods")} g on g.id = c.goods_id
      where c.machine_id = $1
      order by c.channel_number`,
    [machineId],
  );
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
      const { rows } = await tx.query<{ left: number }>(
        `update ${q("machine_channel")} set "left" = "left" + $3, version = version + 1, updated_at = now()
          where id = $1 and machine_id = $2 and "left" + $3 <= count returning "left"`,
        [load.channel_id, machine.id, load.quantity],
      );
      if (rows.length === 0) {
        const now = await tx.query<{ free: number }>(
          `select greatest(count - "left", 0) as free from ${q("machine_channel")} where id = $1`,
          [load.channel_id],
        );
        const free = Number(now.rows[0]?.free ?? 0);
        errors.push(
          fieldMessage(`${load.at}/quantity`, "restockAboveFree", ctx.lng, { lane: lane.channel_number, free }),
        );
        continue;
      }
      const stock = await tx.query<{ stock: number }>(
        `update ${q("goods")} set stock = stock - $2, version = version + 1, updated_at = now()
          where id = $1 and stock >= $2 returning stock`,
        [lane.goods_id, load.quantity],
      );
      if (stock.rows.length === 0) {
        const have = await tx.query<{ stock: number | null }>(`select stock from ${q("goods")} where id = $1`, [
          lane.goods_id,
        ]);
        errors.push(
          fieldMessage(`${load.at}/quantity`, "restockAboveStock", ctx.lng, {
            goods: lane.goods_name ?? "",
            stock: Number(have.rows[0]?.stock ?? 0),
          }),
        );
        continue;
      }
      await tx.query(
        `insert into ${q("machine_restock")} (machine_id, mac_name, channel_id, channel_number, goods_id, quantity,
                                              left_after, actor_kind, actor_id, actor_name, restocked_at,
                                              agent_id, agent_path)
         select c.machine_id, $2, c.id, c.channel_number, c.goods_id, $3, c."left", $4, $5, $6, now(), c.agent_id, c.agent_path
           from ${q("machine_channel")} c where c.id = $1`,
        [load.channel_id, machine.mac_name, load.quantity, ctx.principal.kind, ctx.principal.id, ctx.principal.name],
      );
      total += load.quantity;
    }
    // All lanes or none: any refusal undoes the loads before it (the operation's transaction).
    if (errors.length) throw badRequest(errors);
    return { count: loads.length, quantity: total };
  },
};

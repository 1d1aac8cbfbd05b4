// Binding devices: to an agent (the device, its lanes and restock records move into the new owner's
// subtree), to an outlet, to a channel plan (which lays out the lanes), to a room, to hardware (the
// device code keeps everything, a replacement is recorded); initialising a device. Each locks the
// devices it changes (in the caller's scope) first, so two bindings of one device never interleave.
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import { detail } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import * as repo from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { badRequest, HttpError, notFound } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";

export interface LockedMachine {
  id: number;
  mac_name: string;
  mac_id: string | null;
  kind: string;
  agent_id: number;
  agent_path: string;
}

export const idList = (id: number | number[]): number[] => (Array.isArray(id) ? id : [id]);

/**
 * The live devices among ids that the caller may see, locked for the rest of the transaction; a 404 when
 * any is missing, recycled or outside the caller's scope (nothing is changed then).
 */
export async function lockMachines(tx: Queryable, ctx: Ctx, ids: number[]): Promise<LockedMachine[]> {
  const scope = repo.scopeClause(modelOf("machine"), scopeOf(ctx.principal), 1);
  const { rows } = await tx.query<LockedMachine>(
    `select id, mac_name, mac_id, kind, agent_id, agent_path from ${q("machine")}
      where id = any($1::bigint[]) and deleted_at is null${scope.sql}
      order by id for no key update`,
    [ids, ...scope.values],
  );
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows.map((r) => ({ ...r, id: Number(r.id), agent_id: Number(r.agent_id) }));
}

/** A translated 409 naming the devices of a kind the call does not apply to. */
function wrongKind(machines: LockedMachine[], kinds: string[]): void {
  const wrong = machines.filter((m) => !kinds.includes(m.kind));
  if (wrong.length) throw new HttpError(409, "machineWrongKind", { devices: wrong.map((m) => m.mac_name).join(", ") });
}

export const bindingHandlers: Handlers = {
  async "machine-bind-manage"({ ctx, input }) {
    const tx = ctx.tx;
    const ids = idList(input.id);
    await lockMachines(tx, ctx, ids);
    // The new owner is one the caller sees (checked with the input: x-relation); its path is the scope.
    const { rows } = await tx.query<{ id: number; agent_path: string }>(
      `select id, agent_path from ${q("agent")} where id = $1 and deleted_at is null`,
      [input.agent_id],
    );
    const owner = rows[0];
    // Operators belong to an agent: a device leaving that agent's subtree leaves its operators too.
    await tx.query(
      `delete from ${q("operator_binding")} b using ${q("operator")} o
        where b.machine_id = any($1::bigint[]) and o.id = b.operator_id
          and not ($2::text like (select agent_path from ${q("agent")} where id = o.agent_id) || '%')`,
      [ids, owner.agent_path],
    );
    // The device's own records go with it; an operator's binding stays its agent's (operators.ts).
    for (const table of ["machine_channel", "machine_restock", "machine_replacement", "stock_consumption"])
      await tx.query(`update ${q(table)} set agent_id = $2, agent_path = $3 where machine_id = any($1::bigint[])`, [
        ids,
        owner.id,
        owner.agent_path,
      ]);
    await tx.query(
      `update ${q("machine")} set agent_id = $2, agent_path = $3, version = version + 1, updated_at = now()
        where id = any($1::bigint[])`,
      [ids, owner.id, owner.agent_path],
    );
    for (const id of ids) await audit(tx, ctx, "machine", id, "bind_manage", { agent_id: input.agent_id });
    return { count: ids.length };
  },

  async "machine-bind-shop"({ ctx, input }) {
    const tx = ctx.tx;
    const ids = idList(input.id);
    await lockMachines(tx, ctx, ids);
    await tx.query(
      `update ${q("machine")} set shop_id = $2, version = version + 1, updated_at = now() where id = any($1::bigint[])`,
      [ids, input.shop_id],
    );
    for (const id of ids) await audit(tx, ctx, "machine", id, "bind_shop", { shop_id: input.shop_id });
    return { count: ids.length };
  },

  async "machine-bind-plan"({ ctx, input }) {
    const tx = ctx.tx;
    const ids = idList(input.id);
    const machines = await lockMachines(tx, ctx, ids);
    wrongKind(machines, ["vending"]);
    const plan = (
      await tx.query<{ channels: { channel_number: number; goods_id: number; count: number }[] | string }>(
        `select channels from ${q("channel_plan")} where id = $1 and deleted_at is null`,
        [input.channel_plan_id],
      )
    ).rows[0];
    const channels = typeof plan.channels === "string" ? JSON.parse(plan.channels) : plan.channels;
    const numbers = channels.map((c: { channel_number: number }) => c.channel_number);
    for (const machine of machines) {
      // Lanes the plan no longer has go; the others take the plan's goods and capacity, keeping what is
      // left in them up to the new capacity; new lanes start empty.
      await tx.query(`delete from ${q("machine_channel")} where machine_id = $1 and channel_number <> all($2::int[])`, [
        machine.id,
        numbers,
      ]);
      await tx.query(
        `insert into ${q("machine_channel")} as c (machine_id, channel_number, goods_id, goods_name, "left", count,
                                                  shelf_status, agent_id, agent_path)
         select $1, p.channel_number, p.goods_id, g.title, 0, p.count, 1, $2, $3
           from jsonb_to_recordset($4::jsonb) as p(channel_number int, goods_id bigint, count int)
           left join ${q("goods")} g on g.id = p.goods_id
         on conflict (machine_id, channel_number) do update
            set goods_id = excluded.goods_id, goods_name = excluded.goods_name, count = excluded.count,
                "left" = least(c."left", excluded.count), version = c.version + 1, updated_at = now()`,
        [machine.id, machine.agent_id, machine.agent_path, JSON.stringify(channels)],
      );
    }
    await tx.query(
      `update ${q("machine")} set channel_plan_id = $2, version = version + 1, updated_at = now()
        where id = any($1::bigint[])`,
      [ids, input.channel_plan_id],
    );
    for (const id of ids) await audit(tx, ctx, "machine", id, "bind_plan", { channel_plan_id: input.channel_plan_id });
    return { count: ids.length };
  },

  // A charging plan applied to charging-cable devices: the plan is one the caller sees, the devices too.
  async "charge-plan-edit"({ ctx, input }) {
    const tx = ctx.tx;
    const plan = modelOf("charge_plan");
    const scope = repo.scopeClause(plan, scopeOf(ctx.principal), 1);
    const { rows } = await tx.query(
      `select 1 from ${q("charge_plan")} where id = $1 and deleted_at is null${scope.sql} for key share`,
      [input.id, ...scope.values],
    );
    if (!rows.length) throw notFound();
    const machines = await lockMachines(tx, ctx, input.machine_ids);
    wrongKind(machines, ["charging_cable"]);
    await tx.query(
      `update ${q("machine")} set charge_plan_id = $2, version = version + 1, updated_at = now()
        where id = any($1::bigint[])`,
      [input.machine_ids, input.id],
    );
    for (const id of input.machine_ids) await audit(tx, ctx, "machine", id, "bind_plan", { charge_plan_id: input.id });
    return { count: input.machine_ids.length };
  },

  async "machine-bind-room"({ ctx, input }) {
    const tx = ctx.tx;
    await lockMachines(tx, ctx, [input.id]);
    await tx.query(
      `update ${q("machine")} set room_number = $2, version = version + 1, updated_at = now() where id = $1`,
      [input.id, input.room_number === "" ? null : input.room_number],
    );
    await audit(tx, ctx, "machine", input.id, "bind_room", { room_number: input.room_number });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-bind-macname"({ ctx, input }) {
    const tx = ctx.tx;
    const [machine] = await lockMachines(tx, ctx, [input.id]);
    if (machine.mac_id === input.mac_id) return detail(ctx, modelOf("machine"), input.id);
    try {
      await tx.query(`savepoint bind_mac`);
      await tx.query(
        `update ${q("machine")} set mac_id = $2, last_report_at = null, version = version + 1, updated_at = now()
          where id = $1`,
        [input.id, input.mac_id],
      );
      await tx.query(`release savepoint bind_mac`);
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error;
      await tx.query(`rollback to savepoint bind_mac`);
      throw badRequest([fieldMessage("mac_id", "machineHardwareTaken", ctx.lng, { mac_id: input.mac_id })]);
    }
    if (machine.mac_id)
      await tx.query(
        `insert into ${q("machine_replacement")} (machine_id, mac_name, old_mac_id, new_mac_id, reason, operator_name,
                                                  replaced_at, agent_id, agent_path)
         values ($1, $2, $3, $4, $5, $6, now(), $7, $8)`,
        [
          machine.id,
          machine.mac_name,
          machine.mac_id,
          input.mac_id,
          input.reason ?? null,
          ctx.principal.name,
          machine.agent_id,
          machine.agent_path,
        ],
      );
    await audit(tx, ctx, "machine", input.id, "bind_macname", { mac_id: [machine.mac_id, input.mac_id] });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-unbind-macname"({ ctx, input }) {
    const tx = ctx.tx;
    const [machine] = await lockMachines(tx, ctx, [input.id]);
    await tx.query(
      `update ${q("machine")} set mac_id = null, last_report_at = null, version = version + 1, updated_at = now()
        where id = $1`,
      [input.id],
    );
    await audit(tx, ctx, "machine", input.id, "unbind_macname", { mac_id: [machine.mac_id, null] });
    return detail(ctx, modelOf("machine"), input.id);
  },

  async "machine-init"({ ctx, input }) {
    const tx = ctx.tx;
    await lockMachines(tx, ctx, [input.id]);
    await tx.query(`delete from ${q("machine_channel")} where machine_id = $1`, [input.id]);
    await tx.query(`delete from ${q("operator_binding")} where machine_id = $1`, [input.id]);
    await tx.query(
      `update ${q("machine")}
          set shop_id = null, room_number = null, channel_plan_id = null, charge_plan_id = null,
              charge_pile_plan_id = null, dry_plan_id = null, car_wash_plan_id = null, mode = 'normal',
              version = version + 1, updated_at = now()
        where id = $1`,
      [input.id],
    );
    await audit(tx, ctx, "machine", input.id, "init", null);
    return detail(ctx, modelOf("machine"), input.id);
  },
};

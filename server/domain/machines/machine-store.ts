// The device statements of the binding calls and the QR codes (issue 28, step 4: a handler reads lock →
// store → audit → answer). Every change runs in the caller's transaction after `lock` (binding.ts
// lockMachines) has locked the devices it changes, in the caller's scope, so two bindings of one device
// never interleave; the new owner, the plan and the charging plan a binding names are read here too.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { businessDay } from "../../db/rollups.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A device as its binding locked it (binding.ts lockMachines). */
export interface LockedMachine {
  id: number;
  mac_name: string;
  mac_id: string | null;
  kind: string;
  agent_id: number;
  agent_path: string;
  /** What the bindings change, for the history's "before". */
  shop_id: number | null;
  channel_plan_id: number | null;
  charge_plan_id: number | null;
  room_number: string | null;
}

/** A plan's lane: its number, goods and capacity. */
export interface PlanLane {
  channel_number: number;
  goods_id: number;
  count: number;
}

/** The live devices among ids in the scope, locked for no key update until the transaction ends. */
export async function lock(tx: Queryable, scope: Scope, ids: number[]): Promise<LockedMachine[]> {
  const where = scopeClause(modelOf("machine"), scope, 1);
  const { rows } = await tx.query<LockedMachine>(
    `select id, mac_name, mac_id, kind, agent_id, agent_path, shop_id, channel_plan_id, charge_plan_id, room_number
       from ${q("machine")}
      where id = any($1::bigint[]) and deleted_at is null${where.sql}
      order by id for no key update`,
    [ids, ...where.values],
  );
  const idOrNull = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    agent_id: Number(r.agent_id),
    shop_id: idOrNull(r.shop_id),
    channel_plan_id: idOrNull(r.channel_plan_id),
    charge_plan_id: idOrNull(r.charge_plan_id),
  }));
}

/** The live devices among ids in the scope, by id: their id and device code. */
export async function names(sql: Queryable, scope: Scope, ids: number[]): Promise<{ id: number; mac_name: string }[]> {
  const model = modelOf("machine");
  const where = scopeClause(model, scope, 1);
  const { rows } = await sql.query<{ id: number; mac_name: string }>(
    `select id, mac_name from ${q(model.table)} where id = any($1) and deleted_at is null${where.sql} order by id`,
    [ids, ...where.values],
  );
  return rows;
}

/** A live agent's id and place in the tree (a new owner). */
export async function agentOf(tx: Queryable, id: number): Promise<{ id: number; agent_path: string }> {
  const { rows } = await tx.query<{ id: number; agent_path: string }>(
    `select id, agent_path from ${q("agent")} where id = $1 and deleted_at is null`,
    [id],
  );
  return rows[0];
}

/** The lanes of a live channel plan. */
export async function planLanes(tx: Queryable, planId: number): Promise<PlanLane[]> {
  const plan = (
    await tx.query<{ channels: PlanLane[] | string }>(
      `select channels from ${q("channel_plan")} where id = $1 and deleted_at is null`,
      [planId],
    )
  ).rows[0];
  return typeof plan.channels === "string" ? (JSON.parse(plan.channels) as PlanLane[]) : plan.channels;
}

/** Is the charging plan live and in the scope? Its row is key-share locked until the transaction ends. */
export async function shareChargePlan(tx: Queryable, scope: Scope, id: number): Promise<boolean> {
  const where = scopeClause(modelOf("charge_plan"), scope, 1);
  const { rows } = await tx.query(
    `select 1 from ${q("charge_plan")} where id = $1 and deleted_at is null${where.sql} for key share`,
    [id, ...where.values],
  );
  return rows.length > 0;
}

/** The tables whose rows belong to a device's owner and move with the device. */
const DEVICE_RECORDS = ["machine_channel", "machine_restock", "machine_replacement", "stock_consumption"];

/**
 * A device destroyed from the recycle bin takes its lanes with it (they are its own, and no call removes
 * them); what else still points at it refuses the destroy (references.ts), and the transaction with it.
 */
export async function dropLanes(tx: Queryable, ids: number[]): Promise<void> {
  await tx.query(
    `delete from ${q("machine_channel")} c using ${q("machine")} m
      where m.id = c.machine_id and m.id = any($1::bigint[]) and m.deleted_at is not null`,
    [ids],
  );
}

/** Sets columns of the devices (names from the calls' schemas, never from input), a new version each. */
export async function setColumns(tx: Queryable, ids: number[], values: Record<string, unknown>): Promise<void> {
  const names = Object.keys(values);
  const assignments = names.map((name, i) => `${q(name)} = $${i + 2}`).join(", ");
  await tx.query(
    `update ${q("machine")} set ${assignments}, version = version + 1, updated_at = now() where id = any($1::bigint[])`,
    [ids, ...names.map((name) => values[name])],
  );
}

/**
 * Moves devices to a new owner: their own records go with them; operators of the old owner's subtree that
 * the new owner's does not include lose their bindings (an operator's binding stays its agent's).
 */
export async function moveToOwner(tx: Queryable, ids: number[], owner: { id: number; agent_path: string }) {
  await tx.query(
    `delete from ${q("operator_binding")} b using ${q("operator")} o
      where b.machine_id = any($1::bigint[]) and o.id = b.operator_id
        and not ($2::text like (select agent_path from ${q("agent")} where id = o.agent_id) || '%')`,
    [ids, owner.agent_path],
  );
  for (const table of DEVICE_RECORDS)
    await tx.query(`update ${q(table)} set agent_id = $2, agent_path = $3 where machine_id = any($1::bigint[])`, [
      ids,
      owner.id,
      owner.agent_path,
    ]);
  await setColumns(tx, ids, { agent_id: owner.id, agent_path: owner.agent_path });
}

/**
 * Lays out a device's lanes from a plan. What no longer fits is taken out and recorded, never lost: a
 * lane the plan drops, or whose goods it changes, is emptied; a lane kept with the same goods keeps what
 * is left up to its new capacity. Each lane emptied or cut down has a restock record of the quantity
 * taken out (negative, reason plan_change, by the caller) and its goods go back into stock, in the
 * binding's transaction (the device is locked), so the lanes' and the goods' stock still add up.
 */
export async function layOutLanes(
  tx: Queryable,
  machine: LockedMachine,
  lanes: PlanLane[],
  by: { kind: string; id: number | string | null; name: string },
): Promise<void> {
  const plan = JSON.stringify(lanes);
  await tx.query(
    `with plan as (select * from jsonb_to_recordset($2::jsonb) as p(channel_number int, goods_id bigint, count int)),
          kept as (
            select c.id, c.channel_number, c.goods_id, c."left", c.agent_id, c.agent_path,
                   case when p.channel_number is null or p.goods_id is distinct from c.goods_id then 0
                        else least(c."left", p.count) end as left_after
              from ${q("machine_channel")} c left join plan p on p.channel_number = c.channel_number
             where c.machine_id = $1 and c."left" > 0),
          taken as (select * from kept where left_after < "left"),
          back as (
            update ${q("goods")} g set stock = coalesce(g.stock, 0) + t.quantity, version = g.version + 1, updated_at = now()
              from (select goods_id, sum("left" - left_after) as quantity from taken
                     where goods_id is not null group by goods_id) t
             where g.id = t.goods_id)
     insert into ${q("machine_restock")} (machine_id, mac_name, channel_id, channel_number, goods_id, quantity,
                                          left_after, reason, actor_kind, actor_id, actor_name, restocked_at,
                                          agent_id, agent_path)
     select $1, $3, id, channel_number, goods_id, left_after - "left", left_after, 'plan_change', $4, $5, $6, now(),
            agent_id, agent_path
       from taken`,
    [machine.id, plan, machine.mac_name, by.kind, by.id, by.name],
  );
  await tx.query(`delete from ${q("machine_channel")} where machine_id = $1 and channel_number <> all($2::int[])`, [
    machine.id,
    lanes.map((lane) => lane.channel_number),
  ]);
  await tx.query(
    `insert into ${q("machine_channel")} as c (machine_id, channel_number, goods_id, goods_name, "left", count,
                                              shelf_status, agent_id, agent_path)
     select $1, p.channel_number, p.goods_id, g.title, 0, p.count, 1, $2, $3
       from jsonb_to_recordset($4::jsonb) as p(channel_number int, goods_id bigint, count int)
       left join ${q("goods")} g on g.id = p.goods_id
     on conflict (machine_id, channel_number) do update
        set goods_id = excluded.goods_id, goods_name = excluded.goods_name, count = excluded.count,
            "left" = case when c.goods_id is distinct from excluded.goods_id then 0
                          else least(c."left", excluded.count) end,
            version = c.version + 1, updated_at = now()`,
    [machine.id, machine.agent_id, machine.agent_path, plan],
  );
}

/**
 * Gives a device other hardware (its device code): false when another device has that code (the unique
 * index refuses it inside a savepoint, so the transaction goes on); a replaced code is recorded.
 */
export async function replaceHardware(
  tx: Queryable,
  machine: LockedMachine,
  macId: string,
  record: { reason: string | null; operator: string },
): Promise<boolean> {
  try {
    await tx.query(`savepoint bind_mac`);
    await setColumns(tx, [machine.id], { mac_id: macId, last_report_at: null });
    await tx.query(`release savepoint bind_mac`);
  } catch (error) {
    if ((error as { code?: string }).code !== "23505") throw error;
    await tx.query(`rollback to savepoint bind_mac`);
    return false;
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
        macId,
        record.reason,
        record.operator,
        machine.agent_id,
        machine.agent_path,
      ],
    );
  return true;
}

/** A device as new: no lanes, operators, outlet, room or plans, in normal mode. */
export async function reset(tx: Queryable, id: number): Promise<void> {
  await tx.query(`delete from ${q("machine_channel")} where machine_id = $1`, [id]);
  await tx.query(`delete from ${q("operator_binding")} where machine_id = $1`, [id]);
  await setColumns(tx, [id], {
    shop_id: null,
    room_number: null,
    channel_plan_id: null,
    charge_plan_id: null,
    charge_pile_plan_id: null,
    dry_plan_id: null,
    car_wash_plan_id: null,
    mode: "normal",
  });
}

/** A device's takings and orders by business day over the last `days` days, oldest first (none: 0). */
export async function takingsByDay(
  db: Queryable,
  machineId: number,
  days: number,
): Promise<{ day: string; money: number; orders: number }[]> {
  const { rows } = await db.query<{ day: string; money: number; orders: number }>(
    `select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(d.takings, 0)::bigint as money,
            coalesce(d.orders, 0)::bigint as orders
       from generate_series(${businessDay("now()")} - ($2::int - 1), ${businessDay("now()")}, interval '1 day') as g(day)
       left join stat_machine_day d on d.machine_id = $1 and d.day = g.day::date
      order by g.day`,
    [machineId, days],
  );
  return rows.map((r) => ({ day: r.day, money: Number(r.money), orders: Number(r.orders) }));
}

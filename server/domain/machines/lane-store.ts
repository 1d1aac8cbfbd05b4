// The lane statements of a restock (issue 28, step 4: a handler reads validate → store → answer): a
// device's lanes as the check answers them, and a load. The free-space rule is part of the statement that
// loads a lane, and the stock rule part of the one that takes the goods' stock, so however many restocks
// of one lane arrive at once none overfills it and no stock goes below 0; each runs in the caller's
// transaction, so a refusal after them undoes them.
import type { MachineReplenishmentCheckAnswer } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";

/** A lane as the restock check answers it (its schema: machine-replenishment-check's answer). */
export type Lane = MachineReplenishmentCheckAnswer["lanes"][number];

/** A lane as stored, before `low` is worked out. */
export type StoredLane = Omit<Lane, "low">;

/** Who restocks: the caller's kind, id and name, recorded with each load. */
export interface Restocker {
  kind: string;
  id: number | string | null;
  name: string;
}

/** The stock alert quantity of the system settings (0 when none is set). */
export async function stockAlert(sql: Queryable): Promise<number> {
  const { rows } = await sql.query<{ alert: number }>(
    `select coalesce(max(stock_alert_quantity), 0) as alert from ${q("system_setting")}`,
  );
  return Number(rows[0].alert);
}

/** A device's lanes in number order, with their goods' title, picture and stock and their free space. */
export async function lanes(sql: Queryable, machineId: number): Promise<StoredLane[]> {
  const { rows } = await sql.query<StoredLane>(
    `select c.id as channel_id, c.channel_number, c.goods_id, coalesce(g.title, c.goods_name) as goods_name, g.pic_url,
            c."left", c.count, greatest(c.count - c."left", 0) as free, c.shelf_status, g.stock
       from ${q("machine_channel")} c left join ${q("goods")} g on g.id = c.goods_id
      where c.machine_id = $1
      order by c.channel_number`,
    [machineId],
  );
  return rows;
}

/** Loads `quantity` into a device's lane if it has the free space (in the statement): false when not. */
export async function load(tx: Queryable, laneId: number, machineId: number, quantity: number): Promise<boolean> {
  const { rows } = await tx.query<{ left: number }>(
    `update ${q("machine_channel")} set "left" = "left" + $3, version = version + 1, updated_at = now()
          where id = $1 and machine_id = $2 and "left" + $3 <= count returning "left"`,
    [laneId, machineId, quantity],
  );
  return rows.length > 0;
}

/** A lane's free space now (0 when it is gone). */
export async function freeOf(tx: Queryable, laneId: number): Promise<number> {
  const { rows } = await tx.query<{ free: number }>(
    `select greatest(count - "left", 0) as free from ${q("machine_channel")} where id = $1`,
    [laneId],
  );
  return Number(rows[0]?.free ?? 0);
}

/** Takes `quantity` off a goods item's stock if it has that much (in the statement): false when not. */
export async function takeStock(tx: Queryable, goodsId: number | null, quantity: number): Promise<boolean> {
  const { rows } = await tx.query<{ stock: number }>(
    `update ${q("goods")} set stock = stock - $2, version = version + 1, updated_at = now()
          where id = $1 and stock >= $2 returning stock`,
    [goodsId, quantity],
  );
  return rows.length > 0;
}

/** A goods item's stock now (0 when it has none). */
export async function stockOf(tx: Queryable, goodsId: number | null): Promise<number> {
  const { rows } = await tx.query<{ stock: number | null }>(`select stock from ${q("goods")} where id = $1`, [goodsId]);
  return Number(rows[0]?.stock ?? 0);
}

/** Records a load of a lane, with what the lane holds after it. */
export async function recordRestock(
  tx: Queryable,
  laneId: number,
  macName: string,
  quantity: number,
  by: Restocker,
): Promise<void> {
  await tx.query(
    `insert into ${q("machine_restock")} (machine_id, mac_name, channel_id, channel_number, goods_id, goods_name,
                                              quantity, left_after, actor_kind, actor_id, actor_name, restocked_at,
                                              agent_id, agent_path)
         select c.machine_id, $2, c.id, c.channel_number, c.goods_id, coalesce(g.title, c.goods_name), $3, c."left",
                $4, $5, $6, now(), c.agent_id, c.agent_path
           from ${q("machine_channel")} c left join ${q("goods")} g on g.id = c.goods_id where c.id = $1`,
    [laneId, macName, quantity, by.kind, by.id, by.name],
  );
}

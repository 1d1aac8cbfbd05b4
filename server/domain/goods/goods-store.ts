// The goods statements beyond CRUD (issue 28, step 4: a handler reads validate → store → answer): the
// enabled variants of a goods item, and what a made-to-order device offers. Both read in the caller's
// scope on the variants (goods_sku).
import type { EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A variant as stored. */
export type StoredSku = EntityRecord<"goods_sku">;

/** A variant a made-to-order device offers, with its lane and goods. */
export interface OfferedSku {
  channel_number: number;
  goods_id: number;
  goods_title: string;
  sku_id: number;
  specs: { name: string; value: string }[];
  price: number;
  image: string | null;
}

/** The enabled variants of a goods item in the scope, by id. */
export async function activeSkus(sql: Queryable, scope: Scope, goodsId: number): Promise<StoredSku[]> {
  const where = scopeClause(modelOf("goods_sku"), scope, 1);
  const { rows } = await sql.query<StoredSku>(
    `select * from ${q("goods_sku")} where goods_id = $1 and status = 1${where.sql} order by id`,
    [goodsId, ...where.values],
  );
  return rows;
}

/** The enabled variants in the scope of the live goods on a device's shelved lanes, by lane and variant. */
export async function deviceOffer(sql: Queryable, scope: Scope, machineId: number): Promise<OfferedSku[]> {
  const where = scopeClause(modelOf("goods_sku"), scope, 1);
  const { rows } = await sql.query<OfferedSku>(
    `select c.channel_number, g.id as goods_id, g.title as goods_title, s.id as sku_id, s.specs, s.price, s.image
           from ${q("machine_channel")} c
           join ${q("goods")} g on g.id = c.goods_id and g.deleted_at is null
           join (select * from ${q("goods_sku")} where status = 1${where.sql}) s on s.goods_id = g.id
          where c.machine_id = $1 and c.shelf_status = 1
          order by c.channel_number, s.id`,
    [machineId, ...where.values],
  );
  return rows;
}

// Goods calls beyond CRUD.
//   goods-down        the goods of the agents below the caller (SPEC §2 "subordinate goods"), with the
//                     goods list's paging, sort and filters; the caller's own goods are left out.
//   goods-sku-active  the enabled variants of one goods item (the route checked the caller sees it).
//   goods-sku-coffee  what a made-to-order device offers: the enabled variants of its shelved lanes' goods.
import { q } from "../../core/sql.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { listRecords } from "../../entities/engine.ts";
import { toApi } from "../../entities/answer.ts";
import { modelOf } from "../../model/model.ts";
import { scopeClause } from "../../entities/repository.ts";
import { defineArea } from "../area.ts";

export const goods = defineArea({
  name: "goods",
  handlers: {
    "goods-down": ({ ctx, list }) =>
      listRecords(ctx, modelOf("goods"), list, false, { below: ctx.principal.agentPath }),

    async "goods-sku-active"({ ctx, input }) {
      const sku = modelOf("goods_sku");
      const scope = scopeClause(sku, scopeOf(ctx.principal), 1);
      const { rows } = await sqlOf(ctx).query(
        `select * from ${q("goods_sku")} where goods_id = $1 and status = 1${scope.sql} order by id`,
        [input.goods_id, ...scope.values],
      );
      return rows.map((row) => toApi(sku, row));
    },

    async "goods-sku-coffee"({ ctx, input }) {
      const scope = scopeClause(modelOf("goods_sku"), scopeOf(ctx.principal), 1);
      const { rows } = await sqlOf(ctx).query<{
        channel_number: number;
        goods_id: number;
        goods_title: string;
        sku_id: number;
        specs: { name: string; value: string }[];
        price: number;
        image: string | null;
      }>(
        `select c.channel_number, g.id as goods_id, g.title as goods_title, s.id as sku_id, s.specs, s.price, s.image
           from ${q("machine_channel")} c
           join ${q("goods")} g on g.id = c.goods_id and g.deleted_at is null
           join (select * from ${q("goods_sku")} where status = 1${scope.sql}) s on s.goods_id = g.id
          where c.machine_id = $1 and c.shelf_status = 1
          order by c.channel_number, s.id`,
        [input.machine_id, ...scope.values],
      );
      return rows.map((r) => ({
        ...r,
        goods_id: Number(r.goods_id),
        sku_id: Number(r.sku_id),
        price: Number(r.price),
      }));
    },
  },
});

// Goods calls beyond CRUD.
//   goods-down        the goods of the agents below the caller (SPEC §2 "subordinate goods"), with the
//                     goods list's paging, sort and filters; the caller's own goods are left out.
//   goods-sku-active  the enabled variants of one goods item (the route checked the caller sees it).
//   goods-sku-coffee  what a made-to-order device offers: the enabled variants of its shelved lanes' goods.
// The statements are in goods-store.ts.
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { listRecords } from "../../entities/engine.ts";
import { toApi } from "../../entities/answer.ts";
import { modelOf } from "../../model/model.ts";
import { defineArea } from "../area.ts";
import * as store from "./goods-store.ts";

export const goods = defineArea({
  name: "goods",
  handlers: {
    "goods-down": ({ ctx, list }) =>
      listRecords(ctx, modelOf("goods"), list, false, { below: ctx.principal.agentPath }),

    async "goods-sku-active"({ ctx, input }) {
      const rows = await store.activeSkus(sqlOf(ctx), scopeOf(ctx.principal), input.goods_id);
      return rows.map((row) => toApi(modelOf("goods_sku"), { ...row }));
    },

    async "goods-sku-coffee"({ ctx, input }) {
      const rows = await store.deviceOffer(sqlOf(ctx), scopeOf(ctx.principal), input.machine_id);
      return rows.map((r) => ({
        ...r,
        goods_id: Number(r.goods_id),
        sku_id: Number(r.sku_id),
        price: Number(r.price),
      }));
    },
  },
});

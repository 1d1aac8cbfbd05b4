// Goods calls beyond CRUD. goods-down: the goods of the agents below the caller (SPEC §2 "subordinate
// goods"), with the goods list's paging, sort and filters; the caller's own goods are left out.
import { listRecords } from "../../entities/engine.ts";
import { modelOf } from "../../entities/model.ts";
import { defineArea } from "../area.ts";

export const goods = defineArea({
  name: "goods",
  handlers: {
    "goods-down": ({ ctx, list }) =>
      listRecords(ctx, modelOf("goods"), list, false, { below: ctx.principal.agentPath }),
  },
});

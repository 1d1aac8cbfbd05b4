// Outlet calls beyond CRUD. shop-wifi-add: SPEC's WIFI batch, count entries named by the fixed part and
// consecutive numbers from the start number, each with the default password, for an outlet the caller
// may see (the route checked the relation), owned like any record the caller adds.
import { q } from "../../db/migrate.ts";
import { audit } from "../../entities/engine.ts";
import { defineArea } from "../area.ts";

export const shops = defineArea({
  name: "shops",
  handlers: {
    async "shop-wifi-add"({ ctx, input }) {
      const tx = ctx.tx!;
      const names = Array.from({ length: input.count }, (_, i) => `${input.prefix}${input.start_number + i}`);
      const { rows } = await tx.query<{ id: number }>(
        `insert into ${q("wifi")} (shop_id, ssid, password, status, agent_id, agent_path)
         select $1, name, $3, 1, $4, $5 from unnest($2::text[]) as name returning id`,
        [input.shop_id, names, input.password ?? null, ctx.principal.agentId, ctx.principal.agentPath],
      );
      for (const row of rows) await audit(tx, ctx, "wifi", row.id, "create", { shop_id: input.shop_id });
      return { count: rows.length };
    },
  },
});

// Outlet and work-order calls beyond CRUD.
//   shop-wifi-add        SPEC's WIFI batch: count entries named by the fixed part and consecutive numbers
//                        from the start number, each with the default password, for an outlet the caller
//                        may see (the route checked the relation), owned like any record the caller adds.
//                        A name the outlet already has refuses the whole batch (the unique index decides,
//                        so two batches at once cannot both add it).
//   shop-check-wifi      an outlet's WIFI count, and the names a planned batch would repeat.
//   service-list-not     the work orders not dealt with yet: the home to-do's "pending work orders".
//   service-setting-type the work-order types with their names and how many enabled entries each has.
import { entityKeyBase, enumKey } from "../../../src/schema/keys.ts";
import type { ListQuery } from "../../entities/repository.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { listRecords } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import { HttpError } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { defineArea } from "../area.ts";
import * as store from "./shop-store.ts";

const batchNames = (prefix: string, count: number, start: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${start + i}`);

export const shops = defineArea({
  name: "shops",
  handlers: {
    async "shop-wifi-add"({ ctx, input }) {
      const tx = ctx.tx;
      const names = batchNames(input.prefix, input.count, input.start_number);
      const added = await store.addWifi(tx, input.shop_id, names, input.password ?? null, ctx.principal);
      if (added.length < names.length) {
        // The transaction is rolled back with the refusal: nothing of the batch stays.
        const addedNames = new Set(added.map((r) => r.ssid));
        throw new HttpError(409, "wifiTaken", { names: names.filter((n) => !addedNames.has(n)).join(", ") });
      }
      for (const row of added) await audit(tx, ctx, "wifi", row.id, "create", { shop_id: input.shop_id });
      return { count: added.length };
    },

    async "shop-check-wifi"({ ctx, input }) {
      const names =
        input.prefix !== undefined && input.count !== undefined
          ? batchNames(input.prefix, input.count, input.start_number ?? 1)
          : [];
      const counts = await store.wifiCounts(sqlOf(ctx), scopeOf(ctx.principal), input.shop_id, names);
      return { entries: counts.entries, enabled: counts.enabled, taken: counts.taken ?? [] };
    },

    "service-list-not": ({ ctx, list }) => {
      const pending: ListQuery = { ...list, where: [...list.where, { field: "status", op: "eq", value: "pending" }] };
      return listRecords(ctx, modelOf("service_order"), pending, false);
    },

    async "service-setting-type"({ ctx }) {
      const types = (modelOf("service_entry").schema.properties.type as { enum: string[] }).enum;
      const rows = await store.enabledEntriesByType(sqlOf(ctx));
      const counts = new Map(rows.map((r) => [r.type, r.entries]));
      return types.map((value) => ({
        value,
        label: translate(ctx.lng, enumKey(entityKeyBase("service_entry"), "type", value)),
        entries: counts.get(value) ?? 0,
      }));
    },
  },
});

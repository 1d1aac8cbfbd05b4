// Mini-program pages and applications, beyond CRUD.
//   renovation-type         the page show types, translated, with how many of the caller's pages use each.
//   renovation-home-type    the layout editor's palette: the module types of schemas/page-layout.json, each
//                           translated, with the grid styles a page may use only once.
//   application-charge-get  an application's charge; application-charge-set sets it (the fields are its alone).
//   application.upgrade     the upgrade (a state action) installs the newest published version, or is refused.
// A page's layout is validated by its schema with the page; the rule the schema cannot say (the three-grid
// module at most once) is checked here, before every write.
import { enumKey, entityKeyBase } from "../../../src/schema/keys.ts";
import { MODULE_TYPES, ONCE_PER_PAGE } from "../../../src/schema/page-layout.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import type { EntityHooks, TransitionEffect } from "../../entities/domain.ts";
import { detail } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import { badRequest, HttpError, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { defineArea } from "../area.ts";
import * as store from "./pages-store.ts";

interface LayoutModule {
  type: string;
  style?: string;
}

const pageHooks: EntityHooks = {
  async beforeWrite(ctx, _tx, values) {
    const layout = (typeof values.layout === "string" ? JSON.parse(values.layout) : values.layout) as
      { modules?: LayoutModule[] } | undefined;
    for (const style of ONCE_PER_PAGE) {
      const uses = (layout?.modules ?? []).filter((m) => m.type === "grid" && m.style === style).length;
      if (uses > 1)
        throw badRequest([{ field: "layout", keyword: "x-once", message: translate(ctx.lng, "errors:threeGridOnce") }]);
    }
  },
};

/**
 * An application's upgrade installs its newest published version, in the state change's transaction;
 * when none newer than the installed one is published, nothing changes and the upgrade is refused.
 */
const upgradeEffect: TransitionEffect = async (ctx, { after }) => {
  const upgraded = await store.upgradeToLatest(ctx.tx, Number(after.id));
  if (!upgraded) throw new HttpError(409, "applicationNewest", { name: after.name, version: after.version_number });
  return { ...upgraded };
};

export const pages = defineArea({
  name: "pages",
  hooks: { page: pageHooks },
  effects: { "application.upgrade": upgradeEffect },
  handlers: {
    async "renovation-type"({ ctx }) {
      const page = modelOf("page");
      const types = (page.schema.properties.show_type as { enum: string[] }).enum;
      const rows = await store.pagesByShowType(sqlOf(ctx), scopeOf(ctx.principal));
      const counts = new Map(rows.map((r) => [r.show_type, r.pages]));
      return types.map((value) => ({
        value,
        label: translate(ctx.lng, enumKey(entityKeyBase("page"), "show_type", value)),
        pages: counts.get(value) ?? 0,
      }));
    },

    async "renovation-home-type"({ ctx }) {
      return MODULE_TYPES.map((type) => ({
        type,
        label: translate(ctx.lng, `common:layoutModules.${type}`),
        once: type === "grid" ? ONCE_PER_PAGE : [],
      }));
    },

    async "application-charge-get"({ ctx, input }) {
      const charge = await store.chargeOf(sqlOf(ctx), input.id);
      if (!charge) throw notFound();
      return { ...charge, id: Number(charge.id), charge_amount: Number(charge.charge_amount) };
    },

    async "application-charge-set"({ ctx, input }) {
      const tx = ctx.tx;
      const amount = input.charge_type === "free" ? 0 : input.charge_amount!;
      if (await store.setCharge(tx, input.id, input.charge_type, amount))
        await audit(tx, ctx, "application", input.id, "application-charge-set", {
          charge_type: input.charge_type,
          charge_amount: amount,
        });
      return detail(ctx, modelOf("application"), input.id);
    },
  },
});

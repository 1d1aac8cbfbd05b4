// The header's search box (GET /merchant/search): the records of every kind with searched fields
// (x-ui.search) that the caller may list, in the scope its lists have, grouped by kind.
import { can, inTransaction, scopeOf, type Ctx } from "../../entities/context.ts";
import { translate } from "../../core/i18n.ts";
import { models, type EntityModel } from "../../model/model.ts";
import { entityNameKey, fieldLabelKey } from "../../../src/schema/keys.ts";
import type { SearchAnswer } from "../../../src/generated/types.ts";
import { defineArea } from "../area.ts";
import { MATCHES, searchKind, SEARCH_PRICES } from "./search-store.ts";

/** At most this many fields make a result's line of context. */
const CONTEXT_FIELDS = 2;

/** The kinds the search box reads: those with a searched field and a list call. */
const searchable = (): EntityModel[] =>
  [...models.values()].filter((m) => m.searched.length > 0 && m.x.calls.list && !m.singleton);

/**
 * What tells two results apart beside their titles: the other searched fields (where the words may have
 * matched), then the text columns a list shows (an order's device code); never a secret, a picture,
 * an enum's raw value or a relation's id.
 */
export function contextFields(model: EntityModel): string[] {
  const shown = [...model.fields.values()]
    .filter((f) => {
      const ui = f.node["x-ui"];
      return ui?.column && !ui.hidden && f.kind === "string" && f.stored;
    })
    .filter((f) => !f.node.enum && !f.node["x-upload"] && !f.node["x-relation"] && !model.writeOnly.has(f.name))
    .map((f) => f.name);
  return [...new Set([...model.searched, ...shown])].filter((f) => f !== model.titleField).slice(0, CONTEXT_FIELDS);
}

export async function search(ctx: Ctx, text: string, limit: number): Promise<SearchAnswer> {
  const scope = scopeOf(ctx.principal);
  const kinds = searchable().filter((model) => can(ctx.principal, `${model.name}.list`));
  // One transaction, priced for the search's reads: a statement a kind, one after the other on its
  // connection (a transaction a kind, side by side, measured no faster: three more round trips each).
  const found = await inTransaction(ctx, async ({ tx }) => {
    await tx.query(SEARCH_PRICES);
    const kindsFound = [];
    for (const model of kinds) {
      const context = contextFields(model);
      kindsFound.push({ model, context, hits: await searchKind(tx, model, scope, text, limit, context) });
    }
    return kindsFound;
  });
  const groups = found.map(({ model, context, hits }) => {
    const labels = context.map((f) => translate(ctx.lng, fieldLabelKey(model.base, f)));
    return {
      entity: model.name,
      label: translate(ctx.lng, entityNameKey(model.name)),
      best: Math.min(...hits.map((h) => MATCHES.indexOf(h.match))),
      items: hits.map((hit) => ({
        id: hit.id,
        title: hit.title,
        match: hit.match,
        context: hit.values.flatMap((value, i) =>
          value === null || value === "" ? [] : [{ field: context[i], label: labels[i], value }],
        ),
      })),
    };
  });
  // Kinds with an exact match first, then those with a prefix match, each in the schemas' order.
  return groups
    .filter((g) => g.items.length > 0)
    .sort((a, b) => a.best - b.best)
    .map(({ best: _best, ...group }) => group);
}

export const searchArea = defineArea({
  name: "search",
  handlers: {
    async search({ ctx, input }) {
      return search(ctx, input.q.trim(), input.limit ?? 5);
    },
  },
});

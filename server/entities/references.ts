// Records in use: which rows point at a record (x-relation, on a column, in a list of ids, or in a list
// of objects such as a channel plan's lanes), worked out once from the schemas. A record others point at
// cannot be deleted for good (destroyed, or deleted where the entity has no recycle bin): the refusal
// names what uses it, unless the rows are history (x-relation.history: orders, restocks, ledger rows,
// logs naming a device, goods, an outlet, a page or an application), which keep the record's title as
// written and read the same once it is gone. History's agent is its owner, not a name: an agent with
// money rows is never destroyed (the ledger stays checkable), and the refusal says why. Records in a
// recycle bin still count, so that recovering them finds what they point at. Writers that point at a
// record lock it (key share, in checkRelations) and the deleter locks the records first, so a reference
// cannot appear between the check and the delete.
import type { Queryable } from "../db/db.ts";
import { HttpError } from "../core/errors.ts";
import { translate } from "../core/i18n.ts";
import type { Ctx } from "./context.ts";
import { resolveNode, storedModels, type EntityModel } from "../model/model.ts";
import { q, textLiteral } from "../core/sql.ts";
import { entityNameKey } from "../../src/schema/keys.ts";
import type { Language } from "../../src/schema/constants.ts";

/** How a message names a record without a title (none in its schema, or none given): "Device without a name". */
export const unnamed = (lng: Language, entity: string): string =>
  translate(lng, "common:record.unnamed", { entity: translate(lng, entityNameKey(entity)) });

interface Reference {
  /** The entity whose rows point. */
  entity: string;
  table: string;
  /** The id a row points at (as SQL over the row and, for lists, their element e). */
  target: string;
  /** What a row is joined with to reach its list's elements, if any. */
  lateral?: string;
}

/** The money rows of an agent: its ledger entries, its profit and its withdrawals. */
const ledgerUses = ["payment_record", "profit_record", "withdrawal"];

let byTarget: Map<string, Reference[]> | undefined;

/** Every way a stored row can point at a record of each entity. */
function references(): Map<string, Reference[]> {
  if (byTarget) return byTarget;
  byTarget = new Map();
  const add = (target: string, reference: Reference) =>
    byTarget!.set(target, [...(byTarget!.get(target) ?? []), reference]);
  for (const model of storedModels()) {
    if (model.singleton) continue;
    for (const field of model.fields.values()) {
      if (!field.stored) continue;
      const node = resolveNode(field.node);
      const column = q(field.name);
      // History (an order's goods, a restock's device) keeps the title it was written with and lets the
      // record go: only live references hold it.
      if (node["x-relation"]?.history) continue;
      const direct = node["x-relation"]?.entity;
      if (direct && field.kind === "integer") {
        add(direct, { entity: model.name, table: model.table, target: `r.${column}` });
        continue;
      }
      const items = node.items && !Array.isArray(node.items) ? resolveNode(node.items) : undefined;
      if (!items) continue;
      const listed = items["x-relation"]?.entity ?? direct;
      if (listed && (items.type === "integer" || items.$ref)) {
        add(listed, {
          entity: model.name,
          table: model.table,
          target: `e.value::bigint`,
          lateral: `jsonb_array_elements_text(r.${column})`,
        });
        continue;
      }
      for (const [name, child] of Object.entries(items.properties ?? {})) {
        const target = resolveNode(child)["x-relation"]?.entity;
        if (!target) continue;
        add(target, {
          entity: model.name,
          table: model.table,
          target: `(e.value->>${textLiteral(name)})::bigint`,
          lateral: `jsonb_array_elements(r.${column})`,
        });
      }
    }
  }
  return byTarget;
}

/**
 * Refuses (409, naming a record and what uses it) when rows of any entity point at one of the ids, rows
 * being deleted with them aside: one statement per way of pointing, whatever the number of ids. Runs
 * after the records were locked (see the head of this file).
 */
export async function refuseInUse(tx: Queryable, ctx: Ctx, model: EntityModel, ids: number[]): Promise<void> {
  let used: { target: number; uses: string[] } | undefined;
  const usedBy = new Set<string>();
  for (const ref of references().get(model.name) ?? []) {
    const from = ref.lateral ? `${q(ref.table)} r cross join lateral ${ref.lateral} as e(value)` : `${q(ref.table)} r`;
    const self = ref.table === model.table ? ` and r.id <> all($1)` : "";
    // Once one record is found in use, the other ways of pointing are counted for that record.
    const target = `${ref.target} = any($1)${used ? ` and ${ref.target} = ${Number(used.target)}` : ""}`;
    const { rows } = await tx.query<{ target: number; n: number }>(
      `select ${ref.target} as target, count(distinct r.id)::int as n from ${from}
        where ${target}${self} group by 1 order by 1 limit 1`,
      [ids],
    );
    if (rows.length === 0) continue;
    used ??= { target: Number(rows[0].target), uses: [] };
    usedBy.add(ref.entity);
    used.uses.push(`${translate(ctx.lng, entityNameKey(ref.entity))} ${rows[0].n}`);
  }
  if (!used) return;
  // An agent's money rows are its ledger: append-only, and checked against the agent's own figures
  // (npm run ledger:check), so an agent the ledger names stays; the refusal says so.
  const ledger = model.name === "agent" && ledgerUses.some((entity) => usedBy.has(entity));
  const titleField = model.titleField;
  const { rows } = await tx.query<{ title: string | null }>(
    `select ${titleField ? `${q(titleField)}::text` : "null"} as title from ${q(model.table)} where id = $1`,
    [used.target],
  );
  const title = rows[0]?.title || unnamed(ctx.lng, model.name);
  if (ledger) throw new HttpError(409, "agentKeepsLedger", { title, uses: used.uses.join(", ") });
  throw new HttpError(409, "inUse", { title, uses: used.uses.join(", ") });
}

// Titles of the records a page of rows points at (x-relation on a column, in a list of ids, or in a
// list of objects such as a channel plan's lanes), so a list shows "Phnom Penh Central" where the row
// holds agent_id 2. One statement per page whatever the number of relations, and unscoped: a title is
// shown to whoever may see the row that points at it (an operator sees its agent's name, an agent its
// superior's), never more than the title. Records in a recycle bin keep their titles; history whose
// record was destroyed shows the title it kept (x-relation.titleCopy).
import type { Queryable } from "../db/db.ts";
import { q } from "../core/sql.ts";
import { modelOf, resolveNode, type EntityModel } from "../model/model.ts";
import type { Row } from "./repository.ts";

/** Target entity → id → title. */
export type Titles = Record<string, Record<number, string>>;

interface Pointer {
  field: string;
  target: string;
  /** Where the ids are: the column itself, a list of ids, or a property of each object in a list. */
  shape: "one" | "many" | { item: string };
  /** History's copy of the title as written (x-relation.titleCopy), shown once the record is gone. */
  copy?: string;
}

const pointersOf = new Map<string, Pointer[]>();

/** Every relation of the entity whose target has a title to show. */
function pointers(model: EntityModel): Pointer[] {
  const cached = pointersOf.get(model.name);
  if (cached) return cached;
  const found: Pointer[] = [];
  const titled = (target: string | undefined): target is string =>
    target !== undefined && modelOf(target).titleField !== undefined;
  for (const field of model.fields.values()) {
    const node = resolveNode(field.node);
    const direct = node["x-relation"]?.entity;
    const items = node.items && !Array.isArray(node.items) ? resolveNode(node.items) : undefined;
    if (items) {
      const listed = items["x-relation"]?.entity ?? direct;
      if (titled(listed)) found.push({ field: field.name, target: listed, shape: "many" });
      for (const [name, child] of Object.entries(items.properties ?? {})) {
        const target = resolveNode(child)["x-relation"]?.entity;
        if (titled(target)) found.push({ field: field.name, target, shape: { item: name } });
      }
    } else if (titled(direct))
      found.push({ field: field.name, target: direct, shape: "one", copy: node["x-relation"]?.titleCopy });
  }
  pointersOf.set(model.name, found);
  return found;
}

/** Adds the id `v` holds, if it holds one. */
function addId(into: Set<number>, v: unknown): void {
  const id = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof id === "number" && Number.isSafeInteger(id)) into.add(id);
}

// No function is made per row here: under tsx (the tests, the bench) each one made is also named at
// run time, 60 µs of an order-list call of 1.7 ms.
function idsIn(value: unknown, shape: Pointer["shape"], into: Set<number>): void {
  if (shape === "one") return addId(into, value);
  if (!Array.isArray(value)) return;
  for (const element of value)
    if (shape === "many") addId(into, element);
    else if (element && typeof element === "object") addId(into, (element as Row)[shape.item]);
}

/** The titles of every record the rows point at, by target entity. */
export async function titlesOf(db: Queryable, model: EntityModel, rows: Row[]): Promise<Titles> {
  const wanted = new Map<string, Set<number>>();
  for (const pointer of pointers(model)) {
    const ids = wanted.get(pointer.target) ?? new Set<number>();
    for (const row of rows) idsIn(row[pointer.field], pointer.shape, ids);
    if (ids.size) wanted.set(pointer.target, ids);
  }
  const titles: Titles = {};
  if (!wanted.size) return titles;
  const values: unknown[] = [];
  const parts = [...wanted].map(([target, ids]) => {
    const t = modelOf(target);
    values.push(target, [...ids]);
    const n = values.length;
    return `select $${n - 1}::text as e, id, ${q(t.titleField!)}::text as t from ${q(t.table)} where id = any($${n}::bigint[])`;
  });
  const { rows: found } = await db.query<{ e: string; id: number | string; t: string | null }>(
    parts.join(" union all "),
    values,
    // Lookups by primary key: one plan fits every id (planning was two thirds of its time).
    { samePlan: true },
  );
  for (const { e, id, t } of found) if (t !== null) (titles[e] ??= {})[Number(id)] = t;
  // History whose record was destroyed reads the title it was written with.
  for (const { field, target, copy } of pointers(model)) {
    if (!copy) continue;
    for (const row of rows) {
      const id = row[field] === null || row[field] === undefined ? NaN : Number(row[field]);
      const kept = row[copy];
      if (kept === null || kept === undefined || !Number.isSafeInteger(id) || titles[target]?.[id] !== undefined)
        continue;
      (titles[target] ??= {})[id] = String(kept);
    }
  }
  return titles;
}

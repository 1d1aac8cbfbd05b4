// The audit trail: every write records who did it, when and what changed (sys_audit), and a record's
// history reads it back for whoever may see the record, in words: the action named, each change as its
// field's label with the value before and after as the screen shows them (a record by its title, a state
// by its label, money as an amount), never a key or an id.
import type { Queryable } from "../db/db.ts";
import { q } from "../core/sql.ts";
import { notFound } from "../core/errors.ts";
import { amountText } from "../core/money.ts";
import { hasTranslation, translate, type Language } from "../core/i18n.ts";
import { currencyOf } from "../db/settings.ts";
import type { RecordHistoryAnswer } from "../../src/generated/types.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import { actionKey, commonFieldKey, enumKey, fieldLabelKey, operationKeyBase } from "../../src/schema/keys.ts";
import { definitionName } from "../../src/schema/refs.ts";
import { scopeOf, sqlOf, type Ctx } from "./context.ts";
import { models, resolveNode, type EntityModel } from "../model/model.ts";
import * as repo from "./repository.ts";
import { wallClock } from "../core/zone.ts";
import { BUSINESS_TIME_ZONE } from "../db/rollups.ts";
import { titlesOf, type Titles } from "./titles.ts";

/** What any record's history may hold: its creation, edits, trips to and from the recycle bin. */
const RECORD_ACTIONS = ["create", "update", "delete", "recycle", "recover", "destroy"] as const;

/**
 * What the domain's calls write into a record's history beside RECORD_ACTIONS and the entity's state
 * actions (x-states), by entity: a call's own name (machine-cup-set) or a word of its own (refund). An
 * action audited that is not declared here is refused (audit throws), so the test over every history
 * kind in five languages (tests/api/words.test.ts) sees every one.
 */
export const DOMAIN_ACTIONS: Record<string, readonly string[]> = {
  agent: ["reset_password"],
  application: ["application-charge-set"],
  delivery_order: ["review"],
  machine: [
    "bind_manage",
    "bind_shop",
    "bind_plan",
    "bind_room",
    "bind_macname",
    "unbind_macname",
    "init",
    "machine-cup-set",
    "machine-baketime-set",
    "machine-towel-set",
    "machine-bg-set",
  ],
  operator_binding: ["operator-unbind-machine"],
  order: ["refund", "check"],
};

/** Every action a record of the entity may have in its history. */
export function historyActions(model: EntityModel): string[] {
  const transitions = [...model.stateFields.values()].flatMap((ts) => ts.map((t) => t.action));
  return [...new Set([...RECORD_ACTIONS, ...transitions, ...(DOMAIN_ACTIONS[model.name] ?? [])])];
}

const declared = new Map<string, Set<string>>();
const isDeclared = (entity: string, action: string): boolean => {
  let actions = declared.get(entity);
  if (!actions) declared.set(entity, (actions = new Set(historyActions(models.get(entity)!))));
  return actions.has(action);
};

export async function audit(
  tx: Queryable,
  ctx: Ctx,
  entity: string,
  recordId: number | null,
  action: string,
  changes: unknown,
): Promise<void> {
  if (!isDeclared(entity, action)) throw new Error(`audit: ${entity} ${action} is not a declared history action`);
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes) values ($1, $2, $3, $4, $5, $6)`,
    [
      ctx.principal.kind,
      ctx.principal.id,
      entity,
      recordId,
      action,
      changes === undefined ? null : JSON.stringify(changes),
    ],
  );
}

/** The same action on many records, audited in one statement. */
export async function auditMany(tx: Queryable, ctx: Ctx, entity: string, ids: number[], action: string): Promise<void> {
  if (!isDeclared(entity, action)) throw new Error(`audit: ${entity} ${action} is not a declared history action`);
  await tx.query(
    `insert into sys_audit (actor_kind, actor_id, entity, record_id, action, changes)
     select $1, $2, $3, unnest($4::bigint[]), $5, null`,
    [ctx.principal.kind, ctx.principal.id, entity, ids, action],
  );
}

/** The key naming an action in a history line: the history's own word, the call's name, or the state action's. */
export function actionLabelKey(entity: string, action: string): string | undefined {
  const operation = operationSchemas[action as keyof typeof operationSchemas];
  const keys = [
    `common:history.${action}`,
    operation ? `${operationKeyBase(operation)}name` : undefined,
    actionKey(entity, action),
  ];
  return keys.find((key) => key !== undefined && hasTranslation(key));
}

/** The key of a changed field's label: the entity's field, the input field of the call audited, or a common one. */
export function changeLabelKey(model: EntityModel, action: string, field: string): string | undefined {
  const operation = operationSchemas[action as keyof typeof operationSchemas];
  const keys = [
    fieldLabelKey(model.base, field),
    operation ? fieldLabelKey(operationKeyBase(operation), field) : undefined,
    commonFieldKey(field),
  ];
  return keys.find((key) => key !== undefined && hasTranslation(key));
}

type Entry = Omit<RecordHistoryAnswer[number], "action_label" | "lines">;
type Line = RecordHistoryAnswer[number]["lines"][number];

/** A stored value as the screen shows it, in the reader's language. */
function valueText(
  model: EntityModel,
  field: string,
  value: unknown,
  lng: Language,
  titles: Titles,
  currency: string | undefined,
): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value === "[redacted]") return translate(lng, "common:history.secret");
  const raw = model.schema.properties[field];
  const node = raw ? resolveNode(raw) : {};
  const items = node.items && !Array.isArray(node.items) ? resolveNode(node.items) : undefined;
  const target = node["x-relation"]?.entity ?? items?.["x-relation"]?.entity;
  const titleOf = (id: unknown) =>
    (target && titles[target]?.[Number(id)]) || translate(lng, "common:history.goneRecord");
  if (Array.isArray(value)) {
    if (target) return value.map(titleOf).join(", ");
    if (value.every((v) => typeof v !== "object" || v === null)) return value.join(", ");
    return translate(lng, "common:history.entries", { count: value.length });
  }
  if (target) return titleOf(value);
  if (typeof value === "object") return translate(lng, "common:history.entries", { count: Object.keys(value).length });
  if (node.enum) return translate(lng, enumKey(model.base, field, String(value), definitionName(raw?.$ref)));
  if (typeof value === "boolean") return translate(lng, value ? "common:yes" : "common:no");
  if (node["x-money"] && typeof value === "number") return amountText(value, lng, currency);
  if (node["x-fraction"] && typeof value === "number") return `${Math.round(value * 10000) / 100} %`;
  // A time at the business's clock, as the lists and exports show it: "2026-11-20 12:30:00".
  if (node.format === "date-time") {
    const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
    if (!Number.isNaN(ms))
      return new Date(wallClock(ms, BUSINESS_TIME_ZONE)).toISOString().slice(0, 19).replace("T", " ");
  }
  return String(value);
}

/**
 * Each entry's changes as [before, after] per field, oldest first: a call that recorded only the value
 * it set (older entries of a binding) takes its "before" from the value the history last set.
 */
function withBefore(entries: Entry[]): Map<Entry, Map<string, [unknown, unknown]>> {
  const known = new Map<string, unknown>();
  const out = new Map<Entry, Map<string, [unknown, unknown]>>();
  for (const entry of [...entries].reverse()) {
    const pairs = new Map<string, [unknown, unknown]>();
    for (const [field, change] of Object.entries(entry.changes ?? {})) {
      const pair: [unknown, unknown] =
        entry.action === "create"
          ? [undefined, change]
          : Array.isArray(change) && change.length === 2
            ? [change[0], change[1]]
            : [known.get(field), change];
      known.set(field, pair[1]);
      pairs.set(field, pair);
    }
    out.set(entry, pairs);
  }
  return out;
}

/** Who changed a record, when, and what: newest first, in words. Needs the right to see the record. */
export async function history(ctx: Ctx, model: EntityModel, id: number): Promise<RecordHistoryAnswer> {
  const record =
    (await repo.findById(sqlOf(ctx), model, scopeOf(ctx.principal), id)) ??
    (model.recycle ? await repo.findById(sqlOf(ctx), model, scopeOf(ctx.principal), id, true) : undefined);
  if (!record) throw notFound();
  const { rows } = await sqlOf(ctx).query<Entry>(
    `select a.id, a.at, a.action, a.changes, a.actor_kind, a.actor_id,
            coalesce(m.nickname, o.nickname, sm.nickname) as actor_name
       from sys_audit a
       left join ${q("agent")} m on a.actor_kind = 'agent' and m.id = a.actor_id
       left join ${q("operator")} o on a.actor_kind = 'operator' and o.id = a.actor_id
       left join ${q("shop_manager")} sm on a.actor_kind = 'manager' and sm.id = a.actor_id
      where a.entity = $1 and a.record_id = $2 order by a.id desc limit 200`,
    [model.name, id],
  );
  return describe(ctx, model, rows);
}

/** History entries in the reader's words (exported for the test over every history kind). */
export async function describe(ctx: Ctx, model: EntityModel, rows: Entry[]): Promise<RecordHistoryAnswer> {
  const lng = ctx.lng;
  const pairs = withBefore(rows);
  // Every record the changes point at, titled in one statement: each value before and after as a row.
  const values = [...pairs.values()].flatMap((fields) =>
    [0, 1].map((side) => Object.fromEntries([...fields].map(([f, pair]) => [f, pair[side]]))),
  );
  const titles = values.length ? await titlesOf(sqlOf(ctx), model, values) : {};
  const money = [...model.fields.values()].some((f) => f.node["x-money"]);
  const currency = money ? await currencyOf(sqlOf(ctx)) : undefined;
  return rows.map((entry) => {
    const labelKey = actionLabelKey(model.name, entry.action);
    const lines: Line[] = [];
    for (const [field, [before, after]] of pairs.get(entry)!) {
      const key = changeLabelKey(model, entry.action, field);
      if (!key) continue; // a value the call kept for itself (no field of the record)
      lines.push({
        field,
        label: translate(lng, key),
        before: valueText(model, field, before, lng, titles, currency),
        after: valueText(model, field, after, lng, titles, currency),
      });
    }
    return {
      ...entry,
      action_label: translate(lng, labelKey ?? "common:history.changed"),
      actor_name: entry.actor_name ?? translate(lng, `common:history.actor.${entry.actor_kind}`),
      lines,
    };
  });
}

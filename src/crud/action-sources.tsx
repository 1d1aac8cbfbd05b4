// Where actions come from (actions.tsx runs them): a record's state transitions (x-states) allowed from
// its state and permitted to the user, and the operations (x-operation) an entity's screens offer at a
// placement (row, bulk, toolbar), permitted and, on a record, allowed by its fields (`when`). Each becomes
// an Action with its words: the confirmation naming the action and the record, its dialog's form and
// what it shows above it, and the success message. A message names the record by its title field and
// fills an action's own words (a template in its namespace) with the record's fields as the screens show
// them (money with its currency, an enum's label, a related record's title) and with what the dialog asked.
import { Alert, Descriptions } from "antd";
import i18n from "i18next";
import type { ReactNode } from "react";
import { api, ApiError, fetchFile } from "../app/api.ts";
import { dataProvider } from "../app/providers/data-provider.ts";
import { racedText } from "./conflict.ts";
import { allowed } from "../app/providers/access-control.ts";
import { operationSchemas } from "../generated/operations.ts";
import { actionKey, entityNameKey } from "../schema/keys.ts";
import type { JsonSchemaOperation, Transition } from "../schema/types.ts";
import type { Action } from "./actions.tsx";
import { FieldValue } from "./field-value.tsx";
import { formSchema, transitionSchema } from "./form-schema.ts";
import { formatDateTime, intlLocale, valueText, type TitleMaps } from "./format.ts";
import { allowedTransitions, holds, operationView, type EntityView, type FormView } from "./model.ts";
import { fetchRelationTitles, useRelationTitles } from "./relations.ts";
import type { ScreenContext } from "./resource.ts";

type Row = Record<string, unknown>;
export type Placement = "row" | "bulk" | "toolbar";

/** The operations placed on an entity's screens at a placement. */
export function operationsOf(entity: string, placement: Placement): JsonSchemaOperation[] {
  return Object.values(operationSchemas).filter(
    (o) =>
      o["x-operation"].entity === entity &&
      (o["x-operation"].ui?.placement === placement || (placement === "bulk" && o["x-operation"].ui?.bulk === true)),
  );
}

/** Those the signed-in user may run (and, on a record, that its state allows). */
export function usableOperations(entity: string, placement: Placement, record?: Row): JsonSchemaOperation[] {
  return operationsOf(entity, placement).filter(
    (o) => allowed(o["x-operation"].permission) && (!record || holds(record, o["x-operation"].ui?.when)),
  );
}

/**
 * The words of a record in messages and titles: its title field's value; without one, its kind and when it
 * was made ("Goods variant · 28 Nov 2026, 14:02"), or its kind alone ("Goods variant without a name").
 */
export function recordTitle(view: EntityView, record: Row): string {
  const title = view.titleField ? record[view.titleField] : undefined;
  if (title !== undefined && title !== null && title !== "") return String(title);
  const entity = i18n.t(entityNameKey(view.name));
  return typeof record.created_at === "string"
    ? `${entity} · ${formatDateTime(record.created_at, language())}`
    : i18n.t("common:record.unnamed", { entity });
}

/** Words to fill a message with (i18next's values; `chosen` holds what a dialog asked). */
export type Words = Record<string, string | number | Record<string, string>>;

const language = () => i18n.resolvedLanguage ?? "en";

/** A record's fields as the screens show them: "$829.00", "Bank transfer", a related record's title. */
export function recordWords(view: FormView, record: Row, titles?: TitleMaps): Record<string, string> {
  const lng = language();
  const words: Record<string, string> = {};
  for (const field of view.fields) words[field.name] = valueText(field, record[field.name], lng, titles);
  return words;
}

/** The titles of both, entity by entity (a list's titles of the records, a picker's of the one chosen). */
function mergedTitles(a: TitleMaps | undefined, b: TitleMaps): TitleMaps {
  const merged: TitleMaps = new Map();
  for (const source of [a ?? new Map(), b])
    for (const [entity, byId] of source) merged.set(entity, new Map([...(merged.get(entity) ?? []), ...byId]));
  return merged;
}

/** How many names a message lists before "and 2 more". */
const LISTED = 3;

/** "VM-01, VM-02 and VM-03", "VM-01, VM-02, VM-03 and 2 more": a few names in the language's way. */
export function listedWords(items: string[]): string {
  const distinct = [...new Set(items)];
  const shown = distinct.slice(0, LISTED);
  if (distinct.length > LISTED) shown.push(i18n.t("common:list.more", { count: distinct.length - LISTED }));
  return new Intl.ListFormat(intlLocale(language()), { type: "conjunction" }).format(shown);
}

/**
 * The words of the record(s) an action acts on: their titles (`title`), how many (`count`), and each field
 * (the values of several records listed, "Agent A and Agent B"), with what the dialog asked as `chosen`.
 */
export function targetWords(
  view: EntityView,
  records: Row[],
  chosen?: { view: FormView; values: Row },
  titles?: TitleMaps,
): Words {
  const words: Words = {};
  const each = records.map((record) => recordWords(view, record, titles));
  for (const field of view.fields) words[field.name] = listedWords(each.map((w) => w[field.name]));
  words.title = listedWords(records.map((record) => recordTitle(view, record)));
  words.count = records.length;
  if (chosen) words.chosen = recordWords(chosen.view, chosen.values, titles);
  return words;
}

/**
 * "Refund order “202611…”?", "Move VM-PP-0012 from Agent A to Agent B?", naming the action and the
 * record(s): the operation's own confirmation when it has one (filled with the records' words and what
 * the dialog asked, its `_chosen` form once every asked field is filled), else the common one.
 */
export function confirmationText(
  view: EntityView,
  action: string,
  target: { records?: Row[]; count?: number },
  own?: { key: string; chosen?: { view: FormView; values: Row; complete: boolean } },
  titles?: TitleMaps,
): string {
  const entity = i18n.t(entityNameKey(view.name));
  const { records } = target;
  if (records?.length) {
    const count = records.length;
    const options = { count, context: own?.chosen?.complete ? "chosen" : undefined };
    if (own && i18n.exists(own.key, options))
      return i18n.t(own.key, { ...targetWords(view, records, own.chosen, titles), ...options });
    if (count === 1)
      return i18n.t("common:confirm.operation", { action, entity, title: recordTitle(view, records[0]) });
    return i18n.t("common:confirm.operationMany", { action, entity, count });
  }
  if (target.count !== undefined)
    return i18n.t("common:confirm.operationMany", { action, entity, count: target.count });
  return i18n.t("common:confirm.operationNone", { action, entity });
}

/**
 * What a success message says: the action's own words filled with the record(s)' (`ownKey`), else
 * "Approve: done for Withdrawal “Kim Sophal”" (or "for 3 Device records"), else "Approve: done". Own words
 * without a record in them serve any target ("Withdrawal requested").
 */
function doneText(
  view: EntityView,
  action: string,
  target: { records: Row[]; count?: number },
  ownKey: string,
  words: () => Words,
): string {
  const { records } = target;
  if (records.length > 0 && i18n.exists(ownKey, { count: records.length }))
    return i18n.t(ownKey, { ...words(), count: records.length });
  // Its text as written (with another prefix nothing is filled in): whether it names a record.
  const raw = i18n.exists(ownKey) ? i18n.t(ownKey, { interpolation: { prefix: "\u0001", suffix: "\u0002" } }) : "";
  if (raw && !raw.includes("{{")) return raw;
  const entity = i18n.t(entityNameKey(view.name));
  const count = records.length || target.count;
  if (records.length === 1)
    return i18n.t("common:messages.actionDoneOn", { action, entity, title: recordTitle(view, records[0]) });
  if (count) return i18n.t("common:messages.actionDoneMany", { action, entity, count });
  return i18n.t("common:messages.actionSuccess", { action });
}

/** An operation's name in the user's language. */
export const operationLabel = (operation: JsonSchemaOperation): string =>
  i18n.t(`${operationView(operation).base}name`);

// ---------------------------------------------------------------- state transitions

/** The record's transitions the user may take now, as actions. */
export function transitionActions(screen: ScreenContext, record: Row): Action[] {
  return allowedTransitions(screen.view, record)
    .filter((tr) => screen.canTransition(tr.action))
    .map((tr) => transitionAction(screen.view, record, tr));
}

function transitionAction(view: EntityView, record: Row, tr: Transition): Action {
  const label = i18n.t(actionKey(view.name, tr.action));
  // A transition may have its own words (common:transitionConfirm / transitionDone.<entity>.<action>),
  // filled from the record before it, and after it from the record it answers and what was asked (an
  // upgrade names its version, an approval the amount and the person).
  const ownKey = (kind: "transitionConfirm" | "transitionDone") => `common:${kind}.${view.name}.${tr.action}`;
  const confirmText = () =>
    i18n.exists(ownKey("transitionConfirm"))
      ? i18n.t(ownKey("transitionConfirm"), targetWords(view, [record]))
      : confirmationText(view, label, { records: [record] });
  const run = async (input: Row) => {
    const answer = await api<Row | null>(tr.call, {
      base: view.x.basePath ?? "/merchant",
      method: "POST",
      body: { id: record.id, action: tr.action, version: record.version, ...input },
    });
    const after = { ...record, ...input, ...(answer ?? {}) };
    const words = () => targetWords(view, [after]);
    return { message: doneText(view, label, { records: [after] }, ownKey("transitionDone"), words) };
  };
  const stateField = [...view.states].find(([, transitions]) => transitions.includes(tr))?.[0];
  // Raced: the record as it is now (gone: a 404) and its history say who moved it on, and when.
  const raced = async () => {
    const id = record.id as number;
    const [now, history] = await Promise.all([
      dataProvider.getOne<Row>({ resource: view.name, id }).then(
        (answer) => answer.data,
        (error: unknown) => (error instanceof ApiError && error.statusCode === 404 ? undefined : Promise.reject(error)),
      ),
      api("record-history", { query: { entity: view.name, id } }).catch(() => []),
    ]);
    return racedText(view, stateField ?? "", record, now, history, language());
  };
  const action: Action = { key: tr.action, label, danger: tr.danger, run, raced };
  if (tr.input?.length) {
    action.dialog = {
      view,
      schema: transitionSchema(view, tr),
      initial: async () => ({}),
      above: tr.confirm && (
        <Alert className="transition-confirm" type={tr.danger ? "warning" : "info"} showIcon message={confirmText()} />
      ),
    };
  } else if (tr.confirm || tr.danger) {
    action.confirm = { text: confirmText(), danger: tr.danger };
  }
  return action;
}

// ---------------------------------------------------------------- operations

/** What a bulk operation says when nothing is selected, where SPEC §8 words it for the entity. */
const NONE_SELECTED: Record<string, string> = { machine: "common:messages.noDevice" };

/**
 * The dialog asks only what the caller chooses: the record(s) it acts on come from the screen, and an
 * optional hidden field (another way to name the record, for other clients) is not asked.
 */
function askedSchema(input: FormView): Row & { properties: Row; required: string[] } {
  const full = formSchema(input, "create");
  const required = ((full.required as string[]) ?? []).filter((f) => f !== "id");
  const properties = Object.fromEntries(
    Object.entries(full.properties as Row).filter(
      ([name]) => name !== "id" && (required.includes(name) || !input.byName.get(name)?.ui.hidden),
    ),
  );
  return { ...full, properties, required };
}

/**
 * An operation on a record (row), on the selected ids (bulk, with the selected records where the screen
 * has them, to name them) or on neither (toolbar). One answering a file fetches it; one with input opens
 * its dialog with the record's summary and the confirmation above, which names what is chosen as it is.
 */
export function operationAction(
  view: EntityView,
  operation: JsonSchemaOperation,
  target: { record?: Row; ids?: number[]; records?: Row[]; titles?: TitleMaps } = {},
): Action {
  const x = operation["x-operation"];
  const ui: NonNullable<typeof x.ui> = x.ui ?? { placement: "none" };
  const input = operationView(operation);
  const label = i18n.t(`${input.base}name`);
  const { record, ids, titles } = target;
  // The records acted on, where known: the row's, or every selected one (else only their count is).
  const selected = ids && target.records?.filter((r) => ids.includes(r.id as number));
  const records = record ? [record] : selected?.length === ids?.length ? (selected ?? []) : [];
  const refused =
    ids !== undefined && ids.length === 0
      ? i18n.t(NONE_SELECTED[view.name] ?? "common:list.noneSelected", { entity: i18n.t(entityNameKey(view.name)) })
      : undefined;
  if (x.answer === "file") {
    return {
      key: operation.$id,
      label,
      refused,
      fileTitle: record ? `${label}: ${recordTitle(view, record)}` : label,
      run: async () => ({ file: await fetchFile(operation.$id, { id: record ? [record.id as number] : ids }) }),
    };
  }
  const run = async (values: Row) => {
    const payload: Row = { ...values };
    if (record) payload.id = record.id;
    if (ids) payload.id = ids;
    await api(operation.$id, {
      base: x.basePath ?? "/merchant",
      method: x.method,
      ...(x.method === "POST" ? { body: payload } : { query: payload as never }),
    });
    // The chosen records' titles ("to Agent B"), asked only where the words name them.
    const words = async () => {
      const chosenTitles = await fetchRelationTitles(input.fields, [values]);
      return targetWords(view, records, { view: input, values }, mergedTitles(titles, chosenTitles));
    };
    const key = `${input.base}success`;
    const own = records.length > 0 && i18n.exists(key, { count: records.length }) ? await words() : undefined;
    return { message: doneText(view, label, { records, count: ids?.length }, key, () => own ?? {}) };
  };
  const confirmKey = `${input.base}confirm`;
  const action: Action = { key: operation.$id, label, danger: ui.danger, refused, run };
  const schema = askedSchema(input);
  const asked = Object.keys(schema.properties);
  if (asked.length === 0) {
    action.confirm = {
      text: confirmationText(view, label, { records, count: ids?.length }, { key: confirmKey }, titles),
      danger: ui.danger,
    };
    return action;
  }
  action.dialog = {
    view: input,
    schema,
    // The dialog's starting values: what ui.load answers for the record (its current settings), the
    // record's own (ui.prefill), or none.
    initial: async () => {
      if (ui.load && record) {
        const loader = operationSchemas[ui.load as keyof typeof operationSchemas];
        const { id: _id, ...loaded } = await api<Row>(ui.load, {
          base: loader["x-operation"].basePath ?? "/merchant",
          query: { id: record.id as number },
        });
        return loaded;
      }
      if (ui.prefill && record)
        return Object.fromEntries(asked.filter((f) => record[f] != null).map((f) => [f, record[f]]));
      return {};
    },
    above: (values) => (
      <>
        {record && ui.summary?.length ? (
          <Descriptions size="small" column={1} bordered className="operation-summary">
            {ui.summary.map((name) => {
              const field = view.byName.get(name);
              return field ? (
                <Descriptions.Item key={name} label={i18n.t(field.label)}>
                  <FieldValue field={field} value={record[name]} />
                </Descriptions.Item>
              ) : null;
            })}
          </Descriptions>
        ) : null}
        {(ui.confirm || ui.danger) && (
          <OperationConfirm
            danger={ui.danger}
            text={(chosenTitles) =>
              confirmationText(
                view,
                label,
                { records, count: ids?.length },
                {
                  key: confirmKey,
                  chosen: {
                    view: input,
                    values,
                    complete: schema.required.every((name) => values[name] != null && values[name] !== ""),
                  },
                },
                mergedTitles(titles, chosenTitles),
              )
            }
            input={input}
            values={values}
          />
        )}
      </>
    ),
  };
  return action;
}

/** An operation's confirmation above its dialog, naming what is chosen in it (its titles asked as needed). */
function OperationConfirm({
  danger,
  text,
  input,
  values,
}: {
  danger?: boolean;
  text: (chosenTitles: TitleMaps) => string;
  input: FormView;
  values: Row;
}): ReactNode {
  const chosenTitles = useRelationTitles(input.fields, [values]);
  return (
    <Alert className="operation-confirm" type={danger ? "warning" : "info"} showIcon message={text(chosenTitles)} />
  );
}

/** A record's actions on its row or detail: its transitions, then the row operations it allows. */
export function recordActions(screen: ScreenContext, record: Row): Action[] {
  return [
    ...transitionActions(screen, record),
    ...usableOperations(screen.view.name, "row", record).map((operation) =>
      operationAction(screen.view, operation, { record }),
    ),
  ];
}

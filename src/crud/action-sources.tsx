// Where actions come from (actions.tsx runs them): a record's state transitions (x-states) allowed from
// its state and permitted to the user, and the operations (x-operation) an entity's screens offer at a
// placement (row, bulk, toolbar), permitted and, on a record, allowed by its fields (`when`). Each becomes
// an Action with its words: the confirmation naming the action and the record, its dialog's form and
// what it shows above it, and the success message.
import { Alert, Descriptions } from "antd";
import i18n from "i18next";
import { api, fetchFile } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import { operationSchemas } from "../generated/operations.ts";
import { actionKey, entityNameKey } from "../schema/keys.ts";
import type { JsonSchemaOperation, Transition } from "../schema/types.ts";
import type { Action } from "./actions.tsx";
import { FieldValue } from "./field-value.tsx";
import { formSchema, transitionSchema } from "./form-schema.ts";
import { valueText } from "./format.ts";
import { allowedTransitions, holds, operationView, type EntityView, type FormView } from "./model.ts";
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

/** The words of a record in messages: its title field's value, or its number. */
export const recordTitle = (view: EntityView, record: Row): string =>
  view.titleField && record[view.titleField] !== undefined && record[view.titleField] !== null
    ? String(record[view.titleField])
    : `#${String(record.id)}`;

/**
 * "Refund order “202611…”?", naming the record and the action: the operation's own confirmation text
 * when it has one (its summary fields and the title offered to it), else the common one.
 */
export function confirmationText(
  view: EntityView,
  action: string,
  target: { record?: Row; count?: number },
  own?: { key: string; fields: string[] },
): string {
  const lng = i18n.resolvedLanguage ?? "en";
  const entity = i18n.t(entityNameKey(view.name));
  if (target.record) {
    const title = recordTitle(view, target.record);
    if (own && i18n.exists(own.key)) {
      const values: Record<string, string> = { title };
      for (const name of own.fields) {
        const field = view.byName.get(name);
        if (field) values[name] = valueText(field, target.record[name], lng);
      }
      return i18n.t(own.key, values);
    }
    return i18n.t("common:confirm.operation", { action, entity, title });
  }
  if (target.count !== undefined)
    return i18n.t("common:confirm.operationMany", { action, entity, count: target.count });
  return i18n.t("common:confirm.operationNone", { action, entity });
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
  // filled from the record before it and from the record it answers (an upgrade names its version).
  const ownText = (kind: "transitionConfirm" | "transitionDone", values: Row) => {
    const key = `common:${kind}.${view.name}.${tr.action}`;
    if (!i18n.exists(key)) return undefined;
    return i18n.t(key, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? "—" : String(v)])));
  };
  const run = async (input: Row) => {
    const answer = await api<Row | null>(tr.call, {
      base: view.x.basePath ?? "/merchant",
      method: "POST",
      body: { id: record.id, action: tr.action, version: record.version, ...input },
    });
    return { message: ownText("transitionDone", answer ?? {}) };
  };
  const action: Action = { key: tr.action, label, danger: tr.danger, run };
  if (tr.input?.length) {
    action.dialog = {
      view,
      schema: transitionSchema(view, tr),
      initial: async () => ({}),
      above: tr.confirm && (
        <Alert
          className="transition-confirm"
          type={tr.danger ? "warning" : "info"}
          showIcon
          message={confirmationText(view, label, { record })}
        />
      ),
    };
  } else if (tr.confirm || tr.danger) {
    action.confirm = {
      text: ownText("transitionConfirm", record) ?? confirmationText(view, label, { record }),
      danger: tr.danger,
    };
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
 * An operation on a record (row), on the selected ids (bulk) or on neither (toolbar). One answering a file
 * fetches it; one with input opens its dialog with the record's summary and the confirmation above.
 */
export function operationAction(
  view: EntityView,
  operation: JsonSchemaOperation,
  target: { record?: Row; ids?: number[] } = {},
): Action {
  const x = operation["x-operation"];
  const ui: NonNullable<typeof x.ui> = x.ui ?? { placement: "none" };
  const input = operationView(operation);
  const label = i18n.t(`${input.base}name`);
  const { record, ids } = target;
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
    return { message: i18n.exists(`${input.base}success`) ? i18n.t(`${input.base}success`) : undefined };
  };
  const confirmText = confirmationText(
    view,
    label,
    { record, count: ids?.length },
    { key: `${input.base}confirm`, fields: ui.summary ?? [] },
  );
  const action: Action = { key: operation.$id, label, danger: ui.danger, refused, run };
  const schema = askedSchema(input);
  const asked = Object.keys(schema.properties);
  if (asked.length === 0) {
    action.confirm = { text: confirmText, danger: ui.danger };
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
    above: (
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
          <Alert className="operation-confirm" type={ui.danger ? "warning" : "info"} showIcon message={confirmText} />
        )}
      </>
    ),
  };
  return action;
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

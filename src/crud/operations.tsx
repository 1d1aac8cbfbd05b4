// Operations on an entity's screens (DESIGN §9): a button for each operation its declaration places on a
// row, on the selected rows or in the toolbar, offered only to users with its permission and, on a row,
// only when the record's fields allow it (`when`). An operation with input opens a dialog generated from
// its input schema, with the record's summary above it; every confirmation names the action and the
// record. Afterwards lists, details, relation titles and histories reload, so the new state shows at once.
import { Alert, App, Button, Descriptions, Space } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import i18n from "i18next";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, fetchFile, saveFile, type ApiError, type FileAnswer } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import { operationSchemas } from "../generated/operations.ts";
import type { JsonSchemaOperation } from "../schema/types.ts";
import { FieldValue } from "./field-value.tsx";
import { valueText } from "./format.ts";
import { holds, operationView, type EntityView } from "./model.ts";
import { formSchema } from "./form-schema.ts";
import { LazySchemaForm } from "./lazy-schema-form.tsx";
import { PageModal } from "./page-modal.tsx";
import { useRefreshAfterAction } from "./refresh.ts";
import { entityNameKey } from "../schema/keys.ts";

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

interface Props {
  view: EntityView;
  operation: JsonSchemaOperation;
  /** A row operation's record. */
  record?: Row;
  /** A bulk operation's selected ids. */
  ids?: number[];
  size?: "small" | "middle";
  type?: "link" | "default" | "primary";
  onDone?: () => void;
  /** Started at once, without a button of its own (chosen from a row's menu); onDismiss when it closes. */
  auto?: boolean;
  onDismiss?: () => void;
}

/** What a bulk operation says when nothing is selected, where SPEC §8 words it for the entity. */
const NONE_SELECTED: Record<string, string> = { machine: "messages.noDevice" };

/** An operation's name in the user's language. */
export const operationLabel = (operation: JsonSchemaOperation): string =>
  i18n.t(`${operationView(operation).base}name`);

/** An operation's button: one answering a file fetches it (an image is shown, anything else saved). */
export function OperationButton(props: Props) {
  return props.operation["x-operation"].answer === "file" ? <FileButton {...props} /> : <InputButton {...props} />;
}

/**
 * A GET answering a file for the record or the selected records (a device's QR code, a ZIP of several):
 * an image opens in a dialog with a download button, any other file is saved at once.
 */
function FileButton({ view, operation, record, ids, size = "small", type = "link", auto, onDismiss }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ file: FileAnswer; url: string }>();
  const base = useMemo(() => operationView(operation).base, [operation]);
  const action = t(`${base}name`);
  const run = async () => {
    setBusy(true);
    try {
      const file = await fetchFile(operation.$id, { id: record ? [record.id as number] : ids });
      if (file.blob.type.startsWith("image/")) setShown({ file, url: URL.createObjectURL(file.blob) });
      else {
        saveFile(file);
        onDismiss?.();
      }
    } catch (error) {
      message.error((error as ApiError).message);
      onDismiss?.();
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    if (shown) URL.revokeObjectURL(shown.url);
    setShown(undefined);
    onDismiss?.();
  };
  const started = useRef(false);
  useEffect(() => {
    if (!auto || started.current) return;
    started.current = true;
    void run();
  });
  const noneSelected = ids !== undefined && ids.length === 0;
  const onClick = () =>
    noneSelected
      ? void message.warning(
          t(NONE_SELECTED[view.name] ?? "list.noneSelected", { entity: t(entityNameKey(view.name)) }),
        )
      : void run();
  return (
    <>
      {!auto && (
        <Button size={size} type={type} loading={busy} onClick={onClick}>
          {action}
        </Button>
      )}
      {shown && (
        <PageModal
          title={record ? `${action}: ${recordTitle(view, record)}` : action}
          onCancel={close}
          destroyOnHidden
          footer={[
            <Button key="close" onClick={close}>
              {t("actions.close")}
            </Button>,
            <Button key="download" type="primary" icon={<DownloadOutlined />} onClick={() => saveFile(shown.file)}>
              {t("actions.download")}
            </Button>,
          ]}
        >
          <div className="operation-file">
            <img src={shown.url} alt={shown.file.name} width={256} height={256} />
            <div>{shown.file.name}</div>
          </div>
        </PageModal>
      )}
    </>
  );
}

function InputButton({ view, operation, record, ids, size = "small", type = "link", onDone, auto, onDismiss }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const refresh = useRefreshAfterAction();
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<ApiError>();
  /** The dialog's starting values: empty, or what ui.load answers for the record (its current settings). */
  const [initial, setInitial] = useState<Row>();
  const x = operation["x-operation"];
  const ui = x.ui!;
  const input = useMemo(() => operationView(operation), [operation]);
  const base = input.base;
  const action = t(`${base}name`);
  // The dialog asks only what the caller chooses: the record(s) it acts on come from the screen, and
  // an optional hidden field (another way to name the record, for other clients) is not asked.
  const schema = useMemo(() => {
    const full = formSchema(input, "create");
    const required = ((full.required as string[]) ?? []).filter((f) => f !== "id");
    const properties = Object.fromEntries(
      Object.entries(full.properties as Row).filter(
        ([name]) => name !== "id" && (required.includes(name) || !input.byName.get(name)?.ui.hidden),
      ),
    );
    return { ...full, properties, required };
  }, [input]);
  const asks = Object.keys(schema.properties as Row).length > 0;
  const confirmText = confirmationText(
    view,
    action,
    { record, count: ids?.length },
    {
      key: `${base}confirm`,
      fields: ui.summary ?? [],
    },
  );

  const run = async (values: Row) => {
    const payload: Row = { ...values };
    if (record) payload.id = record.id;
    if (ids) payload.id = ids;
    await api(operation.$id, {
      base: x.basePath ?? "/merchant",
      method: x.method,
      ...(x.method === "POST" ? { body: payload } : { query: payload as never }),
    });
    message.success(i18n.exists(`${base}success`) ? t(`${base}success`) : t("messages.actionSuccess", { action }));
    await refresh();
    onDone?.();
  };

  const start = async () => {
    if (asks) {
      setErrors(undefined);
      if (ui.load && record) {
        const loader = operationSchemas[ui.load as keyof typeof operationSchemas];
        try {
          const { id: _id, ...loaded } = await api<Row>(ui.load, {
            base: loader["x-operation"].basePath ?? "/merchant",
            query: { id: record.id as number },
          });
          setInitial(loaded);
        } catch (error) {
          message.error((error as ApiError).message);
          onDismiss?.();
          return;
        }
      } else if (ui.prefill && record) {
        const asked = Object.keys(schema.properties as Row);
        setInitial(Object.fromEntries(asked.filter((f) => record[f] != null).map((f) => [f, record[f]])));
      } else setInitial({});
      setOpen(true);
      return;
    }
    modal.confirm({
      title: action,
      content: confirmText,
      okText: action,
      cancelText: t("actions.cancel"),
      okButtonProps: { danger: ui.danger },
      onOk: () => run({}).catch((error: ApiError) => message.error(error.message)),
      afterClose: onDismiss,
    });
  };

  const started = useRef(false);
  useEffect(() => {
    if (!auto || started.current) return;
    started.current = true;
    void start();
  });
  const close = () => {
    setOpen(false);
    onDismiss?.();
  };

  // A bulk operation with nothing selected says so (SPEC §8: "no devices selected").
  const noneSelected = ids !== undefined && ids.length === 0;
  const onClick = () =>
    noneSelected
      ? void message.warning(
          t(NONE_SELECTED[view.name] ?? "list.noneSelected", { entity: t(entityNameKey(view.name)) }),
        )
      : void start();
  return (
    <>
      {!auto && (
        <Button size={size} type={type} danger={ui.danger} onClick={onClick}>
          {action}
        </Button>
      )}
      {open && (
        <PageModal title={action} footer={null} onCancel={close} destroyOnHidden>
          {record && ui.summary?.length ? (
            <Descriptions size="small" column={1} bordered className="operation-summary">
              {ui.summary.map((name) => {
                const field = view.byName.get(name);
                return field ? (
                  <Descriptions.Item key={name} label={t(field.label)}>
                    <FieldValue field={field} value={record[name]} />
                  </Descriptions.Item>
                ) : null;
              })}
            </Descriptions>
          ) : null}
          {(ui.confirm || ui.danger) && (
            <Alert className="operation-confirm" type={ui.danger ? "warning" : "info"} showIcon message={confirmText} />
          )}
          <LazySchemaForm
            view={input}
            schema={schema}
            initial={initial ?? {}}
            serverErrors={errors?.fieldErrors}
            submitText={action}
            onCancel={close}
            onSubmit={async (values) => {
              try {
                await run(values);
                close();
              } catch (error) {
                setErrors(error as ApiError);
                if (!(error as ApiError).fieldErrors.length) message.error((error as Error).message);
              }
            }}
          />
        </PageModal>
      )}
    </>
  );
}

/** Every row operation the user may run on the record. */
export function RowOperations({ view, record, onDone }: { view: EntityView; record: Row; onDone?: () => void }) {
  const operations = usableOperations(view.name, "row", record);
  if (operations.length === 0) return null;
  return (
    <Space size={0} wrap>
      {operations.map((operation) => (
        <OperationButton key={operation.$id} view={view} operation={operation} record={record} onDone={onDone} />
      ))}
    </Space>
  );
}

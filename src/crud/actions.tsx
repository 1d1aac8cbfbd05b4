// One way to run "a button that runs a declared call" (DESIGN §9): a state transition (x-states) and an
// operation (x-operation) both become an Action (action-sources.ts), and one runner takes any of them
// through the same steps: a warning when it cannot start (nothing selected), a confirmation naming the
// action and the record, or a dialog generated from its input (its starting values loaded first where
// the declaration says), the call, its field errors kept in the dialog, the success message, and the
// refresh of lists, details, titles and histories. A file an action answers is shown (an image) or saved.
// A run the network failed is not lost: its dialog stays with what was typed and offers it again, and
// one without a dialog is kept for the offline notice to offer (src/app/not-sent.tsx). A run someone else
// got to first (a transition raced) says what happened to the record, and the screen shows it as it is.
// A list row places its actions itself (list/row-actions.tsx: one button and a "More" menu); bulk bars,
// toolbars, detail screens and the dashboard through ActionButton and ActionButtons.
import { Button, Space, App } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { notSent, saveFile, type ApiError, type FileAnswer } from "../app/api.ts";
import { raceOf } from "./conflict.ts";
import { useKeptAction } from "../app/not-sent.tsx";
import { focusFirstField } from "./first-field.ts";
import { LazySchemaForm } from "./lazy-schema-form.tsx";
import type { EntityView, FormView } from "./model.ts";
import { PageModal } from "./page-modal.tsx";
import { useRefreshAfterAction } from "./refresh.ts";

type Values = Record<string, unknown>;

/** What a call gave back: the success message's words, or a file (nothing reloads after a file). */
export interface ActionOutcome {
  message?: string;
  file?: FileAnswer;
}

/** The form an action asks before it runs. */
export interface ActionDialog {
  view: EntityView | FormView;
  schema: Values;
  /** The starting values (empty, the record's own, or what the declaration's loader answers). */
  initial: () => Promise<Values>;
  /** Shown above the form: the record's summary, the confirmation (naming what is chosen in the form). */
  above?: ReactNode | ((values: Values) => ReactNode);
}

export interface Action {
  /** The transition's action or the operation's call name. */
  key: string;
  label: string;
  danger?: boolean;
  /** A warning instead of a start (a bulk action with nothing selected). */
  refused?: string;
  /** Asked before a run without dialog. */
  confirm?: { text: string; danger?: boolean };
  dialog?: ActionDialog;
  /** Where a file title names the record ("QR code: VM-0001"). */
  fileTitle?: string;
  /**
   * What happened to the record when the run lost a race to someone else (a 409 saying so): in words, from
   * the record as it is now and its history ("Approved by admin2 at 14:02, 3 seconds ago").
   */
  raced?: () => Promise<string>;
  run: (input: Values) => Promise<ActionOutcome>;
}

/**
 * Starts actions and holds what they open (their dialog, the file they answered): `element` is rendered
 * once beside the buttons. `onDone` follows every successful run (a bulk bar clears its selection).
 */
export function useActionRunner(onDone?: () => void) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const refresh = useRefreshAfterAction();
  const [dialog, setDialog] = useState<{ action: Action; initial: Values; errors?: ApiError }>();
  // What the dialog's form holds now (its confirmation may name it).
  const [values, setValues] = useState<Values>({});
  const dialogBody = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState<{ action: Action; file: FileAnswer; url: string }>();
  const [busy, setBusy] = useState<string>();

  const execute = async (action: Action, input: Values) => {
    const outcome = await action.run(input);
    if (outcome.file) {
      const { file } = outcome;
      if (file.blob.type.startsWith("image/")) setShown({ action, file, url: URL.createObjectURL(file.blob) });
      else saveFile(file);
      return;
    }
    message.success(outcome.message ?? t("messages.actionSuccess", { action: action.label }));
    await refresh();
    onDone?.();
  };
  const failed = (error: unknown) => void message.error((error as ApiError).message);
  // Someone else got there first: the screen shows the record as it is now, and the user is told what
  // happened to it, in words, not the bare refusal.
  const raced = (action: Action, error: unknown): boolean => {
    if (!action.raced || !raceOf(error)) return false;
    void (async () => {
      const [text] = await Promise.all([action.raced!().catch(() => (error as ApiError).message), refresh()]);
      modal.warning({
        className: "raced-notice",
        title: t("conflict.racedTitle", { action: action.label }),
        content: `${text} ${t("conflict.racedShown")}`,
        okText: t("actions.close"),
      });
    })();
    return true;
  };
  // Not sent for want of a network: said so, and offered again by the offline notice once it is back.
  const keep = useKeptAction();
  const failedRun = (action: Action) => (error: unknown) => {
    if (raced(action, error)) return;
    if (!notSent(error)) return failed(error);
    void message.warning(t("offline.notSentAction", { action: action.label }));
    keep(() => execute(action, {}).catch(failedRun(action)));
  };

  const start = async (action: Action) => {
    if (action.refused) return void message.warning(action.refused);
    if (action.dialog) {
      try {
        const initial = await action.dialog.initial();
        setValues(initial);
        setDialog({ action, initial });
      } catch (error) {
        failed(error);
      }
      return;
    }
    if (action.confirm) {
      modal.confirm({
        title: action.label,
        content: action.confirm.text,
        okText: action.label,
        cancelText: t("actions.cancel"),
        okButtonProps: { danger: action.confirm.danger },
        onOk: () => execute(action, {}).catch(failedRun(action)),
      });
      return;
    }
    setBusy(action.key);
    await execute(action, {}).catch(failedRun(action));
    setBusy(undefined);
  };

  const closeFile = () => {
    if (shown) URL.revokeObjectURL(shown.url);
    setShown(undefined);
  };
  const open = dialog?.action.dialog;
  const element = (
    <>
      {dialog && open && (
        <PageModal
          title={dialog.action.label}
          footer={null}
          onCancel={() => setDialog(undefined)}
          destroyOnHidden
          // Open: its first field takes the focus from the dialog's frame.
          afterOpenChange={(opened) => opened && focusFirstField(dialogBody.current)}
        >
          <div ref={dialogBody}>
            {typeof open.above === "function" ? open.above(values) : open.above}
            <LazySchemaForm
              view={open.view}
              schema={open.schema}
              initial={dialog.initial}
              focusFirst
              onChange={setValues}
              serverErrors={dialog.errors?.fieldErrors}
              notSent={notSent(dialog.errors)}
              submitText={dialog.action.label}
              onCancel={() => setDialog(undefined)}
              onSubmit={async (values) => {
                try {
                  await execute(dialog.action, values);
                  setDialog(undefined);
                } catch (error) {
                  // Lost to someone else: what was asked no longer applies to the record as it is.
                  if (raced(dialog.action, error)) return setDialog(undefined);
                  setDialog({ ...dialog, errors: error as ApiError });
                  // Field errors are on their fields, a write not sent is said above the buttons.
                  if (!(error as ApiError).fieldErrors?.length && !notSent(error)) failed(error);
                }
              }}
            />
          </div>
        </PageModal>
      )}
      {shown && (
        <PageModal
          title={shown.action.fileTitle ?? shown.action.label}
          onCancel={closeFile}
          destroyOnHidden
          footer={[
            <Button key="close" onClick={closeFile}>
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
  return { start, busy, element };
}

type Runner = ReturnType<typeof useActionRunner>;

/** One action's button, run by a runner its screen holds (a toolbar placing buttons among its own). */
export function ActionButton({
  action,
  runner,
  size = "small",
  type = "link",
}: {
  action: Action;
  runner: Runner;
  size?: "small" | "middle";
  type?: "link" | "default";
}) {
  return (
    <Button
      size={size}
      type={type}
      danger={action.danger}
      loading={runner.busy === action.key}
      onClick={() => void runner.start(action)}
    >
      {action.label}
    </Button>
  );
}

interface ButtonsProps {
  actions: Action[];
  size?: "small" | "middle";
  type?: "link" | "default";
  onDone?: () => void;
}

/** A button for each action, all run by one runner (a row places its own: list/row-actions.tsx). */
export function ActionButtons({ actions, size = "small", type = "link", onDone }: ButtonsProps) {
  const runner = useActionRunner(onDone);
  if (actions.length === 0) return null;
  return (
    <>
      <Space size={4} wrap>
        {actions.map((action) => (
          <ActionButton key={action.key} action={action} runner={runner} size={size} type={type} />
        ))}
      </Space>
      {runner.element}
    </>
  );
}

// A record's state actions (x-states): a button for each transition allowed from its current state
// and permitted to the user. Destructive ones ask first; those with input open a small form.
import { useCustomMutation } from "@refinedev/core";
import { Alert, App, Button, Dropdown, Space } from "antd";
import { DownOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Transition } from "../schema/types.ts";
import { allowedTransitions } from "./model.ts";
import { confirmationText } from "./operations.tsx";
import { PageModal } from "./page-modal.tsx";
import { useRefreshAfterAction } from "./refresh.ts";
import type { ScreenContext } from "./resource.ts";
import { transitionSchema } from "./form-schema.ts";
import { LazySchemaForm } from "./lazy-schema-form.tsx";
import type { ApiError } from "../app/api.ts";
import { actionKey } from "../schema/keys.ts";

interface Props {
  screen: ScreenContext;
  record: Record<string, unknown>;
  size?: "small" | "middle";
  /** Called after a transition succeeded (a detail view reloads its record). */
  onDone?: () => void;
  /** On list rows, several actions fold into a "More" menu to keep rows one line high. */
  compact?: boolean;
  /** Further entries of that menu (a list row's operations). */
  more?: MoreItem[];
}

export interface MoreItem {
  key: string;
  label: string;
  danger?: boolean;
  onClick: () => void;
}

export function StateActions({ screen, record, size = "small", onDone, compact, more = [] }: Props) {
  const { t, i18n } = useTranslation();
  const { modal, message } = App.useApp();
  const refresh = useRefreshAfterAction();
  const { mutateAsync } = useCustomMutation();
  const [inputFor, setInputFor] = useState<Transition>();
  const [serverErrors, setServerErrors] = useState<ApiError>();
  const { view } = screen;
  const transitions = allowedTransitions(view, record).filter((tr) => screen.canTransition(tr.action));
  if (transitions.length === 0 && more.length === 0) return null;
  const actionLabel = (tr: Transition) => t(actionKey(view.name, tr.action));

  // A transition may have its own words (common:transitionConfirm / transitionDone.<entity>.<action>),
  // filled from the record before it and from the record it answers (an upgrade names its version).
  const ownText = (kind: "transitionConfirm" | "transitionDone", tr: Transition, values: Record<string, unknown>) => {
    const key = `${kind}.${view.name}.${tr.action}`;
    if (!i18n.exists(key)) return undefined;
    const texts = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v == null ? "—" : String(v)]));
    return t(key, texts);
  };

  const run = async (tr: Transition, input: Record<string, unknown> = {}) => {
    const answer = await mutateAsync({
      url: tr.call,
      method: "post",
      values: { id: record.id, action: tr.action, version: record.version, ...input },
      meta: { base: view.x.basePath ?? "/merchant" },
      successNotification: false,
      errorNotification: false,
    });
    message.success(
      ownText("transitionDone", tr, (answer.data ?? {}) as Record<string, unknown>) ??
        t("messages.actionSuccess", { action: actionLabel(tr) }),
    );
    await refresh();
    onDone?.();
  };

  const onClick = (tr: Transition) => {
    if (tr.input?.length) {
      setServerErrors(undefined);
      setInputFor(tr);
      return;
    }
    const go = () =>
      run(tr).catch((error: ApiError) => {
        message.error(error.message);
      });
    if (tr.confirm || tr.danger) {
      modal.confirm({
        title: actionLabel(tr),
        content: ownText("transitionConfirm", tr, record) ?? confirmationText(view, actionLabel(tr), { record }),
        okText: actionLabel(tr),
        cancelText: t("actions.cancel"),
        okButtonProps: { danger: tr.danger },
        onOk: go,
      });
    } else void go();
  };

  return (
    <>
      {compact && transitions.length + more.length > 2 ? (
        <Dropdown
          trigger={["click"]}
          menu={{
            items: [
              ...transitions.map((tr) => ({
                key: tr.action,
                label: actionLabel(tr),
                danger: tr.danger,
                onClick: () => onClick(tr),
              })),
              ...more.map(({ onClick: choose, ...item }) => ({ ...item, onClick: () => choose() })),
            ],
          }}
        >
          <Button size={size} type="link" icon={<DownOutlined />} iconPosition="end">
            {t("actions.more")}
          </Button>
        </Dropdown>
      ) : (
        <Space size={4} wrap>
          {transitions.map((tr) => (
            <Button key={tr.action} size={size} type="link" danger={tr.danger} onClick={() => onClick(tr)}>
              {actionLabel(tr)}
            </Button>
          ))}
          {more.map((item) => (
            <Button key={item.key} size={size} type="link" danger={item.danger} onClick={item.onClick}>
              {item.label}
            </Button>
          ))}
        </Space>
      )}
      {inputFor && (
        <PageModal title={actionLabel(inputFor)} footer={null} onCancel={() => setInputFor(undefined)} destroyOnHidden>
          {inputFor.confirm && (
            <Alert
              className="transition-confirm"
              type={inputFor.danger ? "warning" : "info"}
              showIcon
              message={confirmationText(view, actionLabel(inputFor), { record })}
            />
          )}
          <LazySchemaForm
            view={view}
            schema={transitionSchema(view, inputFor)}
            initial={{}}
            serverErrors={serverErrors?.fieldErrors}
            submitText={actionLabel(inputFor)}
            onCancel={() => setInputFor(undefined)}
            onSubmit={async (input) => {
              try {
                await run(inputFor, input);
                setInputFor(undefined);
              } catch (error) {
                setServerErrors(error as ApiError);
                if (!(error as ApiError).fieldErrors.length) message.error((error as Error).message);
              }
            }}
          />
        </PageModal>
      )}
    </>
  );
}

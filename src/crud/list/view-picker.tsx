// The toolbar's saved views: the picker (all records, or one of the user's views and those shared with
// them), "Save view" (a name, whether it opens with the list, whether an agent's sub-agents see it), and
// for the user's own view in use: save the list's changes to it, make it the default or not, delete it
// (asked first).
import { DeleteOutlined, MoreOutlined, SaveOutlined, ShareAltOutlined, StarOutlined } from "@ant-design/icons";
import { App, Button, Checkbox, Dropdown, Form, Input, Modal, Select, Space, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../app/api.ts";
import { currentSession } from "../../app/session.ts";
import type { SavedView } from "../../generated/types.ts";
import type { SavedViewsState, StoredView } from "./saved-views.ts";

interface Props {
  state: SavedViewsState;
  /** The list as it is now, as a view keeps it. */
  snapshot: () => Partial<SavedView>;
  /** On a phone "Save view" is its icon alone (the toolbar keeps to one line). */
  phone: boolean;
}

const ALL = 0;
/** Only an agent shares a view (with the agents below it). */
const sharer = () => currentSession()?.user.kind === "agent";

export function ViewPicker({ state, snapshot, phone }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [saving, setSaving] = useState(false);
  const { current } = state;
  const failed = (error: ApiError) => void message.error(error.message);

  const label = (view: StoredView) => (
    <span className="view-option">
      {view.name}
      {view.is_default && view.mine !== false && <Tag className="view-tag">{t("views.default")}</Tag>}
      {view.shared && <Tag className="view-tag">{t("views.shared")}</Tag>}
    </span>
  );
  const options = [
    { value: ALL, label: t("views.none") },
    ...state.views.map((view) => ({ value: view.id, label: label(view), title: view.name })),
  ];
  const confirmDelete = (view: StoredView) =>
    modal.confirm({
      title: t("views.deleteTitle", { name: view.name }),
      content: t("views.deleteText"),
      okText: t("views.delete"),
      okButtonProps: { danger: true },
      cancelText: t("actions.cancel"),
      onOk: () => state.remove(view).catch(failed),
    });
  const own = current && current.mine !== false ? current : undefined;
  const agent = sharer();
  const actions = own && {
    items: [
      { key: "update", icon: <SaveOutlined />, label: t("views.updateCurrent", { name: own.name }) },
      { key: "default", icon: <StarOutlined />, label: t(own.is_default ? "views.unsetDefault" : "views.setDefault") },
      ...(agent
        ? [{ key: "share", icon: <ShareAltOutlined />, label: t(own.shared ? "views.stopSharing" : "views.share") }]
        : []),
      { key: "delete", icon: <DeleteOutlined />, danger: true, label: t("views.delete") },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === "delete") return confirmDelete(own);
      const change =
        key === "update" ? snapshot() : key === "share" ? { shared: !own.shared } : { is_default: !own.is_default };
      state
        .update(own, change)
        .then(() => message.success(t("views.saved", { name: own.name })))
        .catch(failed);
    },
  };
  return (
    <Space.Compact className="view-picker">
      <Select
        className="view-select"
        aria-label={t("views.label")}
        value={current?.id ?? ALL}
        loading={state.loading}
        options={options}
        labelRender={({ value }) => (value === ALL ? t("views.none") : current?.name)}
        popupMatchSelectWidth={false}
        onChange={(id: number) => state.choose(state.views.find((view) => view.id === id))}
      />
      <Button
        icon={<SaveOutlined />}
        aria-label={t("views.save")}
        title={t("views.save")}
        onClick={() => setSaving(true)}
      >
        {phone ? null : t("views.save")}
      </Button>
      {actions && (
        <Dropdown menu={actions} trigger={["click"]}>
          <Button icon={<MoreOutlined />} aria-label={t("views.more")} title={t("views.more")} />
        </Dropdown>
      )}
      {saving && (
        <SaveViewDialog
          onClose={() => setSaving(false)}
          onSave={(values) =>
            state.save({ ...snapshot(), ...values }).then((made) => {
              void message.success(t("views.saved", { name: made.name }));
              setSaving(false);
            })
          }
        />
      )}
    </Space.Compact>
  );
}

interface SaveValues {
  name: string;
  is_default: boolean;
  shared: boolean;
}

/** "Save view": its name, whether the list opens with it, and (an agent's) whether its sub-agents see it. */
function SaveViewDialog({ onClose, onSave }: { onClose: () => void; onSave: (values: SaveValues) => Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SaveValues>();
  const [busy, setBusy] = useState(false);
  const agent = sharer();
  const submit = (values: SaveValues) => {
    setBusy(true);
    onSave({ ...values, name: values.name.trim() })
      .catch((error: ApiError) => form.setFields([{ name: "name", errors: [error.message] }]))
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open
      title={t("views.saveTitle")}
      okText={t("views.save")}
      cancelText={t("actions.cancel")}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ is_default: false, shared: false }} onFinish={submit}>
        <Form.Item
          name="name"
          label={t("views.name")}
          rules={[{ required: true, whitespace: true, max: 60, message: t("views.nameNeeded") }]}
        >
          <Input autoFocus maxLength={60} />
        </Form.Item>
        <Form.Item name="is_default" valuePropName="checked" noStyle>
          <Checkbox>{t("views.makeDefault")}</Checkbox>
        </Form.Item>
        {agent && (
          <Form.Item name="shared" valuePropName="checked" noStyle>
            <Checkbox className="view-share">{t("views.share")}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

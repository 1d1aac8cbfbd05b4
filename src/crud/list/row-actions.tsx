// A row's actions: open and edit it, its state actions and operations (one "More" menu past two, so rows
// stay one line high), restore it and delete it, each destructive one asked first, naming the record.
import { UndoOutlined } from "@ant-design/icons";
import { Button, Popconfirm, Space } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { entityNameKey } from "../../schema/keys.ts";
import { recordActions, recordTitle } from "../action-sources.tsx";
import { ActionButtons } from "../actions.tsx";
import type { ScreenContext } from "../resource.ts";
import type { ListAccess } from "./access.ts";
import type { ListCommands } from "./commands.ts";
import type { Row } from "./use-entity-list.ts";

const fillPath = (path: string, id: number) => path.replace(":id", String(id));

interface Props {
  screen: ScreenContext;
  recycle: boolean;
  row: Row;
  can: ListAccess;
  commands: ListCommands;
  /** After a state action or an operation succeeded. */
  onDone: () => void;
}

export function RowActions({ screen, recycle, row, can, commands, onDone }: Props) {
  const { t } = useTranslation();
  const { view, resource } = screen;
  /** A confirmation's words for one record: its entity and title ("Goods “Lay's Classic 50g”"). */
  const named = { entity: t(entityNameKey(view.name)), title: recordTitle(view, row) };
  return (
    <Space size={0} className="row-actions">
      {can.show && (
        <Link to={fillPath(resource.show!, row.id)}>
          <Button size="small" type="link">
            {t("actions.show")}
          </Button>
        </Link>
      )}
      {can.edit && (
        <Link to={fillPath(resource.edit!, row.id)}>
          <Button size="small" type="link">
            {t("actions.edit")}
          </Button>
        </Link>
      )}
      {!recycle && <ActionButtons actions={recordActions(screen, row, can.rowOperations)} compact onDone={onDone} />}
      {can.restore && (
        <Popconfirm
          title={t("confirm.restoreOne", named)}
          okText={t("actions.restore")}
          cancelText={t("actions.cancel")}
          onConfirm={() => commands.restore([row.id])}
        >
          <Button size="small" type="link" icon={<UndoOutlined />}>
            {t("actions.restore")}
          </Button>
        </Popconfirm>
      )}
      {can.remove && (
        <Popconfirm
          title={t(can.permanent ? "confirm.destroyOne" : "confirm.deleteOne", named)}
          okText={t(can.permanent ? "actions.destroy" : "actions.delete")}
          cancelText={t("actions.cancel")}
          okButtonProps={{ danger: true }}
          onConfirm={() => commands.remove([row.id], recycle)}
        >
          <Button size="small" type="link" danger>
            {t(can.permanent ? "actions.destroy" : "actions.delete")}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

// The list's toolbar: add, import (for an entity that declares one), the toolbar's operations, the selected
// rows' operations and commands (with their count), then the saved views, export (as filtered and sorted),
// the columns' chooser and refresh. On a phone, where rows are cards without checkboxes, the bulk buttons are
// left out.
import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, UndoOutlined } from "@ant-design/icons";
import type { CrudFilter, CrudSort } from "@refinedev/core";
import { App, Button, Space, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { ApiError } from "../../app/api.ts";
import { downloadList } from "../../app/providers/data-provider.ts";
import { operationAction } from "../action-sources.tsx";
import { ActionButton, useActionRunner } from "../actions.tsx";
import type { TitleMaps } from "../format.ts";
import type { ScreenContext } from "../resource.ts";
import type { ListAccess } from "./access.ts";
import type { ListCommands } from "./commands.ts";
import { ImportButton } from "./import-button.tsx";

interface Props {
  screen: ScreenContext;
  can: ListAccess;
  phone: boolean;
  selected: number[];
  /** The rows on screen and the titles of what they point at: a bulk action's words name the selected. */
  rows: Record<string, unknown>[];
  titles: TitleMaps;
  clearSelection: () => void;
  commands: ListCommands;
  /** The list as shown, for its export. */
  filters: CrudFilter[];
  sorters: CrudSort[];
  onRefresh: () => void;
  /** The columns' chooser, where the list is a table. */
  columnChooser?: ReactNode;
  /** The saved views' picker. */
  viewPicker?: ReactNode;
}

export function ListToolbar({
  screen,
  can,
  phone,
  selected,
  rows,
  titles,
  clearSelection,
  commands,
  filters,
  sorters,
  onRefresh,
  columnChooser,
  viewPicker,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const toolbarRunner = useActionRunner();
  const bulkRunner = useActionRunner(clearSelection);
  const { view, resource } = screen;
  const bulk = selected.length > 0;
  return (
    <div className="list-toolbar">
      <Space wrap>
        {can.add && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(resource.create!)}>
            {t("actions.create")}
          </Button>
        )}
        {can.import && <ImportButton view={view} onClosed={onRefresh} />}
        {can.toolbar.map((operation) => (
          <ActionButton
            key={operation.$id}
            action={operationAction(view, operation)}
            runner={toolbarRunner}
            type="default"
            size="middle"
          />
        ))}
        {!phone &&
          can.bulk.map((operation) => (
            <ActionButton
              key={operation.$id}
              action={operationAction(view, operation, { ids: selected, records: rows, titles })}
              runner={bulkRunner}
              type="default"
              size="middle"
            />
          ))}
        {can.restore && !phone && (
          <Button icon={<UndoOutlined />} disabled={!bulk} onClick={() => commands.confirmBulk("restore", selected)}>
            {t("actions.restore")}
          </Button>
        )}
        {can.remove && !phone && (
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={!bulk}
            onClick={() => commands.confirmBulk(can.permanent ? "destroy" : "delete", selected)}
          >
            {t(can.permanent ? "actions.destroy" : "actions.delete")}
          </Button>
        )}
        {bulk && <Typography.Text type="secondary">{t("list.selected", { count: selected.length })}</Typography.Text>}
      </Space>
      {toolbarRunner.element}
      {bulkRunner.element}
      <Space wrap>
        {viewPicker}
        {can.export && (
          <Button
            icon={<DownloadOutlined />}
            onClick={() =>
              downloadList(view.x.calls.export!, filters, sorters).catch((e: ApiError) => message.error(e.message))
            }
          >
            {t("actions.export")}
          </Button>
        )}
        {columnChooser}
        <Button icon={<ReloadOutlined />} aria-label={t("actions.refresh")} onClick={onRefresh} />
      </Space>
    </div>
  );
}

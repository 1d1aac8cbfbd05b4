// A row's actions, as one button and a "More" menu (an icon, named for screen readers and on hover), so
// the action column stays narrow and never covers the row's data in any language: the row's primary
// action (its first state transition, the decision it waits for; else edit; else its first operation,
// such as an order's Refund; else details; in the recycle bin, restore; an entity may name its own,
// x-entity.rowAction, as a device's rows are opened rather than switched) on the row, everything else
// under More (details, edit, the other transitions, the operations, delete). Declared actions run
// through the one action runner; restore and delete, the list's own commands, are asked first, naming
// the record.
import { EllipsisOutlined } from "@ant-design/icons";
import { App, Button, Dropdown } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { entityNameKey } from "../../schema/keys.ts";
import { operationAction, recordTitle, transitionActions, usableOperations } from "../action-sources.tsx";
import { useActionRunner, type Action } from "../actions.tsx";
import type { ScreenContext } from "../resource.ts";
import type { ListAccess } from "./access.ts";
import type { ListCommands } from "./commands.ts";
import type { Row } from "./use-entity-list.ts";

const fillPath = (path: string, id: number) => path.replace(":id", String(id));

/** One thing a row offers: a page to open (a link, for a new browser tab too) or something to start. */
interface RowItem {
  key: string;
  label: string;
  danger?: boolean;
  to?: string;
  start?: () => void;
}

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
  const { modal } = App.useApp();
  const runner = useActionRunner(onDone);
  const { view, resource } = screen;
  /** A confirmation's words for one record: its entity and title ("Goods “Lay's Classic 50g”"). */
  const named = { entity: t(entityNameKey(view.name)), title: recordTitle(view, row) };
  const ask = (kind: "restore" | "delete" | "destroy", run: () => Promise<unknown>) =>
    modal.confirm({
      title: t(`actions.${kind}`),
      content: t(`confirm.${kind}One`, named),
      okText: t(`actions.${kind}`),
      cancelText: t("actions.cancel"),
      okButtonProps: { danger: kind !== "restore" },
      onOk: run,
    });

  const transitions = recycle ? [] : transitionActions(screen, row);
  const operations =
    recycle || !can.rowOperations
      ? []
      : usableOperations(view.name, "row", row).map((operation) => operationAction(view, operation, { record: row }));
  const fromAction = (action: Action): RowItem => ({
    key: action.key,
    label: action.label,
    danger: action.danger,
    start: () => void runner.start(action),
  });
  const show: RowItem | false = can.show && {
    key: "show",
    label: t("actions.show"),
    to: fillPath(resource.show!, row.id),
  };
  const edit: RowItem | false = can.edit && {
    key: "edit",
    label: t("actions.edit"),
    to: fillPath(resource.edit!, row.id),
  };
  const restore: RowItem | false = can.restore && {
    key: "restore",
    label: t("actions.restore"),
    start: () => ask("restore", () => commands.restore([row.id])),
  };
  const removal = can.permanent ? "destroy" : "delete";
  const remove: RowItem | false = can.remove && {
    key: removal,
    label: t(`actions.${removal}`),
    danger: true,
    start: () => ask(removal, () => commands.remove([row.id], recycle)),
  };
  const items = [...transitions.map(fromAction), show, edit, ...operations.map(fromAction), restore, remove].filter(
    (item): item is RowItem => !!item,
  );
  const primary =
    (recycle && restore) ||
    items.find((item) => item.key === view.x.rowAction) ||
    items.find((item) => item.key !== "show" && item !== remove) ||
    items[0];
  if (!primary) return null;
  const more = items.filter((item) => item !== primary);
  return (
    <div className="row-actions">
      {primary.to ? (
        <Link to={primary.to}>
          <Button size="small" type="link" className="row-actions-primary" title={primary.label}>
            {primary.label}
          </Button>
        </Link>
      ) : (
        <Button
          size="small"
          type="link"
          className="row-actions-primary"
          danger={primary.danger}
          title={primary.label}
          onClick={primary.start}
        >
          {primary.label}
        </Button>
      )}
      {more.length > 0 && (
        <Dropdown
          trigger={["click"]}
          menu={{
            items: more.map((item) => ({
              key: item.key,
              label: item.to ? <Link to={item.to}>{item.label}</Link> : item.label,
              danger: item.danger,
              onClick: item.start,
            })),
          }}
        >
          <Button
            size="small"
            type="link"
            className="row-actions-more"
            icon={<EllipsisOutlined />}
            aria-label={t("actions.more")}
            title={t("actions.more")}
          />
        </Dropdown>
      )}
      {runner.element}
    </div>
  );
}

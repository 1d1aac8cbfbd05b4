// The generated list of an entity (and its recycle bin): filters from x-ui, columns with formatted
// values, sort, the pager of SPEC §2, row actions the user may take in the record's state, bulk
// delete / restore / destroy, and export where the entity has an export call.
import { useDeleteMany, useCustomMutation, useTable, type CrudFilter, type CrudSort } from "@refinedev/core";
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Grid,
  List,
  Popconfirm,
  Space,
  Table,
  Typography,
  type TableColumnsType,
  type TableProps,
} from "antd";
import type { Breakpoint } from "antd/es/_util/responsiveObserver";
import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, UndoOutlined } from "@ant-design/icons";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { ApiError, download } from "../app/api.ts";
import { listQuery } from "../app/providers/data-provider.ts";
import { FieldValue } from "./field-value.tsx";
import { formatDateTime, type TitleMaps } from "./format.ts";
import { failureWords, LoadFailure } from "./record-state.tsx";
import { FilterBar } from "./filter-bar.tsx";
import { fromCrudFilters, toCrudFilters } from "./filters.ts";
import { useRelationTitles, type AnswerTitles } from "./relations.ts";
import { useScreen, type ScreenContext } from "./resource.ts";
import type { EntityView, FieldView } from "./model.ts";
import { StateActions } from "./state-actions.tsx";
import { useRefreshAfterAction } from "./refresh.ts";
import { usePageShownNow } from "../app/page-shown.ts";
import { OperationButton, operationLabel, recordTitle, usableOperations } from "./operations.tsx";
import { entityNameKey } from "../schema/keys.ts";

type Row = Record<string, unknown> & { id: number };

export const PAGE_SIZES = [10, 20, 30, 40];

/** What a call paused for want of a network reads as. */
const OFFLINE = new ApiError(0, "");

const fillPath = (path: string, id: number) => path.replace(":id", String(id));

/**
 * A column's priority (x-ui.priority): 1 for key columns, always shown; the title and the state are key
 * columns unless the schema says otherwise; anything else is 2.
 */
export function priorityOf(view: EntityView, field: FieldView): 1 | 2 | 3 {
  return field.ui.priority ?? (field.name === view.titleField || view.states.has(field.name) ? 1 : 2);
}

/** Where a column of each priority shows: 2 from 1200 px wide, 3 from 1600 px. */
const SHOWN_FROM: Record<1 | 2 | 3, Breakpoint[] | undefined> = { 1: undefined, 2: ["xl"], 3: ["xxl"] };

export function ListScreen({ resource: identifier }: { resource: string }) {
  const screen = useScreen(identifier);
  const recycle = screen.resource.meta.screen === "recycle";
  return <EntityList key={identifier} screen={screen} recycle={recycle} />;
}

function EntityList({ screen, recycle }: { screen: ScreenContext; recycle: boolean }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { view, resource } = screen;
  const shownNow = usePageShownNow();
  // On a phone the rows are cards with their key fields, not a table scrolled sideways.
  const phone = Grid.useBreakpoint().md === false;
  const fixed = Object.entries(resource.meta.filter ?? {}).map(([field, value]): CrudFilter => ({
    field,
    operator: Array.isArray(value) ? "in" : "eq",
    value,
  }));
  const defaultSort = view.x.defaultSort ?? { field: "id", order: "desc" };
  const initialSort = (resource.meta.sort ?? [defaultSort]) as CrudSort[];
  const table = useTable<Row, ApiError>({
    resource: view.name,
    meta: { call: recycle ? "recycleList" : resource.meta.listCall },
    pagination: { pageSize: PAGE_SIZES[0] },
    sorters: { initial: initialSort },
    filters: { permanent: fixed, defaultBehavior: "replace" },
    syncWithLocation: true,
    // A list kept hidden for its tab (src/app/layout/kept-pages.tsx) is not refreshed after an action
    // elsewhere (refresh.ts), nor rendered; shown again, it fetches what went stale.
    queryOptions: { placeholderData: (previous) => previous, meta: { shown: shownNow } },
    errorNotification: (error) => ({ type: "error", message: error?.message ?? "" }),
  });
  const rows = table.result.data as Row[];
  const answerTitles = (table.tableQuery.data as { titles?: AnswerTitles } | undefined)?.titles;
  const titles = useRelationTitles(view.columns, rows, answerTitles, shownNow);
  const [selected, setSelected] = useState<number[]>([]);
  const { mutateAsync: deleteMany } = useDeleteMany();
  const { mutateAsync: recover } = useCustomMutation();

  const fixedFields = new Set(Object.keys(resource.meta.filter ?? {}));
  const userFilters = table.filters.filter((f) => !("field" in f && fixedFields.has(f.field)));
  const filterValues = useMemo(() => fromCrudFilters(view, userFilters), [view, JSON.stringify(userFilters)]);

  const refresh = useRefreshAfterAction();
  // Rows on screen that are the ones asked for stay as they are while they reload in the background (a
  // switch back to the list, the refresh after an action) and are replaced when the answer comes: the
  // spinner is for rows not yet there (a first load, another page, other filters) and for a reload the
  // user asked for.
  const [reloading, setReloading] = useState(false);
  const reload = (load: () => Promise<unknown>) => {
    setReloading(true);
    void load().finally(() => setReloading(false));
  };
  const done = async (key: string, count: number) => {
    message.success(t(key, { count }));
    setSelected([]);
    await refresh();
  };
  const fail = (error: ApiError) => message.error(error.message);

  const remove = (ids: number[], destroy: boolean) =>
    deleteMany({
      resource: view.name,
      ids,
      meta: { call: destroy ? "destroy" : "delete" },
      successNotification: false,
      errorNotification: false,
    }).then(() => done("messages.deleteSuccess", ids.length), fail);

  const restore = (ids: number[]) =>
    recover({
      url: view.x.calls.recover!,
      method: "post",
      values: { id: ids },
      successNotification: false,
      errorNotification: false,
    }).then(() => done("messages.restoreSuccess", ids.length), fail);

  const confirmBulk = (kind: "delete" | "destroy" | "restore") => {
    const ids = [...selected];
    modal.confirm({
      title: t("confirm.title"),
      content: t(`confirm.${kind}`, { count: ids.length }),
      okText: t(`actions.${kind}`),
      cancelText: t("actions.cancel"),
      okButtonProps: { danger: kind !== "restore" },
      onOk: () => (kind === "restore" ? restore(ids) : remove(ids, recycle)),
    });
  };

  const canShow = !recycle && screen.can("detail") && resource.show;
  const canEdit = !recycle && screen.can("update") && resource.edit;
  const canDelete = recycle ? screen.can("destroy") : screen.can("delete");
  // Entities without a recycle bin (categories, banners, ...) delete for good: the words say so.
  const permanent = recycle || !view.x.recycle;
  const canRestore = recycle && screen.can("recover");
  const toolbarOps = recycle ? [] : usableOperations(view.name, "toolbar");
  const bulkOps = recycle ? [] : usableOperations(view.name, "bulk");
  const rowOps = recycle ? false : usableOperations(view.name, "row").length > 0;
  const hasActions = canShow || canEdit || canDelete || canRestore || view.states.size > 0 || rowOps;

  const keyTime = view.columns.some((f) => f.kind === "datetime" && priorityOf(view, f) === 1);
  const columns: TableColumnsType<Row> = [
    { title: t("fields.id"), dataIndex: "id", key: "id", width: 80, sorter: true, fixed: "left" },
    ...view.columns.map((field) => ({
      title: t(field.label),
      dataIndex: field.name,
      key: field.name,
      width: field.ui.width,
      responsive: SHOWN_FROM[priorityOf(view, field)],
      sorter: field.ui.sortable === true,
      sortOrder: sortOrderOf(table.sorters, field.name),
      render: (value: unknown) => <FieldValue field={field} value={value} titles={titles} />,
    })),
    recycle
      ? {
          title: t("fields.deleted_at"),
          dataIndex: "deleted_at",
          key: "deleted_at",
          render: (v: string) =>
            v ? <span className="cell-date">{formatDateTime(v, i18n.resolvedLanguage)}</span> : "-",
        }
      : {
          title: t("fields.created_at"),
          dataIndex: "created_at",
          key: "created_at",
          // Where a time of the record's own is a key column (an order's time), the creation time matters less.
          responsive: SHOWN_FROM[keyTime ? 3 : 2],
          sorter: true,
          sortOrder: sortOrderOf(table.sorters, "created_at"),
          render: (v: string) =>
            v ? <span className="cell-date">{formatDateTime(v, i18n.resolvedLanguage)}</span> : "-",
        },
  ];
  /** A confirmation's words for one record: its entity and title ("Goods “Lay's Classic 50g”"). */
  const named = (row: Row) => ({ entity: t(entityNameKey(view.name)), title: recordTitle(view, row) });
  const rowActions = (row: Row) => (
    <Space size={0} className="row-actions">
      {canShow && (
        <Link to={fillPath(resource.show!, row.id)}>
          <Button size="small" type="link">
            {t("actions.show")}
          </Button>
        </Link>
      )}
      {canEdit && (
        <Link to={fillPath(resource.edit!, row.id)}>
          <Button size="small" type="link">
            {t("actions.edit")}
          </Button>
        </Link>
      )}
      {!recycle && <RowActions screen={screen} record={row} operations={rowOps} onDone={() => setSelected([])} />}
      {canRestore && (
        <Popconfirm
          title={t("confirm.restoreOne", named(row))}
          okText={t("actions.restore")}
          cancelText={t("actions.cancel")}
          onConfirm={() => restore([row.id])}
        >
          <Button size="small" type="link" icon={<UndoOutlined />}>
            {t("actions.restore")}
          </Button>
        </Popconfirm>
      )}
      {canDelete && (
        <Popconfirm
          title={t(permanent ? "confirm.destroyOne" : "confirm.deleteOne", named(row))}
          okText={t(permanent ? "actions.destroy" : "actions.delete")}
          cancelText={t("actions.cancel")}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove([row.id], recycle)}
        >
          <Button size="small" type="link" danger>
            {t(permanent ? "actions.destroy" : "actions.delete")}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
  if (hasActions) {
    columns.push({
      title: t("fields.action"),
      key: "actions",
      fixed: "right",
      render: (_: unknown, row: Row) => rowActions(row),
    });
  }

  const onTableChange: TableProps<Row>["onChange"] = (pagination, _filters, sorter, extra) => {
    if (extra.action === "sort") {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      table.setSorters(
        one?.order ? [{ field: String(one.columnKey), order: one.order === "ascend" ? "asc" : "desc" }] : initialSort,
      );
    }
    if (extra.action === "paginate") {
      if (pagination.pageSize && pagination.pageSize !== table.pageSize) {
        table.setPageSize(pagination.pageSize);
        table.setCurrentPage(1);
      } else if (pagination.current) table.setCurrentPage(pagination.current);
    }
  };

  const total = table.result.total ?? 0;
  // A failed load says why, with a retry, instead of an empty table's "No data".
  // Offline, react-query pauses the call instead of failing it (and resumes it once back online).
  const paused = table.tableQuery.fetchStatus === "paused";
  const failed = table.tableQuery.isError || paused;
  const shownFailure = paused ? OFFLINE : table.tableQuery.error;
  const failedWords = failureWords(shownFailure, "failure.other");
  const failure = <LoadFailure error={shownFailure} onRetry={() => reload(() => table.tableQuery.refetch())} />;
  const query = table.tableQuery;
  const loading = query.isFetching && (reloading || query.isPlaceholderData || query.data === undefined);
  const exact = (table.tableQuery.data as { totalExact?: boolean } | undefined)?.totalExact !== false;
  const bulk = selected.length > 0;
  const canAdd = !recycle && screen.can("add") && resource.create;
  const canExport = !recycle && screen.can("export");
  const pagination = {
    current: table.currentPage,
    pageSize: table.pageSize,
    total,
    pageSizeOptions: PAGE_SIZES,
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (n: number) => t(exact ? "pager.total" : "pager.approx", { total: n }),
  };

  return (
    <Card className="screen-card" variant="borderless">
      <FilterBar
        name={`filter_${resource.identifier}`}
        view={view}
        values={filterValues}
        fixed={[...fixedFields]}
        onChange={(values) => {
          table.setFilters(toCrudFilters(view, values), "replace");
          table.setCurrentPage(1);
        }}
      />
      <div className="list-toolbar">
        <Space wrap>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(resource.create!)}>
              {t("actions.create")}
            </Button>
          )}
          {toolbarOps.map((operation) => (
            <OperationButton key={operation.$id} view={view} operation={operation} type="default" size="middle" />
          ))}
          {!phone &&
            bulkOps.map((operation) => (
              <OperationButton
                key={operation.$id}
                view={view}
                operation={operation}
                ids={selected}
                type="default"
                size="middle"
                onDone={() => setSelected([])}
              />
            ))}
          {canRestore && !phone && (
            <Button icon={<UndoOutlined />} disabled={!bulk} onClick={() => confirmBulk("restore")}>
              {t("actions.restore")}
            </Button>
          )}
          {canDelete && !phone && (
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={!bulk}
              onClick={() => confirmBulk(permanent ? "destroy" : "delete")}
            >
              {t(permanent ? "actions.destroy" : "actions.delete")}
            </Button>
          )}
          {bulk && <Typography.Text type="secondary">{t("list.selected", { count: selected.length })}</Typography.Text>}
        </Space>
        <Space>
          {canExport && (
            <Button
              icon={<DownloadOutlined />}
              onClick={() =>
                download(view.x.calls.export!, listQuery(table.filters, table.sorters)).catch((e: ApiError) =>
                  message.error(e.message),
                )
              }
            >
              {t("actions.export")}
            </Button>
          )}
          <Button icon={<ReloadOutlined />} aria-label={t("actions.refresh")} onClick={() => reload(refresh)} />
        </Space>
      </div>
      {failed && rows.length > 0 && (
        // The last rows stay for reading; the refresh that failed says why above them.
        <Alert
          className="load-failure-alert"
          type="warning"
          showIcon
          message={t(failedWords.title)}
          description={failedWords.text ? t(failedWords.text) : shownFailure?.message}
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={() => reload(() => table.tableQuery.refetch())}>
              {t("actions.retry")}
            </Button>
          }
        />
      )}
      {phone ? (
        <List<Row>
          className="list-cards"
          dataSource={rows}
          loading={loading}
          locale={failed ? { emptyText: failure } : undefined}
          pagination={{
            ...pagination,
            size: "small",
            showQuickJumper: false,
            onChange: (page, size) => {
              if (size !== table.pageSize) {
                table.setPageSize(size);
                table.setCurrentPage(1);
              } else table.setCurrentPage(page);
            },
          }}
          renderItem={(row) => (
            <List.Item key={row.id}>
              <RowCard view={view} row={row} titles={titles} actions={hasActions ? rowActions(row) : undefined} />
            </List.Item>
          )}
        />
      ) : (
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={loading}
          onChange={onTableChange}
          scroll={{ x: "max-content" }}
          rowSelection={
            canDelete || canRestore || bulkOps.length > 0
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys as number[]),
                  preserveSelectedRowKeys: false,
                }
              : undefined
          }
          locale={failed ? { emptyText: failure } : undefined}
          pagination={pagination}
        />
      )}
    </Card>
  );
}

/** A row on a phone: its title and number, its key fields (priority 1), then its actions. */
function RowCard({
  view,
  row,
  titles,
  actions,
}: {
  view: EntityView;
  row: Row;
  titles: TitleMaps;
  actions?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const key = view.columns.filter((f) => priorityOf(view, f) === 1 && f.name !== view.titleField);
  const shown = key.length ? key : view.columns.filter((f) => f.name !== view.titleField).slice(0, 3);
  return (
    <Card
      size="small"
      className="row-card"
      title={
        view.titleField ? (
          <FieldValue field={view.byName.get(view.titleField)!} value={row[view.titleField]} titles={titles} />
        ) : (
          `#${row.id}`
        )
      }
      extra={view.titleField ? <Typography.Text type="secondary">#{row.id}</Typography.Text> : undefined}
    >
      <Descriptions size="small" column={1} colon={false} className="row-card-fields">
        {shown.map((field) => (
          <Descriptions.Item key={field.name} label={t(field.label)}>
            <FieldValue field={field} value={row[field.name]} titles={titles} />
          </Descriptions.Item>
        ))}
      </Descriptions>
      {actions && <div className="row-card-actions">{actions}</div>}
    </Card>
  );
}

function sortOrderOf(sorters: CrudSort[], field: string): "ascend" | "descend" | null {
  const sorter = sorters.find((s) => s.field === field);
  return sorter ? (sorter.order === "asc" ? "ascend" : "descend") : null;
}

/**
 * A row's state actions and operations, folded into one "More" menu when there are more than two, so
 * rows stay one line high; the operation chosen from the menu opens its dialog or confirmation.
 */
function RowActions({
  screen,
  record,
  operations,
  onDone,
}: {
  screen: ScreenContext;
  record: Row;
  operations: boolean;
  onDone: () => void;
}) {
  const [active, setActive] = useState<string>();
  const usable = operations ? usableOperations(screen.view.name, "row", record) : [];
  const chosen = usable.find((o) => o.$id === active);
  return (
    <>
      <StateActions
        screen={screen}
        record={record}
        compact
        more={usable.map((o) => ({
          key: o.$id,
          label: operationLabel(o),
          danger: o["x-operation"].ui?.danger,
          onClick: () => setActive(o.$id),
        }))}
      />
      {chosen && (
        <OperationButton
          key={chosen.$id}
          view={screen.view}
          operation={chosen}
          record={record}
          auto
          onDone={onDone}
          onDismiss={() => setActive(undefined)}
        />
      )}
    </>
  );
}

// The generated list of an entity (and its recycle bin): filters from x-ui, columns with formatted
// values, sort, the pager of SPEC §2, row actions the user may take in the record's state, bulk
// delete / restore / destroy, and export where the entity has an export call. Its parts are in list/:
// the state (use-entity-list.ts), what the user may do (access.ts), the columns, the toolbar, a row's
// actions and, on a phone, a row's card.
import { Alert, Button, Card, Grid, List, Table, Tag } from "antd";
import { ReloadOutlined } from "@ant-design/icons";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LIST_COUNT_CAP } from "../schema/constants.ts";
import { failureWords, LoadFailure } from "./record-state.tsx";
import { FilterBar } from "./filter-bar.tsx";
import { toCrudFilters } from "./filters.ts";
import { useScreen, type ScreenContext } from "./resource.ts";
import { useTimeZone } from "./time-zone.ts";
import { useRefreshAfterAction } from "./refresh.ts";
import { listAccess } from "./list/access.ts";
import { ColumnChooser, useColumnChoice } from "./list/column-choice.tsx";
import { listColumns } from "./list/columns.tsx";
import { ListEmpty } from "./list/empty-state.tsx";
import { RESIZABLE_HEADER, resizable } from "./list/resizable-header.tsx";
import { entityNameKey } from "../schema/keys.ts";
import { useListCommands } from "./list/commands.ts";
import { RowActions } from "./list/row-actions.tsx";
import { RowCard } from "./list/row-card.tsx";
import { ListToolbar } from "./list/toolbar.tsx";
import { applyView, useSavedViews, viewOfList } from "./list/saved-views.ts";
import { ViewPicker } from "./list/view-picker.tsx";
import { PAGE_SIZES, useEntityList, type Row } from "./list/use-entity-list.ts";

export { PAGE_SIZES };

export function ListScreen({ resource: identifier }: { resource: string }) {
  const screen = useScreen(identifier);
  const recycle = screen.resource.meta.screen === "recycle";
  return <EntityList key={identifier} screen={screen} recycle={recycle} />;
}

function EntityList({ screen, recycle }: { screen: ScreenContext; recycle: boolean }) {
  const { t, i18n } = useTranslation();
  useTimeZone(); // the time columns' headers name the zone once the settings bring it
  const { view, resource } = screen;
  // On a phone the rows are cards with their key fields, not a table scrolled sideways.
  const phone = Grid.useBreakpoint().md === false;
  const list = useEntityList(screen, recycle);
  const { table, rows, titles, selected, setSelected } = list;
  const clearSelection = () => setSelected([]);
  const refresh = useRefreshAfterAction();
  const commands = useListCommands(view, recycle, clearSelection);
  const can = listAccess(screen, recycle);

  // A row removed from the page elsewhere says so where its actions were (they would act on nothing).
  const rowActions = (row: Row) =>
    list.gone.has(row.id) ? (
      <Tag className="row-gone-tag">{t("live.gone")}</Tag>
    ) : can.rowActions ? (
      <RowActions screen={screen} recycle={recycle} row={row} can={can} commands={commands} onDone={clearSelection} />
    ) : null;
  const withActions = can.rowActions || list.gone.size > 0;
  const columnChoice = useColumnChoice(resource.identifier);
  const allColumns = listColumns({
    view,
    recycle,
    sorters: table.sorters,
    titles,
    t,
    lng: i18n.resolvedLanguage,
    actions: withActions ? rowActions : undefined,
  });
  // Each header's edge drags the column's width, as the chooser sets it.
  const columns = resizable(columnChoice.apply(allColumns), columnChoice.setWidth, (column) =>
    t("list.width", { column }),
  );
  // Saved views: the default one opens with a list whose address has no filters; what a view names that the
  // list no longer has is left out and said.
  const [bare] = useState(() => Object.keys(list.filterValues).length === 0);
  const [missing, setMissing] = useState<string[]>([]);
  const filterable = new Set(view.filters.map((field) => field.name));
  const savedViews = useSavedViews(resource.identifier, bare, (chosen) =>
    setMissing(applyView(chosen, list, columnChoice, allColumns, filterable)),
  );
  const missingNames = missing.map((name) => {
    const field = view.byName.get(name);
    return field ? t(field.label) : name;
  });
  // A failed load says why, with a retry, instead of an empty table's "No data".
  const failedWords = failureWords(list.failure, "failure.other");
  const failure = <LoadFailure error={list.failure} onRetry={list.retry} />;
  const applyFilters = (values: Record<string, unknown>) => {
    table.setFilters(toCrudFilters(view, values), "replace");
    table.setCurrentPage(1);
  };
  // An empty list says what is empty, and offers to clear the filters that emptied it.
  const empty = {
    emptyText: list.failed ? (
      failure
    ) : (
      <ListEmpty
        entity={view.name}
        recycle={recycle}
        filtered={Object.keys(list.filterValues).length > 0}
        onClearFilters={() => applyFilters({})}
      />
    ),
  };
  // An estimate may be above the rows there are: the pager then reaches only the pages the server counted
  // (LIST_COUNT_CAP rows and one), and "Count exactly" asks for the true total and every page.
  const total = table.result.total ?? 0;
  const pagination = {
    current: table.currentPage,
    pageSize: table.pageSize,
    total: list.exact ? total : Math.min(total, LIST_COUNT_CAP + 1),
    pageSizeOptions: PAGE_SIZES,
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: () =>
      list.exact ? (
        t("pager.total", { total })
      ) : (
        <span className="pager-estimate">
          {t("pager.approx", { total })}{" "}
          <Button type="link" size="small" onClick={list.countExactly}>
            {t("pager.countExactly")}
          </Button>
        </span>
      ),
  };

  // The phone's page number is typed on the number pad, Enter going to it (antd's input says neither).
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const input = card.current?.querySelector(".list-cards .ant-pagination-simple-pager input");
    input?.setAttribute("inputmode", "numeric");
    input?.setAttribute("enterkeyhint", "go");
  });

  return (
    <Card ref={card} className="screen-card" variant="borderless">
      <FilterBar
        name={`filter_${resource.identifier}`}
        view={view}
        values={list.filterValues}
        fixed={[...list.fixedFields]}
        onChange={applyFilters}
      />
      <ListToolbar
        screen={screen}
        can={can}
        phone={phone}
        selected={selected}
        rows={rows}
        titles={titles}
        clearSelection={clearSelection}
        commands={commands}
        filters={table.filters}
        sorters={table.sorters}
        onRefresh={() => list.reload(refresh)}
        columnChooser={phone ? undefined : <ColumnChooser columns={allColumns} state={columnChoice} />}
        viewPicker={
          <ViewPicker state={savedViews} phone={phone} snapshot={() => viewOfList(list, columnChoice, allColumns)} />
        }
      />
      {missing.length > 0 && (
        <Alert
          className="view-missing"
          type="warning"
          showIcon
          closable
          onClose={() => setMissing([])}
          message={t("views.missing", { fields: missingNames.join(", ") })}
        />
      )}
      {list.failed && rows.length > 0 && (
        // The last rows stay for reading; the refresh that failed says why above them.
        <Alert
          className="load-failure-alert"
          type="warning"
          showIcon
          message={t(failedWords.title)}
          description={failedWords.text ? t(failedWords.text) : list.failure?.message}
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={list.retry}>
              {t("actions.retry")}
            </Button>
          }
        />
      )}
      {list.fresh.length > 0 && (
        // New rows are announced, not slipped in above the ones being read.
        <Alert
          className="live-fresh"
          type="info"
          showIcon
          message={t("live.fresh", {
            count: list.fresh.length,
            entity: t(entityNameKey(view.name)),
          })}
          action={
            <Button size="small" type="primary" onClick={list.showFresh}>
              {t("live.showFresh")}
            </Button>
          }
        />
      )}
      {phone ? (
        <List<Row>
          className="list-cards"
          dataSource={rows}
          loading={list.loading}
          locale={empty}
          pagination={{
            ...pagination,
            size: "small",
            showQuickJumper: false,
            // The page as "2 / 32" between Previous and Next: page numbers a finger can tap take more room
            // than a phone's line (src/app/theme.ts).
            simple: true,
            onChange: (page, size) => {
              if (size !== table.pageSize) {
                table.setPageSize(size);
                table.setCurrentPage(1);
              } else table.setCurrentPage(page);
            },
          }}
          renderItem={(row) => (
            <List.Item key={row.id} className={list.gone.has(row.id) ? "row-gone" : undefined}>
              <RowCard view={view} row={row} titles={titles} actions={withActions ? rowActions(row) : undefined} />
            </List.Item>
          )}
        />
      ) : (
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          components={RESIZABLE_HEADER}
          dataSource={rows}
          loading={list.loading}
          onChange={list.onTableChange}
          rowClassName={(row) => (list.gone.has(row.id) ? "row-gone" : "")}
          // As wide as the screen: the text wraps or is cut (with a tooltip) before the table scrolls, so
          // the action column, fixed on the right, never stands over the row's data.
          scroll={{ x: true }}
          rowSelection={
            can.select
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys as number[]),
                  getCheckboxProps: (row) => ({ disabled: list.gone.has(row.id) }),
                  preserveSelectedRowKeys: false,
                }
              : undefined
          }
          locale={empty}
          pagination={pagination}
        />
      )}
    </Card>
  );
}

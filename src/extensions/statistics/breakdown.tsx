// A statistics view's breakdown: one row per device, goods item or outlet with its figures, paged and
// ordered on the server. A table on a wide screen (every figure column sortable); on a phone a card per
// row, its name and outlet above its figures, and the order chosen above the cards, so no figure is ever
// pushed out of sight.
import { Grid, List, Select, Space, Table, Typography } from "antd";
import type { SortOrder } from "antd/es/table/interface";
import { useTranslation } from "react-i18next";
import type { Answer, Dimension, Figure } from "./views.ts";

export type BreakdownRow = Answer["breakdown"]["list"][number] & Record<string, unknown>;

export const PAGE_SIZE = 10;

interface Props {
  by: Dimension;
  figures: Figure[];
  rows: BreakdownRow[];
  total: number;
  page: number;
  sort: string;
  order: "asc" | "desc";
  loading: boolean;
  format: (figure: Figure, value: number) => string;
  onPage: (page: number) => void;
  onSort: (sort: string, order: "asc" | "desc") => void;
}

export function Breakdown(props: Props) {
  const { by, figures, rows, total, page, sort, order, loading, format, onPage, onSort } = props;
  const { t } = useTranslation("statistics");
  const phone = Grid.useBreakpoint().md === false;
  const nameOf = (row: BreakdownRow) => row.name ?? t(by === "shop" && row.id === null ? "noOutlet" : "unnamed");
  const outletOf = (row: BreakdownRow) => (row.outlet as string | null) ?? t("noOutlet");
  const pagination = {
    current: page,
    pageSize: PAGE_SIZE,
    total,
    showSizeChanger: false,
    hideOnSinglePage: true,
    onChange: onPage,
  };

  if (phone)
    return (
      <Space direction="vertical" size={8} style={{ width: "100%" }}>
        <Select
          aria-label={t("sortBy")}
          className="statistics-sort"
          value={`${sort}:${order}`}
          onChange={(value: string) => {
            const [key, direction] = value.split(":");
            onSort(key, direction as "asc" | "desc");
          }}
          options={figures.flatMap((f) =>
            (["desc", "asc"] as const).map((direction) => ({
              value: `${f.key}:${direction}`,
              label: t(`sortOrder.${direction}`, { figure: t(`figures.${f.key}`) }),
            })),
          )}
        />
        <List<BreakdownRow>
          className="statistics-cards"
          loading={loading}
          dataSource={rows}
          locale={{ emptyText: t("empty") }}
          pagination={total > PAGE_SIZE ? { ...pagination, size: "small", align: "center" } : false}
          rowKey={(row) => String(row.id ?? "none")}
          renderItem={(row) => (
            <List.Item className="statistics-card">
              <div className="statistics-card-name">
                <Typography.Text strong>{nameOf(row)}</Typography.Text>
                {by === "machine" && <Typography.Text type="secondary">{outletOf(row)}</Typography.Text>}
              </div>
              <dl className="figure-pairs">
                {figures.map((f) => (
                  <div key={f.key}>
                    <dt>{t(`figures.${f.key}`)}</dt>
                    <dd className="cell-number">{format(f, Number(row[f.key] ?? 0))}</dd>
                  </div>
                ))}
              </dl>
            </List.Item>
          )}
        />
      </Space>
    );

  return (
    <Table<BreakdownRow>
      rowKey={(row) => String(row.id ?? "none")}
      size="middle"
      loading={loading}
      dataSource={rows}
      scroll={{ x: "max-content" }}
      locale={{ emptyText: t("empty") }}
      pagination={pagination}
      onChange={(_pagination, _filters, sorter, extra) => {
        if (extra.action !== "sort") return;
        const one = Array.isArray(sorter) ? sorter[0] : sorter;
        // A third click on a column would clear its order: the server always orders, so it turns instead.
        const direction = one?.order === "ascend" ? "asc" : one?.order === "descend" ? "desc" : undefined;
        if (typeof one?.columnKey === "string") onSort(one.columnKey, direction ?? (order === "desc" ? "asc" : "desc"));
      }}
      columns={[
        {
          key: "name",
          title: t(`dimension.${by}`),
          dataIndex: "name",
          ellipsis: { showTitle: true },
          render: (_: unknown, row) => nameOf(row),
        },
        ...(by === "machine"
          ? [
              {
                key: "outlet",
                title: t("dimension.shop"),
                dataIndex: "outlet",
                ellipsis: { showTitle: true },
                render: (_: unknown, row: BreakdownRow) =>
                  row.outlet ? outletOf(row) : <Typography.Text type="secondary">{outletOf(row)}</Typography.Text>,
              },
            ]
          : []),
        ...figures.map((figure) => ({
          key: figure.key,
          title: t(`figures.${figure.key}`),
          dataIndex: figure.key,
          align: "right" as const,
          className: "cell-number",
          sorter: true,
          sortDirections: ["descend", "ascend"] as SortOrder[],
          sortOrder: (sort === figure.key ? (order === "asc" ? "ascend" : "descend") : null) as SortOrder | undefined,
          render: (value: number) => format(figure, value ?? 0),
        })),
      ]}
    />
  );
}

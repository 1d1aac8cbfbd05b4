// A record's related records on its detail screen (x-entity.related): the other entity's list, filtered
// to those that point at this record, with that entity's columns (less the field that points here), a
// page at a time. Shown only to users who may list the other entity.
import { useQuery } from "@tanstack/react-query";
import { Card, Table, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../app/api.ts";
import { FieldValue } from "./field-value.tsx";
import { entityView } from "./model.ts";
import { useRelationTitles } from "./relations.ts";
import { mayList, relatedQuery, type RelatedProps, type Row } from "./related-query.ts";
import { entityNameKey } from "../schema/keys.ts";

export function RelatedList({ entity, field, id }: RelatedProps) {
  const { t } = useTranslation(entity);
  const view = entityView(entity);
  const [page, setPage] = useState(1);
  const may = mayList(entity);
  const query = useQuery({
    ...relatedQuery(entity, field, id, page),
    enabled: may,
    placeholderData: (previous) => previous,
  });
  const columns = view.columns.filter((c) => c.name !== field);
  const rows = query.data?.list ?? [];
  const titles = useRelationTitles(columns, rows, query.data?.titles);
  if (!may) return null;
  const tableColumns: TableColumnsType<Row> = columns.map((column) => ({
    title: t(column.label),
    dataIndex: column.name,
    key: column.name,
    render: (value: unknown) => <FieldValue field={column} value={value} titles={titles} />,
  }));
  return (
    <Card
      className="screen-card related-list"
      variant="borderless"
      title={
        <span>
          {t(entityNameKey(entity))}{" "}
          {query.data && <Typography.Text type="secondary">({query.data.total})</Typography.Text>}
        </span>
      }
    >
      {query.error && !query.data ? (
        <Typography.Text type="danger">{(query.error as ApiError).message}</Typography.Text>
      ) : (
        <Table<Row>
          rowKey="id"
          size="small"
          columns={tableColumns}
          dataSource={rows}
          loading={query.isFetching}
          scroll={{ x: "max-content" }}
          pagination={{
            current: page,
            pageSize: 10,
            total: query.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
        />
      )}
    </Card>
  );
}

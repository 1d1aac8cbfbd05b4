// A record's related records on its detail screen (x-entity.related): the other entity's list, filtered
// to those that point at this record, with that entity's columns (less the field that points here), a
// page at a time. Shown only to users who may list the other entity.
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { Card, Table, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, type ApiError } from "../app/api.ts";
import { allowed } from "../app/providers/access-control.ts";
import type { EntityName } from "../generated/types.ts";
import { permissionOfCall } from "../schema/permissions.ts";
import { FieldValue } from "./field-value.tsx";
import { entityView } from "./model.ts";
import { WITH_RECORD_FRESH_MS } from "./refresh.ts";
import { useRelationTitles, type AnswerTitles } from "./relations.ts";
import { entityNameKey } from "../schema/keys.ts";

type Row = Record<string, unknown> & { id: number };

interface Props {
  entity: EntityName;
  /** The field of the related entity that holds this record's id. */
  field: string;
  id: number;
}

/** A page of the records of `entity` whose `field` points at the record `id`. */
const relatedQuery = (entity: EntityName, field: string, id: number, page: number) => {
  const view = entityView(entity);
  return queryOptions({
    queryKey: ["related", entity, field, id, page],
    queryFn: () =>
      api<{ list: Row[]; total: number; titles?: AnswerTitles }>(view.x.calls.list!, {
        base: view.x.basePath ?? "/merchant",
        query: { [field]: id, page, limit: 10 },
      }),
    staleTime: WITH_RECORD_FRESH_MS,
  });
};

const mayList = (entity: EntityName) => allowed(permissionOfCall(entity, "list"));

/** Asks for the first page of a related list along with the record (the list is shown once it has come). */
export function prefetchRelated(client: QueryClient, { entity, field, id }: Props): void {
  if (mayList(entity)) void client.prefetchQuery(relatedQuery(entity, field, id, 1));
}

export function RelatedList({ entity, field, id }: Props) {
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
      {query.error ? (
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

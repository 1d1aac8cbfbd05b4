// A list of objects in a detail view (packages, lanes, tiers): one row per object, a column per property,
// each cell a FieldValue. A module of its own (field-value.tsx loads it when one is shown), so that a screen
// showing values but no such list (an operator's home) does not download antd's Table.
import { Table } from "antd";
import { useTranslation } from "react-i18next";
import { FieldValue } from "./field-value.tsx";
import type { FieldView } from "./model.ts";
import type { TitleMaps } from "./format.ts";

const ROW_KEY = "\u0000row";

export function SubTable({
  field,
  rows,
  titles,
}: {
  field: FieldView;
  rows: Record<string, unknown>[];
  titles?: TitleMaps;
}) {
  const { t } = useTranslation();
  return (
    <Table<Record<string, unknown>>
      className="sub-table"
      size="small"
      pagination={false}
      rowKey={ROW_KEY}
      dataSource={rows.map((row, index) => ({ ...row, [ROW_KEY]: index }))}
      scroll={{ x: "max-content" }}
      columns={field.children!.map((child) => ({
        key: child.name,
        dataIndex: child.name,
        title: t(child.label),
        render: (value: unknown) => <FieldValue field={child} value={value} titles={titles} />,
      }))}
    />
  );
}

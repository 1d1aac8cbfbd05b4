// A row on a phone: its title and number, its key fields (priority 1), then its actions.
import { Card, Descriptions, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FieldValue } from "../field-value.tsx";
import type { TitleMaps } from "../format.ts";
import type { EntityView } from "../model.ts";
import { priorityOf } from "./columns.tsx";
import type { Row } from "./use-entity-list.ts";

export function RowCard({
  view,
  row,
  titles,
  actions,
}: {
  view: EntityView;
  row: Row;
  titles: TitleMaps;
  actions?: ReactNode;
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

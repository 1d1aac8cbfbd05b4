// A row on a phone: its title, its key fields (priority 1) and the time the list is ordered by, then its
// actions. The record's id is no word for a user: a record without a title is named by its entity.
import { Card, Descriptions } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FieldValue } from "../field-value.tsx";
import type { TitleMaps } from "../format.ts";
import { holds, type EntityView } from "../model.ts";
import { entityNameKey } from "../../schema/keys.ts";
import { priorityOf, timeLabel } from "./columns.tsx";
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
  const chosen = key.length ? key : view.columns.filter((f) => f.name !== view.titleField).slice(0, 3);
  // The time the list is ordered by (a record's time, a collection's) is on the card too.
  const sortedBy = view.byName.get(view.x.defaultSort?.field ?? "");
  const timed =
    sortedBy && (sortedBy.kind === "datetime" || sortedBy.kind === "date") && !chosen.includes(sortedBy)
      ? [...chosen, sortedBy]
      : chosen;
  // A field of other records (a vending device's stock on a dryer) is left off.
  const shown = timed.filter((f) => holds(row, f.ui.when));
  return (
    <Card
      size="small"
      className="row-card"
      title={
        view.titleField ? (
          <FieldValue field={view.byName.get(view.titleField)!} value={row[view.titleField]} titles={titles} />
        ) : (
          t(entityNameKey(view.name))
        )
      }
    >
      <Descriptions size="small" column={1} colon={false} className="row-card-fields">
        {shown.map((field) => (
          <Descriptions.Item
            key={field.name}
            label={field.kind === "datetime" ? timeLabel(t, t(field.label)) : t(field.label)}
          >
            <FieldValue field={field} value={row[field.name]} titles={titles} />
          </Descriptions.Item>
        ))}
      </Descriptions>
      {actions && <div className="row-card-actions">{actions}</div>}
    </Card>
  );
}

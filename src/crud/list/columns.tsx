// The list's table columns: the schema's list columns (x-ui.column) in order with their formatted
// values, the creation time (or, in the recycle bin, the deletion time), the id, and the actions.
// A column shows from a width its priority allows, so a narrow screen keeps the key columns.
import type { CrudSort } from "@refinedev/core";
import type { TableColumnsType } from "antd";
import type { Breakpoint } from "antd/es/_util/responsiveObserver";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { DateTimeText, FieldValue } from "../field-value.tsx";
import type { TitleMaps } from "../format.ts";
import { holds, type EntityView, type FieldView } from "../model.ts";
import { zoneNote } from "../time-zone.ts";
import type { Row } from "./use-entity-list.ts";

/**
 * A column's priority (x-ui.priority): 1 for key columns, always shown; the title and the state are key
 * columns unless the schema says otherwise; anything else is 2.
 */
export function priorityOf(view: EntityView, field: FieldView): 1 | 2 | 3 {
  return field.ui.priority ?? (field.name === view.titleField || view.states.has(field.name) ? 1 : 2);
}

/**
 * A time field's label, with the zone its times are in when it is not the reader's: "Order time (UTC+7)".
 * Said in words where the times are (a column's header, a card's or a detail's label), not on hover only.
 */
export function timeLabel(t: TFunction, label: string): string {
  const zone = zoneNote();
  return zone ? t("list.timeInZone", { label, zone }) : label;
}

/** Where a column of each priority shows: 2 from 1200 px wide, 3 from 1600 px. */
const SHOWN_FROM: Record<1 | 2 | 3, Breakpoint[] | undefined> = { 1: undefined, 2: ["xl"], 3: ["xxl"] };

function sortOrderOf(sorters: CrudSort[], field: string): "ascend" | "descend" | null {
  const sorter = sorters.find((s) => s.field === field);
  return sorter ? (sorter.order === "asc" ? "ascend" : "descend") : null;
}

interface Options {
  view: EntityView;
  recycle: boolean;
  sorters: CrudSort[];
  titles: TitleMaps;
  t: TFunction;
  lng: string | undefined;
  /** A row's actions, when rows have any. */
  actions?: (row: Row) => ReactNode;
}

export function listColumns({ view, recycle, sorters, titles, t, lng, actions }: Options): TableColumnsType<Row> {
  const date = (v: string) => (v ? <DateTimeText value={v} lng={lng} /> : "-");
  const keyTime = view.columns.some((f) => f.kind === "datetime" && priorityOf(view, f) === 1);
  const columns: TableColumnsType<Row> = [
    ...view.columns.map((field) => ({
      title: field.kind === "datetime" ? timeLabel(t, t(field.label)) : t(field.label),
      dataIndex: field.name,
      key: field.name,
      width: field.ui.width,
      responsive: SHOWN_FROM[priorityOf(view, field)],
      sorter: field.ui.sortable === true,
      sortOrder: sortOrderOf(sorters, field.name),
      // A field of other records (a vending device's stock on a charging cable's row) is left empty.
      render: (value: unknown, row: Row) =>
        holds(row, field.ui.when) ? <FieldValue field={field} value={value} titles={titles} /> : null,
    })),
    recycle
      ? { title: timeLabel(t, t("fields.deleted_at")), dataIndex: "deleted_at", key: "deleted_at", render: date }
      : {
          title: timeLabel(t, t("fields.created_at")),
          dataIndex: "created_at",
          key: "created_at",
          // Where a time of the record's own is a key column (an order's time), the creation time matters less.
          responsive: SHOWN_FROM[keyTime ? 3 : 2],
          sorter: true,
          sortOrder: sortOrderOf(sorters, "created_at"),
          render: date,
        },
    // Last, and hidden until the user shows it (column-choice.tsx): the rows' own words name a record.
    { title: t("fields.id"), dataIndex: "id", key: "id", sorter: true, sortOrder: sortOrderOf(sorters, "id") },
  ];
  if (actions)
    columns.push({
      title: t("fields.action"),
      key: "actions",
      fixed: "right",
      render: (_: unknown, row: Row) => actions(row),
    });
  return columns;
}

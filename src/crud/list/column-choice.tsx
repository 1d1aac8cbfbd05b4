// Which of a list's columns the user sees, in which order and how wide: each column from the width its
// priority allows (columns.tsx), the record number hidden until asked for, and the user's own choice over
// these, kept for the list between visits (and in a saved view, saved-views.ts). The chooser is a toolbar
// button with, for each column, a box, a move up and down, and a width (also set by dragging a header's
// edge, resizable-header.tsx).
import { ArrowDownOutlined, ArrowUpOutlined, TableOutlined } from "@ant-design/icons";
import type { TableColumnsType } from "antd";
import { Button, Checkbox, InputNumber, Popover } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LIST_OWN_COLUMNS, saveColumns, storedColumns, type ColumnChoice } from "../../app/session.ts";
import type { Row } from "./use-entity-list.ts";

/** Hidden until the user shows them: the record's number (the rows' own words name it). */
const HIDDEN_FIRST = new Set(["id"]);
/** Always there, last: a row's actions. */
const FIXED = new Set(["actions"]);
/** The widths a column may be given, in pixels (the saved view's schema says the same). */
export const COLUMN_WIDTH = { min: 40, max: 1200 };

const keyOf = (column: TableColumnsType<Row>[number]) => String(column.key);

/** The columns in the chosen order: those the choice names first, in its order, then the others as they were. */
function ordered(columns: TableColumnsType<Row>, order: string[]): TableColumnsType<Row> {
  const rank = (column: TableColumnsType<Row>[number]) => {
    const at = order.indexOf(keyOf(column));
    return FIXED.has(keyOf(column)) ? Infinity : at === -1 ? order.length : at;
  };
  return columns
    .map((column, at) => ({ column, at }))
    .sort((a, b) => rank(a.column) - rank(b.column) || a.at - b.at)
    .map(({ column }) => column);
}

export function useColumnChoice(list: string) {
  const [choice, setChoice] = useState<ColumnChoice>(() => storedColumns(list));
  const choose = (next: ColumnChoice) => {
    setChoice(next);
    saveColumns(list, next);
  };
  const shown = (key: string) => choice.shown[key] ?? !HIDDEN_FIRST.has(key);
  /** A column's width, from the chooser or a header's edge (resizable-header.tsx); none for its own. */
  const setWidth = (key: string, width: number | null | undefined) => {
    const widths = { ...choice.widths };
    if (width) widths[key] = width;
    else delete widths[key];
    choose({ ...choice, widths });
  };
  /** The columns as chosen: in order, a column hidden left out, one the user showed shown at every width. */
  const apply = (columns: TableColumnsType<Row>): TableColumnsType<Row> =>
    ordered(columns, choice.order).flatMap((column) => {
      const key = keyOf(column);
      if (!shown(key)) return [];
      const width = choice.widths[key];
      const sized = width ? { ...column, width } : column;
      return choice.shown[key] ? [{ ...sized, responsive: undefined }] : [sized];
    });
  /** The choosable columns in their order, each shown or not: the layout a saved view keeps. */
  const layout = (columns: TableColumnsType<Row>) =>
    ordered(columns, choice.order)
      .filter((column) => !FIXED.has(keyOf(column)))
      .map((column) => ({ key: keyOf(column), shown: shown(keyOf(column)), width: choice.widths[keyOf(column)] }));
  return {
    choice,
    choose,
    shown,
    setWidth,
    ordered: (columns: TableColumnsType<Row>) => ordered(columns, choice.order),
    apply,
    layout,
  };
}

export type ColumnChoiceState = ReturnType<typeof useColumnChoice>;

/** The toolbar's "Columns" button: for each column a box (ticked where it shows), up and down, a width. */
export function ColumnChooser({ columns, state }: { columns: TableColumnsType<Row>; state: ColumnChoiceState }) {
  const { t } = useTranslation();
  const choosable = state.ordered(columns).filter((column) => !FIXED.has(keyOf(column)));
  const keys = choosable.map(keyOf);
  const { choice, choose, setWidth } = state;
  const move = (at: number, by: -1 | 1) => {
    const order = [...keys];
    [order[at], order[at + by]] = [order[at + by], order[at]];
    choose({ ...choice, order });
  };
  const content = (
    <div className="column-chooser">
      {choosable.map((column, at) => {
        const key = keyOf(column);
        const title = column.title as string;
        return (
          <div key={key} className="column-chooser-row" data-column={key}>
            <Checkbox
              checked={state.shown(key)}
              onChange={(event) => choose({ ...choice, shown: { ...choice.shown, [key]: event.target.checked } })}
            >
              {title}
            </Checkbox>
            <span className="column-chooser-tools">
              <Button
                size="small"
                type="text"
                icon={<ArrowUpOutlined />}
                disabled={at === 0}
                aria-label={t("list.moveUp", { column: title })}
                title={t("list.moveUp", { column: title })}
                onClick={() => move(at, -1)}
              />
              <Button
                size="small"
                type="text"
                icon={<ArrowDownOutlined />}
                disabled={at === choosable.length - 1}
                aria-label={t("list.moveDown", { column: title })}
                title={t("list.moveDown", { column: title })}
                onClick={() => move(at, 1)}
              />
              <InputNumber
                size="small"
                min={COLUMN_WIDTH.min}
                max={COLUMN_WIDTH.max}
                step={20}
                value={choice.widths[key] ?? null}
                placeholder={t("list.autoWidth")}
                aria-label={t("list.width", { column: title })}
                onChange={(value) => setWidth(key, value)}
              />
            </span>
          </div>
        );
      })}
      <Button size="small" type="link" onClick={() => choose(LIST_OWN_COLUMNS)}>
        {t("list.defaultColumns")}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t("list.columns")} content={content}>
      <Button icon={<TableOutlined />} aria-label={t("list.columns")} title={t("list.columns")} />
    </Popover>
  );
}

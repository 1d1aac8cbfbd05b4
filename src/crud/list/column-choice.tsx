// Which of a list's columns the user sees: each column from the width its priority allows (columns.tsx),
// the record number hidden until asked for, and the user's own choice over both, kept for the list
// between visits. The chooser is a toolbar button with a box for each column.
import { TableOutlined } from "@ant-design/icons";
import type { TableColumnsType } from "antd";
import { Button, Checkbox, Popover } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { saveColumns, storedColumns, type ColumnChoice } from "../../app/session.ts";
import type { Row } from "./use-entity-list.ts";

/** Hidden until the user shows them: the record's number (the rows' own words name it). */
const HIDDEN_FIRST = new Set(["id"]);
/** Always there: a row's actions. */
const FIXED = new Set(["actions"]);

export function useColumnChoice(list: string) {
  const [choice, setChoice] = useState<ColumnChoice>(() => storedColumns(list));
  const choose = (next: ColumnChoice) => {
    setChoice(next);
    saveColumns(list, next);
  };
  /** The columns as chosen: a column hidden is left out; one the user showed shows at every width. */
  const apply = (columns: TableColumnsType<Row>): TableColumnsType<Row> =>
    columns.flatMap((column) => {
      const key = String(column.key);
      const shown = choice[key] ?? !HIDDEN_FIRST.has(key);
      if (!shown) return [];
      return choice[key] ? [{ ...column, responsive: undefined }] : [column];
    });
  return { choice, choose, apply };
}

export type ColumnChoiceState = ReturnType<typeof useColumnChoice>;

/** The toolbar's "Columns" button: a box for each column, ticked where it shows. */
export function ColumnChooser({ columns, state }: { columns: TableColumnsType<Row>; state: ColumnChoiceState }) {
  const { t } = useTranslation();
  const choosable = columns.filter((column) => !FIXED.has(String(column.key)));
  const shown = (key: string) => state.choice[key] ?? !HIDDEN_FIRST.has(key);
  const content = (
    <div className="column-chooser">
      {choosable.map((column) => {
        const key = String(column.key);
        return (
          <Checkbox
            key={key}
            checked={shown(key)}
            onChange={(event) => state.choose({ ...state.choice, [key]: event.target.checked })}
          >
            {column.title as string}
          </Checkbox>
        );
      })}
      <Button size="small" type="link" onClick={() => state.choose({})}>
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

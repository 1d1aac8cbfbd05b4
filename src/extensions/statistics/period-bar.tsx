// The period of a statistics view: a preset (today, yesterday, the last 7, 30 or 90 days, this month)
// or a custom range of business days. The range picker shows the period the server worked out, so a
// preset reads as its dates; picking dates in it makes the period custom.
import { DatePicker, Select, Space, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { operationSchemas } from "../../generated/operations.ts";
import { enumKey, operationKeyBase } from "../../schema/keys.ts";
import type { StatisticsCall } from "./views.ts";

export interface PeriodValue {
  period: string;
  from?: string;
  to?: string;
}

interface Props {
  call: StatisticsCall;
  value: PeriodValue;
  /** The period's first and last business days as the server worked them out, and today's. */
  shown?: { from: string; to: string; today: string };
  onChange: (value: PeriodValue) => void;
}

/** The call's presets, as its schema lists them (custom last). */
const presetsOf = (call: StatisticsCall): string[] =>
  ((operationSchemas[call].properties?.period as { enum?: string[] } | undefined)?.enum ?? []).filter(
    (p) => p !== "custom",
  );

export function PeriodBar({ call, value, shown, onChange }: Props) {
  const { t } = useTranslation(["statistics", "machine", "stock_consumption"]);
  const base = operationKeyBase(operationSchemas[call]);
  const label = (period: string) => t(enumKey(base, "period", period));
  const range = shown ? ([dayjs(shown.from), dayjs(shown.to)] as const) : undefined;
  return (
    <Space wrap size={[8, 8]} className="statistics-period">
      <Select
        aria-label={t(`${base}fields.period.label`)}
        className="statistics-preset"
        value={value.period}
        popupMatchSelectWidth={false}
        options={[...presetsOf(call), "custom"].map((p) => ({ value: p, label: label(p) }))}
        onChange={(period) => onChange(period === "custom" && shown ? { period, ...shown } : { period })}
      />
      <DatePicker.RangePicker
        aria-label={t("statistics:range")}
        className="statistics-range"
        allowClear={false}
        value={range as never}
        inputReadOnly
        disabledDate={(day) => !!shown && day.isAfter(dayjs(shown.today), "day")}
        onChange={(days) => {
          const [from, to] = (days ?? []) as [dayjs.Dayjs | null, dayjs.Dayjs | null];
          if (from && to) onChange({ period: "custom", from: from.format("YYYY-MM-DD"), to: to.format("YYYY-MM-DD") });
        }}
      />
      {shown && (
        <Typography.Text type="secondary" className="statistics-today">
          {t("statistics:businessDays", { today: shown.today })}
        </Typography.Text>
      )}
    </Space>
  );
}

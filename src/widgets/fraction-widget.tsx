// A fraction (x-fraction) is stored as 0.06 and typed as 6 %; decimals are allowed (12.5 %).
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";
import { fractionToPercent, percentToFraction } from "../crud/format.ts";

export function FractionWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors }: WidgetProps) {
  return (
    <InputNumber<number>
      inputMode="decimal"
      id={id}
      value={typeof value === "number" ? fractionToPercent(value) : undefined}
      min={0}
      step={0.5}
      formatter={(v) => (v === undefined || v === null || String(v) === "" ? "" : `${v} %`)}
      parser={(text) => (text ?? "").replace(/[%\s]/g, "") as unknown as number}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next === null ? undefined : percentToFraction(next))}
      style={{ width: 160 }}
    />
  );
}

// Money is stored in minor units (x-money) and typed in yuan/KHR/USD with two decimals.
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";
import { toMajor, toMinor } from "../crud/format.ts";

export function MoneyWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder, rawErrors }: WidgetProps) {
  return (
    <InputNumber<number>
      id={id}
      className="input-money"
      value={typeof value === "number" ? toMajor(value) : undefined}
      min={0}
      step={0.01}
      precision={2}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next === null ? undefined : toMinor(next))}
      style={{ width: 200 }}
    />
  );
}

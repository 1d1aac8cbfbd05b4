// Money is stored in minor units (x-money) and typed in yuan/KHR/USD with two decimals.
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";

export function MoneyWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  placeholder,
  rawErrors,
  schema,
}: WidgetProps) {
  const max = typeof schema.maximum === "number" ? schema.maximum / 100 : undefined;
  return (
    <InputNumber<number>
      id={id}
      className="input-money"
      value={typeof value === "number" ? value / 100 : undefined}
      min={0}
      max={max}
      step={0.01}
      precision={2}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next === null ? undefined : Math.round(next * 100))}
      style={{ width: 200 }}
    />
  );
}

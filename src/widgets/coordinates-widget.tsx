// A longitude or latitude: a number with six decimals (about 10 cm); out of the schema's bounds it is refused, not clamped.
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";

export function CoordinatesWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors }: WidgetProps) {
  return (
    <InputNumber<number>
      id={id}
      value={typeof value === "number" ? value : undefined}
      step={0.000001}
      // Digits and a point on a phone (a minus too, on the keypads that have one: west and south are below 0).
      inputMode="decimal"
      precision={6}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next ?? undefined)}
      style={{ width: 200 }}
    />
  );
}

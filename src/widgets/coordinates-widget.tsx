// A longitude or latitude: a number with six decimals (about 10 cm), within the schema's bounds.
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";

export function CoordinatesWidget({ id, value, onChange, onBlur, disabled, readonly, rawErrors, schema }: WidgetProps) {
  return (
    <InputNumber<number>
      id={id}
      value={typeof value === "number" ? value : undefined}
      min={schema.minimum}
      max={schema.maximum}
      step={0.000001}
      precision={6}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next ?? undefined)}
      style={{ width: 200 }}
    />
  );
}

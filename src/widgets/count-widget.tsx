// A whole number from a short range the schema bounds (minimum to maximum, a few values: products per
// row, 1 to 3), as buttons side by side: every choice in view, one tap to pick.
import type { WidgetProps } from "@rjsf/utils";
import { Radio } from "antd";

/** The most values offered as buttons; a longer range is typed (rjsf's number input). */
export const MAX_COUNT_CHOICES = 6;

/** The values a bounded integer allows, minimum to maximum; none when it is unbounded or too long. */
export function countChoices(schema: { minimum?: number; maximum?: number }): number[] {
  const { minimum, maximum } = schema;
  if (minimum === undefined || maximum === undefined || maximum < minimum) return [];
  if (maximum - minimum + 1 > MAX_COUNT_CHOICES) return [];
  return Array.from({ length: maximum - minimum + 1 }, (_, i) => minimum + i);
}

export function CountWidget({ id, value, onChange, onBlur, disabled, readonly, schema }: WidgetProps) {
  return (
    <Radio.Group
      id={id}
      optionType="button"
      value={value ?? undefined}
      disabled={disabled || readonly}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => onBlur(id, value)}
      options={countChoices(schema).map((n) => ({ value: n, label: String(n) }))}
    />
  );
}

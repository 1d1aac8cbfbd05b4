// A list of short texts (spec values, keywords): typed one by one as tags.
import type { WidgetProps } from "@rjsf/utils";
import { Select } from "antd";

export function TagsWidget({ id, value, onChange, disabled, readonly, placeholder, rawErrors }: WidgetProps) {
  return (
    <Select
      id={id}
      mode="tags"
      value={(value as string[] | undefined) ?? []}
      onChange={(next: string[]) => onChange(next)}
      disabled={disabled || readonly}
      placeholder={placeholder}
      status={rawErrors?.length ? "error" : undefined}
      open={false}
      tokenSeparators={[",", "，"]}
      style={{ minWidth: 240 }}
    />
  );
}

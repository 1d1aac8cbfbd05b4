// A choice among an enum's values, labelled from the locale files (ui:enumNames), as a select.
// Values stay what the schema says (numbers stay numbers); radio buttons serve short lists instead.
import type { WidgetProps } from "@rjsf/utils";
import { Select } from "antd";

export function EnumWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  placeholder,
  rawErrors,
  schema,
  options,
}: WidgetProps) {
  const values = (schema.enum ?? []) as (string | number)[];
  const names = (options.enumNames as string[] | undefined) ?? values.map(String);
  return (
    <Select
      id={id}
      value={value ?? undefined}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      allowClear
      showSearch
      optionFilterProp="label"
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next ?? undefined)}
      options={values.map((v, i) => ({ value: v, label: names[i] ?? String(v) }))}
      style={{ maxWidth: 360 }}
    />
  );
}

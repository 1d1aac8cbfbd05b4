// On/off fields stored as 0/1 integers (defs switch, enableStatus) or booleans.
import type { WidgetProps } from "@rjsf/utils";
import { Switch } from "antd";

export function SwitchWidget({ id, value, onChange, disabled, readonly, schema }: WidgetProps) {
  const numeric = schema.type === "integer";
  return (
    <Switch
      id={id}
      checked={value === 1 || value === true}
      disabled={disabled || readonly}
      onChange={(on) => onChange(numeric ? (on ? 1 : 0) : on)}
    />
  );
}

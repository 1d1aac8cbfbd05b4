// A password (write-only) field: hidden as typed, with what the browser may fill it with (a new password,
// unless the schema says it is the user's own current one: src/widgets/keyboard.ts), so a password manager
// never puts the signed-in user's password into another account's field.
import type { WidgetProps } from "@rjsf/utils";
import { ariaDescribedByIds } from "@rjsf/utils";
import { Input } from "antd";

export function PasswordWidget({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  disabled,
  readonly,
  options,
  placeholder,
}: WidgetProps) {
  return (
    <Input.Password
      id={id}
      name={id}
      value={typeof value === "string" ? value : ""}
      autoComplete={typeof options.autocomplete === "string" ? options.autocomplete : "new-password"}
      placeholder={placeholder}
      disabled={disabled || readonly}
      onChange={(event) => onChange(event.target.value === "" ? (options.emptyValue ?? "") : event.target.value)}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
      aria-describedby={ariaDescribedByIds(id)}
    />
  );
}

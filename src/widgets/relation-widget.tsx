// A related record (x-relation), or several: a searchable picker fed by the target's `-all` call.
import type { WidgetProps } from "@rjsf/utils";
import type { EntityName } from "../generated/types.ts";
import { RelationSelect } from "./relation-select.tsx";

export function RelationWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  options,
  schema,
  placeholder,
  rawErrors,
}: WidgetProps) {
  return (
    <RelationSelect
      id={id}
      entity={options.relation as EntityName}
      value={value}
      multiple={schema.type === "array"}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next) => onChange(next)}
    />
  );
}

// A searchable picker of related records, fed by the target entity's `-all` call.
import { Select } from "antd";
import { useDeferredValue, useState } from "react";
import type { EntityName } from "../generated/types.ts";
import { useRelationOptions } from "../crud/relations.ts";

interface Props {
  entity: EntityName;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | undefined) => void;
  multiple?: boolean;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  status?: "error";
  onBlur?: () => void;
}

export function RelationSelect({
  entity,
  value,
  onChange,
  multiple,
  placeholder,
  disabled,
  id,
  status,
  onBlur,
}: Props) {
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search);
  const selected = (Array.isArray(value) ? value : value ? [value] : []) as number[];
  const { options, loading } = useRelationOptions(entity, deferred, selected);
  return (
    <Select
      id={id}
      showSearch
      allowClear
      mode={multiple ? "multiple" : undefined}
      value={value ?? undefined}
      placeholder={placeholder}
      disabled={disabled}
      status={status}
      loading={loading}
      filterOption={false}
      onSearch={setSearch}
      onBlur={onBlur}
      onChange={(next) => onChange?.(next ?? undefined)}
      options={options.map((o) => ({ value: o.id, label: o.title }))}
      style={{ minWidth: 180 }}
      maxTagCount="responsive"
    />
  );
}

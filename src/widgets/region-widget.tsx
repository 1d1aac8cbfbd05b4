// A first-level region (province), picked from the markets' lists grouped by country or typed freely.
import type { WidgetProps } from "@rjsf/utils";
import { AutoComplete } from "antd";
import { useTranslation } from "react-i18next";
import { REGIONS } from "./region-data.ts";

export function RegionWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder, rawErrors }: WidgetProps) {
  const { t } = useTranslation();
  const text = ((value as string | undefined) ?? "").toLowerCase();
  const options = (Object.keys(REGIONS) as (keyof typeof REGIONS)[]).map((country) => ({
    label: t(`form.countries.${country}`),
    options: REGIONS[country].filter((name) => name.toLowerCase().includes(text)).map((name) => ({ value: name })),
  }));
  return (
    <AutoComplete
      id={id}
      value={value as string | undefined}
      options={options.filter((group) => group.options.length > 0)}
      placeholder={placeholder}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => onBlur(id, value)}
      onChange={(next: string) => onChange(next === "" ? undefined : next)}
      style={{ maxWidth: 320 }}
    />
  );
}

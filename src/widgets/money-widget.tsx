// Money is stored in minor units (x-money) and typed in yuan/KHR/USD with two decimals.
import type { WidgetProps } from "@rjsf/utils";
import { InputNumber } from "antd";
import { useTranslation } from "react-i18next";
import { currencyAffixes, toMajor, toMinor, unitAffixes, useCurrency } from "../crud/format.ts";
import type { XUi } from "../schema/types.ts";
import { Affixed, joinAffixes } from "./affixed.tsx";

export function MoneyWidget({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  placeholder,
  rawErrors,
  options,
}: WidgetProps) {
  const { i18n } = useTranslation();
  const currency = useCurrency();
  // The currency from the settings, and the unit an amount is per (a tariff per kWh or per hour).
  const unit = options.unit as XUi["unit"];
  const affixes = joinAffixes(
    currencyAffixes(i18n.language, currency),
    unit ? unitAffixes(unit) : { before: "", after: "" },
  );
  return (
    <Affixed affixes={affixes}>
      <InputNumber<number>
        inputMode="decimal"
        id={id}
        className="input-money"
        value={typeof value === "number" ? toMajor(value) : undefined}
        min={0}
        step={0.01}
        precision={2}
        placeholder={placeholder}
        disabled={disabled || readonly}
        status={rawErrors?.length ? "error" : undefined}
        onBlur={() => onBlur(id, value)}
        onChange={(next) => onChange(next === null ? undefined : toMinor(next))}
        style={{ width: 200 }}
      />
    </Affixed>
  );
}

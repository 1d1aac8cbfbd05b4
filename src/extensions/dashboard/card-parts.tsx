// What the dashboard's cards share: their texts and amounts, a figure's title with its definition, an error.
import { Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../app/api.ts";
import { formatAmount, useCurrency } from "../../crud/format.ts";
import { FigureHint } from "./figure-hint.tsx";
import { NAMESPACES } from "./queries.ts";

/** The cards' texts, and amounts in the business's currency and the user's language. */
export function useCardText() {
  const { t, i18n } = useTranslation(NAMESPACES);
  const lng = i18n.resolvedLanguage ?? "en";
  const currency = useCurrency();
  return { t, lng, money: (minor: number) => formatAmount(minor, lng, currency) };
}

/** A figure's name with its definition behind a question mark (on hover, on focus, on a tap). */
export function HintedTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <Space size={4}>
      {title}
      <FigureHint hint={hint} />
    </Space>
  );
}

export function ErrorText({ error }: { error: unknown }) {
  return <Typography.Text type="danger">{(error as ApiError).message}</Typography.Text>;
}

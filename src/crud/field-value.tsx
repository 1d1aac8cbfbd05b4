// One field's value as read on a list row or a detail view: money and fractions formatted, enum
// values as translated tags, images as thumbnails, relations by their title.
import { Image, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { FieldView } from "./model.ts";
import { formatDate, formatDateTime, formatFraction, formatMoney, stateColor } from "./format.ts";

export const MASK = "******";
/** Shown where an upload is missing or broken: a neutral grey tile (inline, no network). */
const FALLBACK =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#f0f0f0"/><path d="M18 44l10-12 8 9 6-7 8 10z" fill="#bfbfbf"/><circle cx="24" cy="24" r="5" fill="#bfbfbf"/></svg>',
  );

interface Props {
  field: FieldView;
  value: unknown;
  /** Titles of related records by id (list pages fetch them in one call per target). */
  titles?: Map<number, string>;
  /** Detail views show images larger and text in full. */
  detail?: boolean;
}

export function FieldValue({ field, value, titles, detail }: Props) {
  const { t, i18n } = useTranslation();
  if (value === null || value === undefined || value === "")
    return <Typography.Text type="secondary">-</Typography.Text>;
  if (field.writeOnly) return <Typography.Text type="secondary">{MASK}</Typography.Text>;
  const size = detail ? 96 : 40;
  switch (field.kind) {
    case "money":
      return <span className="cell-number">{formatMoney(Number(value), i18n.resolvedLanguage)}</span>;
    case "fraction":
      return <span className="cell-number">{formatFraction(Number(value))}</span>;
    case "enum": {
      const values = Array.isArray(value) ? value : [value];
      return (
        <Space size={[0, 4]} wrap>
          {values.map((v: string | number) => (
            <Tag key={String(v)} color={stateColor(field.name, v)} bordered={false}>
              {t(field.enumKey!(v))}
            </Tag>
          ))}
        </Space>
      );
    }
    case "boolean":
      return <Tag bordered={false}>{t(value ? "common:yes" : "common:no")}</Tag>;
    case "datetime":
      return <span>{formatDateTime(String(value))}</span>;
    case "date":
      return <span>{formatDate(String(value))}</span>;
    case "upload":
    case "uploads": {
      const urls = (Array.isArray(value) ? value : [value]).map(String);
      if (field.upload?.kind !== "image") {
        return (
          <Typography.Text ellipsis={{ tooltip: urls.join("\n") }}>
            {urls.map((u) => u.split("/").pop()).join(", ")}
          </Typography.Text>
        );
      }
      const shown = detail ? urls : urls.slice(0, 1);
      return (
        <Image.PreviewGroup items={urls}>
          <Space size={4}>
            {shown.map((url) => (
              <Image key={url} src={url} width={size} height={size} fallback={FALLBACK} className="cell-image" />
            ))}
            {urls.length > shown.length && (
              <Typography.Text type="secondary">+{urls.length - shown.length}</Typography.Text>
            )}
          </Space>
        </Image.PreviewGroup>
      );
    }
    case "relation":
      return <span>{titles?.get(Number(value)) ?? `#${value}`}</span>;
    case "relations":
      return (
        <Space size={[0, 4]} wrap>
          {(value as number[]).map((id) => (
            <Tag key={id} bordered={false}>
              {titles?.get(id) ?? `#${id}`}
            </Tag>
          ))}
        </Space>
      );
    case "tags":
      return (
        <Space size={[0, 4]} wrap>
          {(value as unknown[]).map((v, i) => (
            <Tag key={i} bordered={false}>
              {String(v)}
            </Tag>
          ))}
        </Space>
      );
    case "integer":
    case "number":
      return <span className="cell-number">{String(value)}</span>;
    case "string":
      return detail ? (
        <Typography.Paragraph className="cell-text">{String(value)}</Typography.Paragraph>
      ) : (
        <Typography.Text ellipsis={{ tooltip: String(value) }}>{String(value)}</Typography.Text>
      );
    default:
      return <ObjectValue value={value} />;
  }
}

/** Nested objects and lists (packages, tiers, spec attributes): compact key: value lines. */
function ObjectValue({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 1)
    .replace(/[{}[\]"]/g, "")
    .replace(/\n\s*\n/g, "\n")
    .trim();
  return (
    <Typography.Text className="cell-object" ellipsis={{ tooltip: text }}>
      {text.replace(/\s+/g, " ")}
    </Typography.Text>
  );
}

// One field's value as read on a list row or a detail view, through the formatting layer of format.ts:
// money in the business's currency, quantities with their unit, dates in the language's one format,
// enum values as translated tags, images as thumbnails, relations by their title, nested objects as
// readable text in a cell and as a sub-table in a detail view.
import { Descriptions, Image, Space, Tag, Tooltip, Typography } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { lazyScreen } from "../app/lazy-screen.tsx";
import type { FieldView } from "./model.ts";
import { formatDate, formatDateTime, stateColor, useCurrency, valueText, type TitleMaps } from "./format.ts";
import { useTimeZone, zoneNote } from "./time-zone.ts";

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
  /** Titles of related records by target entity and id (a list answer carries them). */
  titles?: TitleMaps;
  /** Detail views show images larger and text in full. */
  detail?: boolean;
}

export function FieldValue({ field, value, titles, detail }: Props) {
  const { t, i18n } = useTranslation();
  useCurrency(); // amounts re-render when the settings bring the currency
  const lng = i18n.resolvedLanguage ?? "en";
  if (value === null || value === undefined || value === "")
    return <Typography.Text type="secondary">-</Typography.Text>;
  if (field.writeOnly) return <Typography.Text type="secondary">{MASK}</Typography.Text>;
  const size = detail ? 96 : 40;
  // A related record whose title is not given (not loaded yet, out of the user's sight, or gone): words.
  const relationTitle = (id: number) => titles?.get(field.relation!)?.get(id) ?? t("common:record.unavailable");
  switch (field.kind) {
    case "money":
    case "fraction":
    case "integer":
    case "number":
      return <span className="cell-number">{valueText(field, value, lng)}</span>;
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
      return <DateTimeText value={String(value)} lng={lng} />;
    case "date":
      return (
        <span className="cell-date">
          <span>{formatDate(String(value), lng)}</span>
        </span>
      );
    case "upload":
    case "uploads": {
      const urls = (Array.isArray(value) ? value : [value]).map(String);
      if (field.upload?.kind !== "image") {
        return <CellText tip={urls.join("\n")}>{urls.map((u) => u.split("/").pop()).join(", ")}</CellText>;
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
      return <span>{relationTitle(Number(value))}</span>;
    case "relations":
      return (
        <Space size={[0, 4]} wrap>
          {(value as number[]).map((id) => (
            <Tag key={id} bordered={false}>
              {relationTitle(id)}
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
    case "list":
    case "object":
      if (field.children && typeof value === "object") {
        if (!detail) {
          const text = valueText(field, value, lng, titles);
          return (
            <CellText className="cell-object" tip={text}>
              {text}
            </CellText>
          );
        }
        return field.kind === "list" ? (
          <SubTable field={field} rows={value as Record<string, unknown>[]} titles={titles} />
        ) : (
          <Descriptions size="small" column={1} className="sub-descriptions">
            {field.children.map((child) => (
              <Descriptions.Item key={child.name} label={t(child.label)}>
                <FieldValue field={child} value={(value as Record<string, unknown>)[child.name]} titles={titles} />
              </Descriptions.Item>
            ))}
          </Descriptions>
        );
      }
      return <ObjectValue value={value} />;
    case "string":
      return detail ? (
        <Typography.Paragraph className="cell-text">{String(value)}</Typography.Paragraph>
      ) : (
        <CellText tip={String(value)}>{String(value)}</CellText>
      );
    default:
      return <ObjectValue value={value} />;
  }
}

/** A list of objects in a detail view: a table, whose code (antd's Table) loads when one is shown. */
const SubTable = lazyScreen(() => import("./sub-table.tsx").then((m) => m.SubTable), { fallback: null });

/** A nested value the schema does not describe: compact key: value lines. */
function ObjectValue({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 1)
    .replace(/[{}[\]"]/g, "")
    .replace(/\n\s*\n/g, "\n")
    .trim();
  return (
    <CellText className="cell-object" tip={text}>
      {text.replace(/\s+/g, " ")}
    </CellText>
  );
}

/**
 * A line of text (two in a table), cut with an ellipsis by CSS where its column is narrower; the whole
 * text shows in a tooltip when the cut hides some of it. Whether it does is read as the pointer comes
 * over the cell, not as the cell renders: antd's measured ellipsis forced a layout per cell, the largest
 * part of a list's render.
 */
function CellText({ tip, className, children }: { tip: string; className?: string; children: ReactNode }) {
  const [cut, setCut] = useState(false);
  const text = (
    <span
      className={className ? `cell-ellipsis ${className}` : "cell-ellipsis"}
      onMouseEnter={({ currentTarget: text }) =>
        setCut(text.scrollWidth > text.clientWidth || text.scrollHeight > text.clientHeight)
      }
    >
      {children}
    </span>
  );
  return cut ? (
    <Tooltip title={tip} open onOpenChange={(open) => setCut(open)}>
      {text}
    </Tooltip>
  ) : (
    text
  );
}

/**
 * A time at the business's clock in one piece (a record history's entry), as the lists show it, the zone
 * named on hover where it is not the reader's.
 */
export function TimeText({ value, lng }: { value: string; lng: string | undefined }) {
  const zone = useTimeZone();
  return (
    <span className="time-text" title={zoneNote(new Date(value), zone)}>
      {formatDateTime(value, lng, zone)}
    </span>
  );
}

/**
 * A date and time, each kept whole: where a table is short of room, the time goes under the date rather
 * than the table scrolling.
 */
export function DateTimeText({ value, lng }: { value: string; lng: string | undefined }) {
  const zone = useTimeZone();
  const text = formatDateTime(value, lng, zone);
  const cut = text.lastIndexOf(" ");
  // Shown at the business's clock: where that is not the reader's, the zone is named on hover.
  const note = zoneNote(new Date(value), zone);
  return (
    <span className="cell-date" title={note}>
      <span>{text.slice(0, cut)}</span> <span>{text.slice(cut + 1)}</span>
    </span>
  );
}

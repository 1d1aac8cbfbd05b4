// The generated detail view: every field of the record, readable, its state actions, and its audit
// history (record-history): who did what, when, and which values changed.
import { useOne } from "@refinedev/core";
import { queryOptions, usePrefetchQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Descriptions, Empty, Grid, Space, Tag, Timeline, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useEffect } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api, type ApiError } from "../app/api.ts";
import { FieldValue, TimeText } from "./field-value.tsx";
import { formatDateTime } from "./format.ts";
import { timeLabel } from "./list/columns.tsx";
import { keepsRecord, RecordStatus, RefreshFailed } from "./record-state.tsx";
import { holds, type EntityView } from "./model.ts";
import { usePageTitle } from "../app/page-title.ts";
import { useRecordTitles, useRelationTitles } from "./relations.ts";
import { useScreen } from "./resource.ts";
import { recordActions, recordTitle } from "./action-sources.tsx";
import { ActionButtons } from "./actions.tsx";
import { prefetchRelated } from "./related-query.ts";
import { lazyScreen } from "../app/lazy-screen.tsx";
import { WITH_RECORD_FRESH_MS } from "./refresh.ts";
import type { EntityName, RecordHistoryAnswer } from "../generated/types.ts";
import { detailPanels } from "../extensions/index.ts";
import type { ReadsMeta } from "../app/query-reads.ts";

type Data = Record<string, unknown>;

/** The history query of a record; state actions refresh it. */
export const historyKey = (entity: string, id: number) => ["record-history", entity, id];

/** The history of a record, asked for with the record itself (not once the record has come). */
const historyQuery = (entity: string, id: number) =>
  queryOptions({
    queryKey: historyKey(entity, id),
    meta: { reads: { [entity]: [id] } } satisfies ReadsMeta,
    queryFn: () => api("record-history", { query: { entity, id } }),
    staleTime: WITH_RECORD_FRESH_MS,
  });

/** A related list's table (antd's Table), loaded when one is shown: its rows are asked for with the record. */
const RelatedList = lazyScreen(() => import("./related-list.tsx").then((m) => m.RelatedList), { fallback: null });

export function ShowScreen({ resource: identifier }: { resource: string }) {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const screen = useScreen(identifier);
  const { view, resource } = screen;
  // On a phone each label sits above its value, so a value (a table of lanes) gets the whole width.
  const phone = Grid.useBreakpoint().md === false;
  const { query, result } = useOne<Data, ApiError>({ resource: view.name, id: Number(id), errorNotification: false });
  const record: Data = result ?? {};
  // What the screen shows below the record is asked for with it, not once it has come.
  usePrefetchQuery(historyQuery(view.name, Number(id)));
  const client = useQueryClient();
  useEffect(() => {
    for (const r of view.x.related ?? [])
      prefetchRelated(client, { entity: r.entity as EntityName, field: r.field, id: Number(id) });
  }, [client, view, id]);
  const titles = useRelationTitles(view.fields, result ? [result] : [], useRecordTitles(view.name, Number(id)));
  usePageTitle(result ? recordTitle(view, result) : undefined);
  // A record on screen stays when a refresh fails (offline, say): it is said above it.
  if (!result || !keepsRecord(query.error))
    return <RecordStatus loading={query.isLoading} error={query.error} onRetry={() => void query.refetch()} />;
  const title = recordTitle(view, record);
  const panel = detailPanels[view.name];
  const Panel = panel && (panel.applies?.(record) ?? true) ? panel.Component : undefined;

  const information = (
    <Descriptions
      column={{ xs: 1, md: 2 }}
      layout={phone ? "vertical" : "horizontal"}
      bordered
      size="small"
      className="detail-descriptions"
    >
      {view.fields
        .filter((f) => !f.ui.hidden && holds(record, f.ui.when))
        .map((field) => (
          <Descriptions.Item
            key={field.name}
            label={field.kind === "datetime" ? timeLabel(t, t(field.label)) : t(field.label)}
            span={field.kind === "uploads" || field.kind === "list" ? "filled" : 1}
          >
            <FieldValue field={field} value={record[field.name]} titles={titles} detail />
          </Descriptions.Item>
        ))}
      <Descriptions.Item label={timeLabel(t, t("fields.created_at"))}>
        {formatDateTime(String(record.created_at), i18n.resolvedLanguage)}
      </Descriptions.Item>
      <Descriptions.Item label={timeLabel(t, t("fields.updated_at"))}>
        {formatDateTime(String(record.updated_at), i18n.resolvedLanguage)}
      </Descriptions.Item>
    </Descriptions>
  );
  const records = (
    <>
      {(view.x.related ?? []).map((r) => (
        <RelatedList key={`${r.entity}.${r.field}`} entity={r.entity as EntityName} field={r.field} id={Number(id)} />
      ))}
      <History view={view} id={Number(id)} />
    </>
  );
  // A record opened for its panel (a vending device for its lanes) shows it first, with the record's
  // information and its records (related lists, history) one tab away each: on a phone the lanes are on
  // the first screen, not below forty rows of fields. The tab is in the address, so back returns to it.
  const tabs = panel?.tab
    ? [
        ...(Panel ? [{ key: "panel", label: t(panel.tab), children: <Panel record={record} /> }] : []),
        {
          key: "information",
          label: t("detail.information"),
          children: (
            <Card className="screen-card" variant="borderless">
              {information}
            </Card>
          ),
        },
        { key: "records", label: t("detail.records"), children: records },
      ]
    : undefined;
  const active = tabs?.find((tab) => tab.key === params.get("tab")) ?? tabs?.[0];
  return (
    <Space direction="vertical" size={16} className="screen-stack">
      <RefreshFailed error={query.error} />
      <Card
        className={`screen-card detail-head${tabs ? " detail-head-tabs" : ""}`}
        variant="borderless"
        title={title}
        extra={
          <Space wrap>
            <ActionButtons actions={recordActions(screen, record)} size="middle" onDone={() => void query.refetch()} />
            {screen.can("update") && resource.edit && (
              <Link to={resource.edit.replace(":id", String(id))}>
                <Button type="primary">{t("actions.edit")}</Button>
              </Link>
            )}
          </Space>
        }
        tabList={tabs?.map(({ key, label }) => ({ key, label }))}
        activeTabKey={active?.key}
        onTabChange={(key) => setParams((p) => ({ ...Object.fromEntries(p), tab: key }), { replace: true })}
      >
        {!tabs && information}
      </Card>
      {active ? (
        <div className="detail-tab" data-tab={active.key}>
          {active.children}
        </div>
      ) : (
        <>
          {Panel && <Panel record={record} />}
          {records}
        </>
      )}
    </Space>
  );
}

function History({ view, id }: { view: EntityView; id: number }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(historyQuery(view.name, id));
  const entries = query.data ?? [];
  // The server words each entry in the reader's language: the action, each field's label, the values
  // before and after as the screen shows them (a record by its title).
  return (
    <Card className="screen-card" variant="borderless" title={t("history.title")} loading={query.isLoading}>
      {entries.length === 0 ? (
        <Empty description={t("empty")} />
      ) : (
        <Timeline
          items={entries.map((entry) => ({
            key: entry.id,
            children: (
              <div className="history-entry">
                <Space wrap>
                  <Tag bordered={false} color="blue">
                    {entry.action_label}
                  </Tag>
                  <Typography.Text strong>{entry.actor_name}</Typography.Text>
                  <Typography.Text type="secondary">
                    <TimeText value={entry.at} lng={i18n.resolvedLanguage} />
                  </Typography.Text>
                </Space>
                <Changes lines={entry.lines} />
              </div>
            ),
          }))}
        />
      )}
    </Card>
  );
}

/** Each change: the field, and the value before → after (only the value, for what a creation set). */
function Changes({ lines }: { lines: RecordHistoryAnswer[number]["lines"] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="history-changes">
      {lines.map((line) => (
        <li key={line.field}>
          <Typography.Text type="secondary">{line.label}: </Typography.Text>
          {line.before !== null ? (
            <>
              <Typography.Text delete type="secondary">
                {line.before}
              </Typography.Text>{" "}
              → {line.after ?? "—"}
            </>
          ) : (
            (line.after ?? "—")
          )}
        </li>
      ))}
    </ul>
  );
}

// System upgrade (/setting/upgrade, SPEC §2): the installed version beside the newest published one, the
// upgrade after a confirmation naming the version (version-upgrade), the licence, and the published versions. Consoles
// signed in before a version was published sign in again on their next step (SPEC §1's version check).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Result, Skeleton, Space, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { formatDateTime } from "../../crud/format.ts";
import { LicencePanel } from "./licence.tsx";

interface Version {
  id: number;
  version_number: string;
  upgrade_time?: string | null;
  description?: string | null;
  content?: string | null;
}

const LIST = { page: 1, limit: 20, sort: "upgrade_time", order: "desc" };

/**
 * A version's notes (rich text) as lines of plain text: its list items, or its paragraphs. Parsed by the
 * browser as an inert document (nothing in it runs or loads) and shown as text, never as HTML.
 */
function textLines(html: string): string[] {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const items = [...doc.querySelectorAll("li")].map((li) => li.textContent?.trim() ?? "");
  const lines = items.length ? items : (doc.body.textContent ?? "").split(/\n+/).map((l) => l.trim());
  return lines.filter(Boolean);
}

export function SystemUpgrade() {
  const { t } = useTranslation(["common", "version"]);
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [upgrading, setUpgrading] = useState(false);
  const check = useQuery({ queryKey: ["version-check"], queryFn: () => api("version-check") });
  const versions = useQuery({
    queryKey: ["version-list", LIST],
    queryFn: () => api<{ list: Version[]; total: number }>("version-list", { base: "/admin", query: LIST }),
    enabled: allowed("version.list"),
  });
  const failed = (check.error ?? versions.error) as ApiError | null;
  const newest = versions.data?.list.find((v) => v.version_number === check.data?.latest);

  const upgrade = (target: string) =>
    modal.confirm({
      title: t("systemUpgrade.confirmTitle", { version: target }),
      content: t("systemUpgrade.confirmText", { version: target }),
      okText: t("systemUpgrade.upgrade", { version: target }),
      cancelText: t("actions.cancel"),
      onOk: async () => {
        setUpgrading(true);
        try {
          const done = await api("version-upgrade", { method: "POST", body: {} });
          void message.success(t("systemUpgrade.done", { version: done.version }));
          await client.invalidateQueries({ queryKey: ["version-check"] });
        } catch (error) {
          void message.error((error as ApiError).message);
        } finally {
          setUpgrading(false);
        }
      },
    });

  if (check.isLoading) return <Skeleton active />;
  const answer = check.data;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="system-upgrade">
      {failed && (
        <Alert
          type="error"
          showIcon
          message={failed.message}
          action={
            <Button onClick={() => void Promise.all([check.refetch(), versions.refetch()])}>
              {t("actions.retry")}
            </Button>
          }
        />
      )}
      {answer && (
        <Card className="screen-card" variant="borderless" title={t("systemUpgrade.title")}>
          {answer.can_update && answer.latest ? (
            <Result
              status="info"
              title={t("systemUpgrade.available", { version: answer.latest })}
              subTitle={newest?.description ?? undefined}
              extra={
                allowed("version.upgrade") && (
                  <Button
                    type="primary"
                    loading={upgrading}
                    onClick={() => upgrade(answer.latest!)}
                    data-testid="upgrade"
                  >
                    {t("systemUpgrade.upgrade", { version: answer.latest })}
                  </Button>
                )
              }
            >
              {newest?.content && (
                <ul className="upgrade-notes" data-testid="upgrade-notes">
                  {textLines(newest.content).map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              )}
            </Result>
          ) : (
            <Result status="success" title={t("systemUpgrade.upToDate")} />
          )}
          <Descriptions column={{ xs: 1, sm: 2 }} size="small">
            <Descriptions.Item label={t("systemUpgrade.installed")}>
              <span data-testid="installed-version">{answer.version}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("systemUpgrade.latest")}>{answer.latest ?? "—"}</Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      <LicencePanel />
      {allowed("version.list") && (
        <Card className="screen-card" variant="borderless" title={t("systemUpgrade.history")}>
          <Table<Version>
            rowKey="id"
            size="small"
            loading={versions.isLoading}
            dataSource={versions.data?.list ?? []}
            pagination={false}
            scroll={{ x: "max-content" }}
            columns={[
              {
                title: t("version:fields.version_number.label"),
                dataIndex: "version_number",
                render: (v: string) => (
                  <Space size={6}>
                    {v}
                    {v === answer?.version && <Tag color="green">{t("systemUpgrade.installedTag")}</Tag>}
                  </Space>
                ),
              },
              {
                title: t("version:fields.upgrade_time.label"),
                dataIndex: "upgrade_time",
                render: (v?: string | null) => (v ? formatDateTime(v) : "—"),
              },
              { title: t("version:fields.description.label"), dataIndex: "description", ellipsis: true },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}

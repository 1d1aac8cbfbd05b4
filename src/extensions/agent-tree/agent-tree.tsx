// An agent's place in the tree, on its detail screen (SPEC §2 "view superior"): the chain of its
// superiors, nearest first (manage-up), and its direct subordinates (manage-direct-down), each a link to
// that agent's detail. The server answers only what the caller may see: an agent sees its own superiors
// as cards (no money), and subordinates only within its subtree.
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Col, Empty, List, Row, Skeleton, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";

interface Subordinate {
  id: number;
  nickname: string;
  account: string;
  phone?: string | null;
  team_count?: number;
}

const SHOW = "/manage/list/show/:id";
const showPath = (id: number) => SHOW.replace(":id", String(id));

export function AgentTreePanel({ record }: { record: Record<string, unknown> }) {
  const id = Number(record.id);
  const { t } = useTranslation(["common", "agent"]);
  const up = useQuery({
    queryKey: ["manage-up", id],
    queryFn: () => api("manage-up", { query: { id } }),
  });
  const down = useQuery({
    queryKey: ["manage-direct-down", id],
    queryFn: () => api<Subordinate[]>("manage-direct-down", { query: { id } }),
    enabled: allowed("agent.list"),
  });
  const failed = (up.error ?? down.error) as ApiError | null;
  return (
    <Row gutter={[16, 16]} data-testid="agent-tree">
      <Col xs={24} lg={12}>
        <Card className="screen-card" variant="borderless" title={t("agent:operations.manage-up.name")}>
          {failed && <Alert type="error" showIcon message={failed.message} />}
          {up.isLoading ? (
            <Skeleton active />
          ) : (up.data ?? []).length === 0 ? (
            <Empty description={t("agentTree.noSuperior")} />
          ) : (
            <List
              data-testid="agent-superiors"
              dataSource={up.data}
              renderItem={(s) => (
                <List.Item>
                  <List.Item.Meta
                    avatar={
                      <Tag color={s.depth === 1 ? "blue" : "default"}>{t("agentTree.level", { depth: s.depth })}</Tag>
                    }
                    title={<Link to={showPath(s.id)}>{s.nickname}</Link>}
                    description={
                      <Space size={12} wrap>
                        <Typography.Text type="secondary">{s.account}</Typography.Text>
                        {s.role && <Typography.Text type="secondary">{s.role}</Typography.Text>}
                        {s.phone && <Typography.Text type="secondary">{s.phone}</Typography.Text>}
                      </Space>
                    }
                  />
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card className="screen-card" variant="borderless" title={t("agent:operations.manage-direct-down.name")}>
          {down.isLoading ? (
            <Skeleton active />
          ) : (down.data ?? []).length === 0 ? (
            <Empty description={t("agentTree.noSubordinate")} />
          ) : (
            <List
              data-testid="agent-subordinates"
              dataSource={down.data}
              renderItem={(s) => (
                <List.Item>
                  <List.Item.Meta
                    title={<Link to={showPath(s.id)}>{s.nickname}</Link>}
                    description={
                      <Space size={12} wrap>
                        <Typography.Text type="secondary">{s.account}</Typography.Text>
                        {s.phone && <Typography.Text type="secondary">{s.phone}</Typography.Text>}
                      </Space>
                    }
                  />
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
    </Row>
  );
}

// The agents directly below on the dashboard, with their devices and this month's turnover: a table, in a
// module of its own so that a home without it (an operator's) never downloads antd's Table.
import { useQuery } from "@tanstack/react-query";
import { Card, Table } from "antd";
import { ErrorText, useCardText } from "./card-parts.tsx";
import { queries, type DataRow } from "./queries.ts";

/** The agents directly below, with their devices and this month's turnover. */
export function TeamCard() {
  const { t, money } = useCardText();
  const team = useQuery(queries.team());
  return (
    <Card variant="borderless" className="screen-card" title={t("common:home.teamTitle")}>
      {team.error && !team.data ? (
        <ErrorText error={team.error} />
      ) : (
        <Table<DataRow>
          rowKey="id"
          size="small"
          loading={team.isLoading}
          dataSource={team.data ?? []}
          pagination={false}
          locale={{ emptyText: t("common:home.noTeam") }}
          columns={[
            { key: "name", title: t("common:home.agent"), dataIndex: "nickname" },
            { key: "devices", title: t("common:home.devices"), dataIndex: "devices", align: "right" },
            {
              key: "turnover",
              title: t("common:home.monthTurnover"),
              dataIndex: "turnover",
              align: "right",
              render: (v: number) => money(v),
            },
          ]}
        />
      )}
    </Card>
  );
}

// Withdrawals waiting for review on the dashboard, approved or refused from here by those who may: with
// its actions' dialogs, a module of its own, loaded only for those who see the panel.
import { useQuery } from "@tanstack/react-query";
import { Card, Grid, List, Table, Typography } from "antd";
import { useMemo } from "react";
import { Link } from "react-router";
import { screenContext } from "../../crud/resource.ts";
import { transitionActions } from "../../crud/action-sources.tsx";
import { ActionButtons } from "../../crud/actions.tsx";
import { defEnumKey } from "../../schema/keys.ts";
import { ErrorText, useCardText } from "./card-parts.tsx";
import { WITHDRAWAL_QUEUE } from "./links.ts";
import { access, queries, type DataRow } from "./queries.ts";

/** Withdrawals waiting for review, approved or refused here by those who may. */
export function WithdrawalCard() {
  const { t, money } = useCardText();
  const can = access();
  const phone = Grid.useBreakpoint().md === false;
  const pending = useQuery(queries.pending());
  const withdrawals = useMemo(() => screenContext("data_withdrawal_review"), []);
  // The figures a decision needs, beside the agent's name: one list for the table and for a phone's cards.
  const figures: { key: string; title: string; render: (row: DataRow) => string }[] = [
    { key: "amount", title: t("withdrawal:fields.amount.label"), render: (row) => money(row.amount as number) },
    {
      key: "final",
      title: t("withdrawal:fields.final_amount.label"),
      render: (row) => money(row.final_amount as number),
    },
    {
      key: "balance",
      title: t("withdrawal:fields.agent_withdrawable.label"),
      render: (row) => money(row.agent_withdrawable as number),
    },
    {
      key: "method",
      title: t("withdrawal:fields.payout_method.label"),
      render: (row) => t(defEnumKey("payoutMethod", row.payout_method as string)),
    },
  ];
  const actions = (row: DataRow) => <ActionButtons actions={transitionActions(withdrawals, row)} />;
  const emptyText = t("common:home.noWithdrawals");
  return (
    <Card
      variant="borderless"
      className="screen-card withdrawal-panel"
      title={t("common:home.withdrawals")}
      extra={<Link to={WITHDRAWAL_QUEUE}>{t("common:home.allWithdrawals", { count: pending.data?.total ?? 0 })}</Link>}
    >
      {pending.error && !pending.data ? (
        <ErrorText error={pending.error} />
      ) : phone ? (
        // On a phone, a card per request: six columns would scroll sideways inside the panel.
        <List<DataRow>
          className="withdrawal-cards"
          loading={pending.isLoading}
          dataSource={pending.data?.list ?? []}
          locale={{ emptyText }}
          rowKey="id"
          renderItem={(row) => (
            <List.Item className="withdrawal-card">
              <Typography.Text strong className="withdrawal-card-name">
                {row.legal_name as string}
              </Typography.Text>
              <dl className="figure-pairs figure-pairs-two">
                {figures.map((f) => (
                  <div key={f.key}>
                    <dt>{f.title}</dt>
                    <dd>{f.render(row)}</dd>
                  </div>
                ))}
              </dl>
              {can.review && <div className="withdrawal-card-actions">{actions(row)}</div>}
            </List.Item>
          )}
        />
      ) : (
        <Table<DataRow>
          rowKey="id"
          size="small"
          loading={pending.isLoading}
          dataSource={pending.data?.list ?? []}
          pagination={false}
          // As wide as the panel, its text wrapping: no column fixed over the others, none cut off.
          scroll={{ x: true }}
          locale={{ emptyText }}
          columns={[
            { key: "name", title: t("withdrawal:fields.legal_name.label"), dataIndex: "legal_name" },
            ...figures.map((f) => ({
              key: f.key,
              title: f.title,
              render: (_: unknown, row: DataRow) => f.render(row),
            })),
            ...(can.review
              ? [
                  {
                    key: "actions",
                    title: t("common:fields.action"),
                    render: (_: unknown, row: DataRow) => actions(row),
                  },
                ]
              : []),
          ]}
        />
      )}
    </Card>
  );
}

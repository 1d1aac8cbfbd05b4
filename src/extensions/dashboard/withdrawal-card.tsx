// Withdrawals waiting for review on the dashboard, approved or refused from here by those who may: with
// its actions' dialogs, a module of its own, loaded only for those who see the panel.
import { useQuery } from "@tanstack/react-query";
import { Card, Table } from "antd";
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
  const pending = useQuery(queries.pending());
  const withdrawals = useMemo(() => screenContext("data_withdrawal_review"), []);
  return (
    <Card
      variant="borderless"
      className="screen-card withdrawal-panel"
      title={t("common:home.withdrawals")}
      extra={<Link to={WITHDRAWAL_QUEUE}>{t("common:home.allWithdrawals", { count: pending.data?.total ?? 0 })}</Link>}
    >
      {pending.error && !pending.data ? (
        <ErrorText error={pending.error} />
      ) : (
        <Table<DataRow>
          rowKey="id"
          size="small"
          loading={pending.isLoading}
          dataSource={pending.data?.list ?? []}
          pagination={false}
          // As wide as the panel, its text wrapping: no column fixed over the others, none cut off.
          scroll={{ x: true }}
          locale={{ emptyText: t("common:home.noWithdrawals") }}
          columns={[
            { key: "name", title: t("withdrawal:fields.legal_name.label"), dataIndex: "legal_name" },
            {
              key: "amount",
              title: t("withdrawal:fields.amount.label"),
              dataIndex: "amount",
              render: (v: number) => money(v),
            },
            {
              key: "final",
              title: t("withdrawal:fields.final_amount.label"),
              dataIndex: "final_amount",
              render: (v: number) => money(v),
            },
            {
              key: "balance",
              title: t("withdrawal:fields.agent_withdrawable.label"),
              dataIndex: "agent_withdrawable",
              render: (v: number) => money(v),
            },
            {
              key: "method",
              title: t("withdrawal:fields.payout_method.label"),
              dataIndex: "payout_method",
              render: (v: string) => t(defEnumKey("payoutMethod", v)),
            },
            ...(can.review
              ? [
                  {
                    key: "actions",
                    title: t("common:fields.action"),
                    render: (_: unknown, row: DataRow) => (
                      <ActionButtons actions={transitionActions(withdrawals, row)} />
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
    </Card>
  );
}

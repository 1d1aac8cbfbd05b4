// An operator's earnings, below its devices: what it has earned from the devices bound to it with a profit
// share (its shares less what refunds took back, operator-earnings) and its latest entries, each with its
// device, order and time. Read only: the operator's agent pays it outside the console.
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, List, Statistic, Typography } from "antd";
import { api } from "../../app/api.ts";
import { formatDateTime } from "../../crud/format.ts";
import type { OperatorEarningsAnswer } from "../../generated/types.ts";
import { ErrorText, useCardText } from "./card-parts.tsx";
import { readsAny } from "../../app/query-reads.ts";

const LATEST = 5;

export function MyEarnings() {
  const { t, lng, money } = useCardText();
  const query = useQuery({
    queryKey: ["operator-earnings", "mine"],
    meta: { reads: readsAny("profit_record", "payment_record") },
    queryFn: () => api("operator-earnings", { query: { limit: LATEST } }),
  });
  return (
    <Card variant="borderless" className="screen-card my-earnings" title={t("common:home.myEarnings")}>
      {query.error && !query.data ? (
        <ErrorText error={query.error} />
      ) : (
        <>
          <Statistic
            className="my-earnings-total"
            title={t("common:home.earningsTotal")}
            value={money(query.data?.earnings ?? 0)}
            loading={query.isLoading}
          />
          <List<OperatorEarningsAnswer["entries"][number]>
            className="my-earnings-list"
            header={<Typography.Text type="secondary">{t("common:home.latestEarnings")}</Typography.Text>}
            loading={query.isLoading}
            dataSource={query.data?.entries ?? []}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("common:home.noEarnings")} />,
            }}
            renderItem={(entry) => {
              const back = entry.kind === "operator_share_reversal";
              return (
                <List.Item className="my-earning" data-order={entry.order_no ?? ""}>
                  <List.Item.Meta
                    title={
                      <span>
                        {entry.mac_name}
                        {" · "}
                        {t(back ? "common:home.shareTakenBack" : "common:home.shareEarned")}
                      </span>
                    }
                    description={
                      <Typography.Text type="secondary">
                        {formatDateTime(entry.paid_at, lng)}
                        {entry.order_no ? ` · ${entry.order_no}` : ""}
                      </Typography.Text>
                    }
                  />
                  <Typography.Text strong type={back ? "danger" : "success"} className="my-earning-amount">
                    {back ? "−" : "+"}
                    {money(entry.amount)}
                  </Typography.Text>
                </List.Item>
              );
            }}
          />
        </>
      )}
    </Card>
  );
}

// The dashboard's cards (dashboard.tsx lays them out): each calls its own statistics query (queries.ts;
// cards sharing one share its answer) and shows its own loading state and error.
import { useQuery } from "@tanstack/react-query";
import { Card, Col, List, Row, Segmented, Skeleton, Space, Statistic, Table, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { ApiError } from "../../app/api.ts";
import { formatAmount, useCurrency } from "../../crud/format.ts";
import { screenContext } from "../../crud/resource.ts";
import { transitionActions } from "../../crud/action-sources.tsx";
import { ActionButtons } from "../../crud/actions.tsx";
import { defEnumKey, entityKeyBase, enumKey } from "../../schema/keys.ts";
import { Chart } from "./chart.tsx";
import { FigureHint } from "./figure-hint.tsx";
import { CHART_FONT } from "./echarts.ts";
import { TODO_LINKS, WITHDRAWAL_QUEUE } from "./links.ts";
import { access, FIRST_DAYS, NAMESPACES, queries, type DataRow, type Days } from "./queries.ts";

const PERIODS = ["today", "yesterday", "week", "month"] as const;

/** The cards' texts, and amounts in the business's currency and the user's language. */
function useCardText() {
  const { t, i18n } = useTranslation(NAMESPACES);
  const lng = i18n.resolvedLanguage ?? "en";
  const currency = useCurrency();
  return { t, lng, money: (minor: number) => formatAmount(minor, lng, currency) };
}

/** A figure's name with its definition behind a question mark (on hover, on focus, on a tap). */
function HintedTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <Space size={4}>
      {title}
      <FigureHint hint={hint} />
    </Space>
  );
}

function ErrorText({ error }: { error: unknown }) {
  return <Typography.Text type="danger">{(error as ApiError).message}</Typography.Text>;
}

/** The business day the figures are of, beside the greeting. */
export function BusinessDay() {
  const { t } = useCardText();
  const totals = useQuery(queries.totals());
  if (!totals.data) return null;
  return <Typography.Text type="secondary">{t("common:home.businessDay", { day: totals.data.day })}</Typography.Text>;
}

/** Turnover, revenue, orders and refunds of today, yesterday, this week and this month. */
export function PeriodCards() {
  const { t, money } = useCardText();
  const totals = useQuery(queries.totals());
  return (
    <Row gutter={[16, 16]}>
      {PERIODS.map((period) => (
        <Col key={period} xs={24} sm={12} xl={6}>
          <Card variant="borderless" className="home-stat period-card" title={t(`common:home.periods.${period}`)}>
            {totals.error ? (
              <ErrorText error={totals.error} />
            ) : (
              <Row gutter={8}>
                <Col span={12}>
                  <Statistic
                    title={t("common:home.turnover")}
                    value={money(totals.data?.periods[period].turnover ?? 0)}
                    loading={totals.isLoading}
                  />
                </Col>
                <Col span={12}>
                  <Statistic
                    title={<HintedTitle title={t("common:home.revenue")} hint={t("common:home.revenueHint")} />}
                    value={money(totals.data?.periods[period].revenue ?? 0)}
                    loading={totals.isLoading}
                  />
                </Col>
                <Col span={12}>
                  <Statistic
                    title={t("common:home.orders")}
                    value={totals.data?.periods[period].orders ?? 0}
                    loading={totals.isLoading}
                  />
                </Col>
                <Col span={12}>
                  <Statistic
                    title={<HintedTitle title={t("common:home.refunds")} hint={t("common:home.refundsHint")} />}
                    value={money(totals.data?.periods[period].refunds ?? 0)}
                    loading={totals.isLoading}
                  />
                </Col>
              </Row>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** Totals since the start, and the device, team and member counts. */
export function TotalCards() {
  const { t, money } = useCardText();
  const totals = useQuery(queries.totals());
  return (
    <Row gutter={[16, 16]} className="dashboard-row">
      {(
        [
          ["totalTurnover", money(totals.data?.totals.turnover ?? 0)],
          ["totalRevenue", money(totals.data?.totals.revenue ?? 0)],
          ["totalOrders", totals.data?.totals.orders ?? 0],
          ["devices", totals.data?.devices ?? 0],
          ["team", totals.data?.team ?? 0],
          ["members", totals.data?.members ?? 0],
        ] as const
      ).map(([key, value]) => (
        <Col key={key} xs={12} md={8} xl={4}>
          <Card variant="borderless" className="home-stat">
            <Statistic title={t(`common:home.${key}`)} value={value} loading={totals.isLoading} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** The trade trend over 7, 30 or 90 days, and the order mix by device kind over the same days. */
export function TrendCards() {
  const { t, lng, money } = useCardText();
  const [days, setDays] = useState<Days>(FIRST_DAYS);
  const trade = useQuery({ ...queries.trade(days), placeholderData: (previous) => previous });
  const mix = useQuery({ ...queries.mix(days), placeholderData: (previous) => previous });

  const tradeOption = useMemo(() => {
    const data = trade.data ?? [];
    return {
      textStyle: { fontFamily: CHART_FONT },
      tooltip: { trigger: "axis", valueFormatter: (v: number) => String(v) },
      legend: { top: 0, textStyle: { fontFamily: CHART_FONT } },
      grid: { left: 56, right: 56, top: 36, bottom: 28 },
      xAxis: { type: "category", data: data.map((d) => d.day.slice(5)) },
      yAxis: [
        { type: "value", axisLabel: { formatter: (v: number) => money(v) } },
        { type: "value", minInterval: 1, splitLine: { show: false } },
      ],
      series: [
        {
          name: t("common:home.turnover"),
          type: "line",
          smooth: true,
          data: data.map((d) => d.turnover),
          itemStyle: { color: "#1f6feb" },
          tooltip: { valueFormatter: (v: number) => money(v) },
        },
        {
          name: t("common:home.revenue"),
          type: "line",
          smooth: true,
          data: data.map((d) => d.revenue),
          itemStyle: { color: "#2da44e" },
          tooltip: { valueFormatter: (v: number) => money(v) },
        },
        {
          name: t("common:home.orders"),
          type: "bar",
          yAxisIndex: 1,
          data: data.map((d) => d.orders),
          itemStyle: { color: "#d0d7de" },
          barMaxWidth: 18,
        },
      ],
    };
  }, [trade.data, lng, t]);

  const mixOption = useMemo(() => {
    const kinds = mix.data?.kinds ?? [];
    return {
      textStyle: { fontFamily: CHART_FONT },
      tooltip: { trigger: "item" },
      legend: { bottom: 0, textStyle: { fontFamily: CHART_FONT } },
      series: [
        {
          type: "pie",
          radius: ["42%", "68%"],
          center: ["50%", "44%"],
          label: { show: false },
          data: kinds.map((k) => ({
            name: k.key ? t(enumKey(entityKeyBase("order"), "device_kind", k.key)) : t("common:home.unknownKind"),
            value: k.orders,
          })),
        },
      ],
    };
  }, [mix.data, lng, t]);

  return (
    <Row gutter={[16, 16]} className="dashboard-row">
      <Col xs={24} xl={16}>
        <Card
          variant="borderless"
          className="screen-card"
          title={t("common:home.trend")}
          extra={
            <Segmented<Days>
              value={days}
              onChange={setDays}
              options={[7, 30, 90].map((d) => ({
                value: d as Days,
                label: t("common:home.lastDays", { count: d }),
              }))}
            />
          }
        >
          {trade.error ? (
            <ErrorText error={trade.error} />
          ) : trade.data ? (
            <Chart option={tradeOption as never} height={300} label={t("common:home.trend")} />
          ) : (
            <Skeleton active />
          )}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card variant="borderless" className="screen-card" title={t("common:home.mix")}>
          {mix.error ? (
            <ErrorText error={mix.error} />
          ) : mix.data ? (
            <Chart option={mixOption as never} height={300} label={t("common:home.mix")} />
          ) : (
            <Skeleton active />
          )}
        </Card>
      </Col>
    </Row>
  );
}

/** The to-do list: each item opens its list already filtered. */
export function TodoCard() {
  const { t } = useCardText();
  const todo = useQuery(queries.todo());
  return (
    <Card variant="borderless" className="screen-card todo-list" title={t("common:home.todo")}>
      {todo.error ? (
        <ErrorText error={todo.error} />
      ) : (
        <List
          loading={todo.isLoading}
          dataSource={(Object.keys(TODO_LINKS) as (keyof typeof TODO_LINKS)[]).filter(
            (k) => (todo.data?.[k] ?? -1) >= 0,
          )}
          renderItem={(key) => (
            <List.Item
              extra={
                <Tag color={todo.data![key] > 0 ? "orange" : "default"} bordered={false}>
                  {todo.data![key]}
                </Tag>
              }
            >
              <Link to={TODO_LINKS[key]}>{t(`common:home.todos.${key}`)}</Link>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

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
      {pending.error ? (
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

/** The agents directly below, with their devices and this month's turnover. */
export function TeamCard() {
  const { t, money } = useCardText();
  const team = useQuery(queries.team());
  return (
    <Card variant="borderless" className="screen-card" title={t("common:home.teamTitle")}>
      {team.error ? (
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

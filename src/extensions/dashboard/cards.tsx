// The dashboard's cards (dashboard.tsx lays them out): each calls its own statistics query (queries.ts;
// cards sharing one share its answer) and shows its own loading state and error.
// The trend (ECharts), the withdrawal panel (its actions' dialogs) and the team (a table) are modules of
// their own, loaded only for those who see them (trend-cards.tsx, withdrawal-card.tsx, team-card.tsx).
import { useQuery } from "@tanstack/react-query";
import { Card, Col, List, Row, Statistic, Tag, Typography } from "antd";
import { Link } from "react-router";
import { ErrorText, HintedTitle, useCardText } from "./card-parts.tsx";
import { TODO_LINKS } from "./links.ts";
import { queries } from "./queries.ts";

const PERIODS = ["today", "yesterday", "week", "month"] as const;

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
            {totals.error && !totals.data ? (
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

/** The to-do list: each item opens its list already filtered. */
export function TodoCard() {
  const { t } = useCardText();
  const todo = useQuery(queries.todo());
  return (
    <Card variant="borderless" className="screen-card todo-list" title={t("common:home.todo")}>
      {todo.error && !todo.data ? (
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

// The trade trend over 7, 30 or 90 days and the order mix: the dashboard's only ECharts, in a module of
// its own so that a home without them (an operator's, a phone's first screen) never downloads ECharts.
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Row, Segmented, Skeleton } from "antd";
import { useMemo, useState } from "react";
import { ErrorText, useCardText } from "./card-parts.tsx";
import { Chart } from "./chart.tsx";
import { CHART_FONT } from "./echarts.ts";
import { entityKeyBase, enumKey } from "../../schema/keys.ts";
import { FIRST_DAYS, queries, type Days } from "./queries.ts";

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
          {trade.error && !trade.data ? (
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
          {mix.error && !mix.data ? (
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

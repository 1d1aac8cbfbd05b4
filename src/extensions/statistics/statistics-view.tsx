// A statistics view (views.ts declares the two: device statistics, stock consumption): over a period of
// business days, the totals, a trend of each day and a breakdown by device, goods or outlet, all of the
// caller's scope as the server reads it. What is chosen (period, breakdown, order, page) is in the
// address, so a tab comes back as it was left and a link shows the same figures.
import { useQuery } from "@tanstack/react-query";
import { Card, Segmented, Skeleton, Space, Statistic, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { api, type ApiError } from "../../app/api.ts";
import { formatAmount, formatNumber, useCurrency } from "../../crud/format.ts";
import { operationSchemas } from "../../generated/operations.ts";
import { enumKey, operationKeyBase } from "../../schema/keys.ts";
import { Chart } from "../dashboard/chart.tsx";
import { FigureHint } from "../dashboard/figure-hint.tsx";
import { CHART_FONT, loadFontsFor } from "../dashboard/echarts.ts";
import type { ExtensionProps } from "../index.ts";
import { Breakdown, PAGE_SIZE, type BreakdownRow } from "./breakdown.tsx";
import { PeriodBar, type PeriodValue } from "./period-bar.tsx";
import "./statistics.css";
import { DEVICE_STATISTICS, STOCK_STATISTICS, type Answer, type Dimension, type ViewConfig } from "./views.ts";
import { FIGURES } from "../../app/query-reads.ts";

export const DeviceStatistics = (_props: ExtensionProps) => <StatisticsView view={DEVICE_STATISTICS} />;
export const StockStatistics = (_props: ExtensionProps) => <StatisticsView view={STOCK_STATISTICS} />;

/** The view's choices as the address holds them, with the defaults for what it does not. */
function useChoices(view: ViewConfig) {
  const [params, setParams] = useSearchParams();
  const by = (view.dimensions as string[]).includes(params.get("by") ?? "")
    ? (params.get("by") as Dimension)
    : view.dimensions[0];
  const choices = {
    period: params.get("period") ?? "last_7_days",
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
    by,
    sort: params.get("sort") ?? view.columns(by)[0].key,
    order: (params.get("order") === "asc" ? "asc" : "desc") as "asc" | "desc",
    page: Math.max(1, Number(params.get("page")) || 1),
  };
  /** Changes some choices; any change but the page's goes back to the first page. */
  const change = (next: Partial<typeof choices>) => {
    const merged = { ...choices, ...(next.page ? {} : { page: 1 }), ...next };
    if (next.by && !next.sort) merged.sort = view.columns(next.by)[0].key;
    if (merged.period !== "custom") delete (merged as Partial<typeof merged>).from;
    if (merged.period !== "custom") delete (merged as Partial<typeof merged>).to;
    setParams(
      Object.fromEntries(Object.entries(merged).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))),
      { replace: true },
    );
  };
  return { choices, change };
}

export function StatisticsView({ view }: { view: ViewConfig }) {
  const { t, i18n } = useTranslation(["statistics", view.entity, "common"]);
  const lng = i18n.resolvedLanguage ?? "en";
  const currency = useCurrency();
  const money = (minor: number) => formatAmount(minor, lng, currency);
  const { choices, change } = useChoices(view);
  const base = operationKeyBase(operationSchemas[view.call]);

  const query = useQuery({
    queryKey: ["statistics", view.call, choices],
    meta: { reads: FIGURES },
    queryFn: () =>
      api<Answer>(view.call, {
        query: Object.fromEntries(
          Object.entries({ ...choices, limit: PAGE_SIZE }).filter(([, v]) => v !== undefined),
        ) as Record<string, string | number>,
      }),
    placeholderData: (previous) => previous,
  });
  const data = query.data;
  const totals = (data?.totals ?? {}) as Record<string, number>;
  const figureText = (figure: { money?: boolean }, value: number) =>
    figure.money ? money(value) : formatNumber(value, lng);

  return (
    <Space direction="vertical" size={16} className="screen-stack statistics-view" data-call={view.call}>
      <PeriodBar
        call={view.call}
        value={choices as PeriodValue}
        shown={data && { from: data.from, to: data.to, today: data.today }}
        onChange={(period) => change({ from: undefined, to: undefined, ...period })}
      />
      {query.error && !data && (
        <Typography.Text type="danger" role="alert">
          {(query.error as ApiError).message}
        </Typography.Text>
      )}

      <div className="statistics-totals">
        {view.totals.map((card) => {
          const suffix = data ? card.suffix?.(totals) : undefined;
          return (
            <Card key={card.key} variant="borderless" className="home-stat statistics-total" data-figure={card.key}>
              <Statistic
                title={
                  card.hint ? (
                    <Space size={4}>
                      {t(`statistics:figures.${card.key}`)}
                      <FigureHint hint={t(`statistics:hints.${view.call}.${card.key}`)} />
                    </Space>
                  ) : (
                    t(`statistics:figures.${card.key}`)
                  )
                }
                value={data ? figureText(card, card.value(totals)) : ""}
                suffix={
                  suffix && (
                    <span className="statistics-suffix">{t(`statistics:${suffix.key}`, { count: suffix.count })}</span>
                  )
                }
                loading={!data && query.isLoading}
              />
            </Card>
          );
        })}
      </div>

      <TrendCard view={view} data={data} loading={query.isLoading} money={money} lng={lng} />

      <Card
        variant="borderless"
        className="screen-card statistics-breakdown"
        title={t("statistics:breakdown")}
        extra={
          <Segmented<Dimension>
            value={choices.by}
            onChange={(by) => change({ by })}
            options={view.dimensions.map((d) => ({ value: d, label: t(enumKey(base, "by", d)) }))}
          />
        }
      >
        <Breakdown
          by={choices.by}
          figures={view.columns(choices.by)}
          rows={(data?.breakdown.list ?? []) as BreakdownRow[]}
          total={data?.breakdown.total ?? 0}
          page={choices.page}
          sort={choices.sort}
          order={choices.order}
          loading={query.isFetching}
          format={figureText}
          onPage={(page) => change({ page })}
          onSort={(sort, order) => change({ sort, order })}
        />
      </Card>
    </Space>
  );
}

/** Each day of the period: amounts on the left axis, counts on the right. */
function TrendCard({
  view,
  data,
  loading,
  money,
  lng,
}: {
  view: ViewConfig;
  data?: Answer;
  loading: boolean;
  money: (minor: number) => string;
  lng: string;
}) {
  const { t } = useTranslation("statistics");
  const names = useMemo(() => view.trend.map((s) => t(`figures.${s.key}`)), [view, t, lng]);
  // Canvas text does not fetch a font's slice by itself: the legend's words first (Khmer, Thai).
  const [fontsReady, setFontsReady] = useState(false);
  useEffect(() => {
    let live = true;
    void loadFontsFor(names).then(() => live && setFontsReady(true));
    return () => {
      live = false;
    };
  }, [names]);

  const option = useMemo(() => {
    const days = (data?.trend ?? []) as Record<string, number | string>[];
    return {
      textStyle: { fontFamily: CHART_FONT },
      tooltip: { trigger: "axis" },
      legend: { top: 0, textStyle: { fontFamily: CHART_FONT } },
      grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: "category", data: days.map((d) => String(d.day).slice(5)) },
      yAxis: [
        { type: "value", axisLabel: { formatter: (v: number) => money(v) } },
        { type: "value", minInterval: 1, splitLine: { show: false } },
      ],
      series: view.trend.map((s, i) => ({
        name: names[i],
        type: s.type,
        smooth: s.type === "line",
        smoothMonotone: "x",
        yAxisIndex: s.money ? 0 : 1,
        data: days.map((d) => Number(d[s.key] ?? 0)),
        itemStyle: { color: s.color },
        barMaxWidth: 18,
        tooltip: { valueFormatter: (v: number) => (s.money ? money(v) : formatNumber(v, lng)) },
      })),
    };
  }, [data, names, lng]);

  return (
    <Card variant="borderless" className="screen-card statistics-trend" title={t("trend")}>
      {data && fontsReady ? (
        <Chart option={option as never} height={300} label={t("trend")} />
      ) : (
        <Skeleton active loading={loading || !fontsReady} />
      )}
    </Card>
  );
}

// The device map: every device of the business at its outlet's coordinates, coloured by its status, over
// outlines shipped with the console (Natural Earth, no tile server, works offline). Zoom and pan with the
// mouse or fingers; ECharts' large mode draws 100,000 points in one pass; a click opens the device.
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Skeleton, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { ApiError } from "../../app/api.ts";
import { useTouch } from "../../app/theme.ts";
import type { StatisticsLineMachineAnswer } from "../../generated/types.ts";
import { queries } from "./queries.ts";
import { Chart } from "./chart.tsx";
import countries from "./countries.geo.json" with { type: "json" };
import { CHART_FONT, echarts, loadFontsFor } from "./echarts.ts";
import { entityKeyBase, enumKey } from "../../schema/keys.ts";

/**
 * Devices of one outlet share its coordinates: each is set a few metres off it, on a sunflower spiral by
 * its id, so that zoomed in they stand apart (zoomed out they still read as the outlet).
 */
export function spread(id: number, lng: number, lat: number): [number, number] {
  const step = id % 64;
  const radius = 0.00012 * Math.sqrt(step);
  const angle = step * 2.399963; // the golden angle, in radians
  return [lng + radius * Math.cos(angle), lat + radius * Math.sin(angle)];
}

/** Statuses in the order of the legend, with the colour each is drawn in. */
export const STATUS_COLORS: Record<string, string> = {
  online: "#2da44e",
  offline: "#8c959f",
  inactive: "#57606a",
  near_expiry: "#d4a72c",
  low_battery: "#e16f24",
  out_of_stock: "#cf222e",
};

let registered = false;
function registerOutlines() {
  if (registered) return;
  echarts.registerMap("business", countries as never);
  registered = true;
}

/** The view that fits every point (or the business's region when there are none). */
function bounds(points: StatisticsLineMachineAnswer): { center: [number, number]; span: number } {
  if (points.id.length === 0) return { center: [104.5, 12.5], span: 12 };
  // A loop, not Math.min(...list): 100,000 arguments would overflow the call stack.
  const lng = [Infinity, -Infinity];
  const lat = [Infinity, -Infinity];
  points.longitude.forEach((x, i) => {
    const y = points.latitude[i];
    lng[0] = Math.min(lng[0], x);
    lng[1] = Math.max(lng[1], x);
    lat[0] = Math.min(lat[0], y);
    lat[1] = Math.max(lat[1], y);
  });
  return {
    center: [(lng[0] + lng[1]) / 2, (lat[0] + lat[1]) / 2],
    span: Math.max(lng[1] - lng[0], lat[1] - lat[0], 1),
  };
}

export function DeviceMap({ height = 460 }: { height?: number }) {
  const { t, i18n } = useTranslation(["common", "machine"]);
  const navigate = useNavigate();
  const query = useQuery(queries.map());
  // A device is a tap away on a touch screen: its point big enough for a finger to find.
  const touch = useTouch();
  const [fontsReady, setFontsReady] = useState(false);
  const names = useMemo(
    () =>
      Object.fromEntries(
        countries.features.map((f) => [f.properties.name, t(`common:map.countries.${f.properties.name}`)]),
      ),
    [t, i18n.resolvedLanguage],
  );
  useEffect(() => {
    let live = true;
    setFontsReady(false);
    void loadFontsFor([
      ...Object.values(names),
      ...Object.keys(STATUS_COLORS).map((s) => t(enumKey(entityKeyBase("machine"), "status", s))),
    ]).then(() => live && setFontsReady(true));
    return () => {
      live = false;
    };
  }, [names]);

  const byStatus = useMemo(() => {
    const points = query.data;
    const groups = new Map<string, { coords: number[]; ids: number[] }>();
    if (!points) return groups;
    // Marked once, for the bench: the map starts work on its points (its first frame is timed from here).
    if (!performance.getEntriesByName("device-map-points").length) performance.mark("device-map-points");
    for (const status of Object.keys(STATUS_COLORS)) groups.set(status, { coords: [], ids: [] });
    points.id.forEach((id, i) => {
      const group = groups.get(points.status[i]) ?? groups.get("offline")!;
      group.coords.push(...spread(id, points.longitude[i], points.latitude[i]));
      group.ids.push(id);
    });
    return groups;
  }, [query.data]);

  const option = useMemo(() => {
    if (!query.data) return undefined;
    registerOutlines();
    const { center, span } = bounds(query.data);
    const statuses = [...byStatus.keys()];
    const codes = new Map(query.data.id.map((id, i) => [id, query.data!.mac_name[i]]));
    return {
      animation: false,
      textStyle: { fontFamily: CHART_FONT },
      tooltip: {
        trigger: "item",
        formatter: (p: { seriesIndex: number; dataIndex: number; seriesName: string }) => {
          const id = byStatus.get(statuses[p.seriesIndex])?.ids[p.dataIndex];
          return id === undefined ? "" : `${codes.get(id) ?? id} · ${p.seriesName}`;
        },
      },
      legend: { bottom: 0, textStyle: { fontFamily: CHART_FONT } },
      geo: {
        map: "business",
        roam: true,
        center,
        // Zoom so the devices' spread fills the view; the outlines' own extent is about 60°.
        zoom: Math.min(40, Math.max(1, 40 / span)),
        nameMap: names,
        label: { show: true, fontFamily: CHART_FONT, color: "#57606a", fontSize: 11 },
        itemStyle: { areaColor: "#eef2f7", borderColor: "#b6c2d2" },
        emphasis: { itemStyle: { areaColor: "#e2e9f3" }, label: { show: true } },
        scaleLimit: { min: 1, max: 400 },
      },
      series: statuses.map((status, i) => ({
        type: "scatter",
        name: t(enumKey(entityKeyBase("machine"), "status", status)),
        coordinateSystem: "geo",
        // One typed array per status: large mode draws it in one pass, whatever its size.
        data: new Float64Array(byStatus.get(status)!.coords),
        dimensions: ["lng", "lat"],
        large: true,
        largeThreshold: 2000,
        // Every point in the first frame (large mode draws them in one pass), not in 5,000-point steps.
        progressive: 0,
        symbolSize: touch ? 12 : 7,
        // What needs attention is drawn over what does not.
        z: 2 + i,
        itemStyle: { color: STATUS_COLORS[status], borderColor: "#ffffff", borderWidth: 0.5 },
        emphasis: { scale: 1.6 },
      })),
    };
  }, [query.data, byStatus, names, t, touch]);

  const statuses = [...byStatus.keys()];
  return (
    <Card
      className="screen-card dashboard-map"
      variant="borderless"
      title={t("common:home.map")}
      extra={
        query.data ? (
          <Typography.Text type="secondary">
            {t("common:home.devicesOnMap", { count: query.data.id.length })}
          </Typography.Text>
        ) : null
      }
    >
      {query.error && !query.data ? (
        <Typography.Text type="danger">{(query.error as ApiError).message}</Typography.Text>
      ) : !option || !fontsReady ? (
        <Skeleton.Node active style={{ width: "100%", height }} />
      ) : query.data!.id.length === 0 ? (
        <Empty description={t("common:home.noDevicesOnMap")} />
      ) : (
        <Chart
          option={option as never}
          height={height}
          label={t("common:home.map")}
          className="device-map"
          onRendered={() => {
            // Marked once, for the bench and the browser tests: the first frame with every point.
            if (!performance.getEntriesByName("device-map-rendered").length) performance.mark("device-map-rendered");
          }}
          onClick={(event) => {
            const id = byStatus.get(statuses[event.seriesIndex ?? -1])?.ids[event.dataIndex];
            if (id) navigate(`/machine/list/show/${id}`);
          }}
        />
      )}
    </Card>
  );
}

// ECharts for the dashboard only (it loads with this screen): the core and just the charts and
// components the dashboard draws, so the chunk stays small.
import * as echarts from "echarts/core";
import { BarChart, LineChart, PieChart, ScatterChart } from "echarts/charts";
import {
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  DataZoomInsideComponent,
} from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  ScatterChart,
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  DataZoomInsideComponent,
  CanvasRenderer,
]);

/** Canvas text takes no CSS variables: the shipped fonts by name, Latin first, then each script's. */
export const CHART_FONT =
  '"Noto Sans", "Noto Sans Thai", "Noto Sans Khmer", "Noto Sans SC", "Noto Sans TC", sans-serif';

/**
 * Canvas text does not make the browser fetch a font's unicode-range slice: load the slices the chart's
 * words need first, or Khmer and Thai place names would draw as boxes.
 */
export async function loadFontsFor(texts: string[]): Promise<void> {
  if (typeof document === "undefined" || !document.fonts) return;
  const text = texts.join(" ");
  await Promise.all(
    ["Noto Sans", "Noto Sans Thai", "Noto Sans Khmer", "Noto Sans SC", "Noto Sans TC"].map((family) =>
      document.fonts.load(`12px "${family}"`, text).catch(() => []),
    ),
  );
}

export { echarts };

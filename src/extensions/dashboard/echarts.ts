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

/** Each shipped family and the characters it is there for (Noto Sans: everything else). */
const SCRIPTS: [family: string, chars: RegExp][] = [
  ["Noto Sans Thai", /[\u0E00-\u0E7F]/gu],
  ["Noto Sans Khmer", /[\u1780-\u17FF\u19E0-\u19FF]/gu],
  ["Noto Sans SC", /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]/gu],
  ["Noto Sans TC", /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]/gu],
];

/**
 * Canvas text does not make the browser fetch a font's unicode-range slice: load the slices the chart's
 * words need first, or Khmer and Thai place names would draw as boxes. Each family is asked only for the
 * characters of its script (asked for Latin text, every family would fetch its Latin slice too).
 */
export async function loadFontsFor(texts: string[]): Promise<void> {
  if (typeof document === "undefined" || !document.fonts) return;
  const text = texts.join(" ");
  const wanted: [string, string][] = [["Noto Sans", text]];
  for (const [family, chars] of SCRIPTS) {
    const own = [...new Set(text.match(chars) ?? [])].join("");
    if (own) wanted.push([family, own]);
  }
  await Promise.all(wanted.map(([family, own]) => document.fonts.load(`12px "${family}"`, own).catch(() => [])));
}

export { echarts };

// The two statistics views, declared: which call each reads, its breakdowns, the totals it shows, the
// series of its trend and the figures of its breakdown table (statistics-view.tsx draws any of them).
// Labels are statistics:figures.<key>; a money figure is shown as an amount.
import type { StatisticsDevicesAnswer, StatisticsStockAnswer } from "../../generated/types.ts";

export type Dimension = "machine" | "goods" | "shop";
export type StatisticsCall = "statistics-devices" | "statistics-stock";
export type Answer = StatisticsDevicesAnswer | StatisticsStockAnswer;
type Totals = Record<string, number>;

export interface Figure {
  key: string;
  money?: boolean;
}

export interface TotalCard extends Figure {
  /** The figure from the answer's totals (a card may derive it, as an average). */
  value: (totals: Totals) => number;
  /** What the figure counts, behind a question mark: statistics:hints.<key>. */
  hint?: boolean;
  /** Shown after the value: "of 12 devices". */
  suffix?: (totals: Totals) => { key: string; count: number } | undefined;
}

export interface TrendSeries extends Figure {
  type: "line" | "bar";
  color: string;
}

export interface ViewConfig {
  call: StatisticsCall;
  /** The entity whose namespace holds the call's words (its period and breakdown names). */
  entity: "machine" | "stock_consumption";
  /** The breakdowns offered, the first shown at first. */
  dimensions: Dimension[];
  totals: TotalCard[];
  trend: TrendSeries[];
  /** The figure columns of the breakdown table, by breakdown; the first is the default order. */
  columns: (by: Dimension) => Figure[];
}

const TAKINGS = "#1f6feb";

export const DEVICE_STATISTICS: ViewConfig = {
  call: "statistics-devices",
  entity: "machine",
  dimensions: ["machine", "goods", "shop"],
  totals: [
    { key: "takings", money: true, hint: true, value: (t) => t.takings },
    { key: "orders", value: (t) => t.orders },
    { key: "average", money: true, value: (t) => (t.orders ? Math.round(t.takings / t.orders) : 0) },
    {
      key: "active_devices",
      hint: true,
      value: (t) => t.active_devices,
      suffix: (t) => ({ key: "ofDevices", count: t.devices }),
    },
  ],
  trend: [
    { key: "takings", money: true, type: "line", color: TAKINGS },
    { key: "orders", type: "bar", color: "#d0d7de" },
  ],
  columns: (by) =>
    by === "goods"
      ? [{ key: "takings", money: true }, { key: "sold" }, { key: "devices" }]
      : by === "shop"
        ? [{ key: "takings", money: true }, { key: "orders" }, { key: "devices" }]
        : [{ key: "takings", money: true }, { key: "orders" }],
};

export const STOCK_STATISTICS: ViewConfig = {
  call: "statistics-stock",
  entity: "stock_consumption",
  dimensions: ["goods", "machine", "shop"],
  totals: [
    { key: "sold", value: (t) => t.sold },
    { key: "takings", money: true, hint: true, value: (t) => t.takings },
    { key: "restocked", value: (t) => t.restocked },
    { key: "goods", value: (t) => t.goods },
    { key: "devices", value: (t) => t.devices },
  ],
  trend: [
    { key: "sold", type: "bar", color: "#8250df" },
    { key: "restocked", type: "bar", color: "#d0d7de" },
    { key: "takings", money: true, type: "line", color: TAKINGS },
  ],
  columns: (by) => [
    { key: "sold" },
    { key: "takings", money: true },
    { key: "restocked" },
    ...(by === "machine" ? [] : [{ key: "devices" }]),
  ],
};

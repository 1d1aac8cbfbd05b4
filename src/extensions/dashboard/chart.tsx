// One ECharts instance in a box that follows its container's size; the option is replaced when it
// changes. Clicks on data reach the caller.
import { useEffect, useRef } from "react";
import { echarts } from "./echarts.ts";

type Option = Parameters<echarts.ECharts["setOption"]>[0];

interface Props {
  option: Option;
  height: number;
  /** A data item was clicked: its series index and data index. */
  onClick?: (event: { seriesIndex?: number; dataIndex: number; name?: string }) => void;
  /** Told once the first frame is drawn (the bench measures it). */
  onRendered?: () => void;
  className?: string;
  label?: string;
}

export function Chart({ option, height, onClick, onRendered, className, label }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts>(undefined);
  const handlers = useRef({ onClick, onRendered });
  handlers.current = { onClick, onRendered };

  useEffect(() => {
    const instance = echarts.init(box.current!, undefined, { renderer: "canvas" });
    chart.current = instance;
    // The browser tests find a point's pixel through the chart (the canvas has no elements to click).
    (box.current as HTMLDivElement & { chart?: echarts.ECharts }).chart = instance;
    instance.on("click", (event) => handlers.current.onClick?.(event as never));
    instance.on("finished", () => handlers.current.onRendered?.());
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current!);
    return () => {
      observer.disconnect();
      instance.dispose();
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return <div ref={box} className={className} style={{ height, width: "100%" }} role="img" aria-label={label} />;
}

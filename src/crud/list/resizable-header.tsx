// A list column's width set by dragging its header's right edge, or with the arrow keys on that edge
// (a focusable separator, as the ARIA window splitter): into the same choice the column chooser's width
// edits (column-choice.tsx), so it is kept for the list and saved with a view. antd's Table takes the cell
// as its header cell component (components.header.cell); the column's onHeaderCell hands it what to set.
import type { TableColumnsType } from "antd";
import { useRef, type HTMLAttributes, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";
import { COLUMN_WIDTH } from "./column-choice.tsx";
import type { Row } from "./use-entity-list.ts";

interface Resize {
  /** The width chosen, when one is. */
  width?: number;
  label: string;
  onResize: (width: number) => void;
}

/** An arrow key moves the edge this far, with Shift five times as far. */
const STEP = 10;

const clamp = (width: number) => Math.min(COLUMN_WIDTH.max, Math.max(COLUMN_WIDTH.min, Math.round(width)));
/** The header cell's width on screen: where a column with no width chosen starts from. */
const widthOnScreen = (handle: HTMLElement) => handle.parentElement?.getBoundingClientRect().width ?? COLUMN_WIDTH.min;
/** A click on the edge is not one on the header (which sorts). */
const keep = (event: MouseEvent) => event.stopPropagation();

/** The columns, each but the fixed one (a row's actions) with an edge to drag, setting `setWidth`. */
export function resizable(
  columns: TableColumnsType<Row>,
  setWidth: (key: string, width: number) => void,
  label: (title: string) => string,
): TableColumnsType<Row> {
  return columns.map((column) => {
    if (column.fixed) return column;
    const key = String(column.key);
    const resize: Resize = {
      width: typeof column.width === "number" ? column.width : undefined,
      label: label(column.title as string),
      onResize: (width) => setWidth(key, width),
    };
    return {
      ...column,
      onHeaderCell: (col) => ({ ...column.onHeaderCell?.(col), resize }) as HTMLAttributes<HTMLElement>,
    };
  });
}

/** The table's header cell: a column that can be resized has its edge. */
export function ResizableHeaderCell({ resize, children, ...cell }: HTMLAttributes<HTMLElement> & { resize?: Resize }) {
  return (
    <th {...cell}>
      {children}
      {resize && <ResizeEdge {...resize} />}
    </th>
  );
}

/** antd's `components` for a list with resizable columns (one object: a new one would remount the header). */
export const RESIZABLE_HEADER = { header: { cell: ResizableHeaderCell } };

function ResizeEdge({ width, label, onResize }: Resize) {
  const drag = useRef<{ x: number; from: number; frame?: number } | null>(null);
  // From the width chosen, when one is: a table as wide as the screen may draw a column narrower than
  // chosen (its text wraps), and a move of the edge then changes the choice by as much as the pointer moved.
  const from = (handle: HTMLElement) => width ?? widthOnScreen(handle);
  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, from: from(event.currentTarget) };
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const at = drag.current;
    if (!at) return;
    const next = clamp(at.from + event.clientX - at.x);
    // One width a frame: a pointer reports moves faster than the list is drawn again.
    if (at.frame) cancelAnimationFrame(at.frame);
    at.frame = requestAnimationFrame(() => onResize(next));
  };
  const onPointerEnd = (event: PointerEvent<HTMLElement>) => {
    const at = drag.current;
    if (!at) return;
    drag.current = null;
    if (at.frame) cancelAnimationFrame(at.frame);
    if (event.clientX !== at.x) onResize(clamp(at.from + event.clientX - at.x));
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const by = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!by) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(clamp(from(event.currentTarget) + by * STEP * (event.shiftKey ? 5 : 1)));
  };
  return (
    <span
      className="column-resize-edge"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={COLUMN_WIDTH.min}
      aria-valuemax={COLUMN_WIDTH.max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onClick={keep}
      onKeyDown={onKeyDown}
    />
  );
}

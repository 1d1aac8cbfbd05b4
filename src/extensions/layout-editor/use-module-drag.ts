// Dragging in the layout editor (dnd-kit, the pointer past 4 px so that a click stays a click, and the
// keyboard): a module from the palette dropped on the page goes last, on a module before it; a module on
// the page dropped on another takes its place.
import {
  closestCenter,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DndContextProps,
  type DragEndEvent,
} from "@dnd-kit/core";
import { arrayMove, sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useState } from "react";
import type { LayoutModule, ModuleType } from "./layout.ts";

/** The start of a palette entry's drag id (the module type follows), telling it from a module's. */
export const PALETTE = "palette:";

/** The page's modules, `add` for a module from the palette (at an index) and `commit` for a new order. */
export function useModuleDrag(
  modules: LayoutModule[],
  add: (type: ModuleType, at: number) => void,
  commit: (next: LayoutModule[]) => void,
) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // The page as a whole is a drop target only for a module coming from the palette; a module being
  // reordered lands on the module it is over.
  const [fromPalette, setFromPalette] = useState(false);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setFromPalette(false);
    if (!over) return;
    const activeId = String(active.id);
    const overIndex = modules.findIndex((m) => m.id === over.id);
    if (activeId.startsWith(PALETTE)) {
      add(activeId.slice(PALETTE.length) as ModuleType, overIndex < 0 ? modules.length : overIndex);
      return;
    }
    const from = modules.findIndex((m) => m.id === activeId);
    if (from >= 0 && overIndex >= 0 && from !== overIndex) commit(arrayMove(modules, from, overIndex));
  };
  const context: DndContextProps = {
    sensors,
    collisionDetection: closestCenter,
    onDragStart: ({ active }) => setFromPalette(String(active.id).startsWith(PALETTE)),
    onDragCancel: () => setFromPalette(false),
    onDragEnd,
  };
  return { fromPalette, context };
}

// The layout editor's modules with their undo history: each change keeps the layout before it (the last 50)
// for the Undo button and Ctrl/Cmd+Z (outside a text input, whose own undo the browser keeps), and marks
// the page's input as unsaved.
import { useCallback, useEffect, useState } from "react";
import { useUnsavedChanges } from "../../app/unsaved.tsx";
import type { LayoutModule } from "./layout.ts";

export function useModuleHistory(initial: LayoutModule[]) {
  const [modules, setModules] = useState<LayoutModule[]>(initial);
  const [past, setPast] = useState<LayoutModule[][]>([]);
  // A changed layout is unsaved input: leaving the page (a link, a tab, the browser's tab) asks first.
  const { changed } = useUnsavedChanges();

  const commit = useCallback(
    (next: LayoutModule[]) => {
      setPast((history) => [...history.slice(-49), modules]);
      setModules(next);
      changed();
    },
    [modules, changed],
  );
  const undo = useCallback(() => {
    setPast((history) => {
      if (!history.length) return history;
      setModules(history[history.length - 1]);
      return history.slice(0, -1);
    });
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = (event.target as HTMLElement | null)?.closest("input, textarea, [contenteditable=true]");
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !typing) {
        event.preventDefault();
        undo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo]);

  return { modules, past, commit, undo };
}

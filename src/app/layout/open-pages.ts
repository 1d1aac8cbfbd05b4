// The addresses (without their queries) of the pages whose tabs are open, published by the tab bar for
// the pages kept mounted (kept-pages.tsx): a store of its own, so that a tab opening or closing
// re-renders the kept pages alone, not the shell around them.
import { useSyncExternalStore } from "react";

let openPages: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();

export function setOpenPages(paths: Iterable<string>): void {
  openPages = new Set(paths);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useOpenPages = (): ReadonlySet<string> => useSyncExternalStore(subscribe, () => openPages);

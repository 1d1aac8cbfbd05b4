// Unsaved changes are not lost without asking: a form with input the user has not saved registers
// here, and while one does, leaving the page asks first: a link or menu entry, another tab of the tab
// bar, closing the tab, going back from the console's own buttons (React Router's push and go are
// wrapped, as Refine's own notifier does for routers without blockers), the browser's Back and Forward
// within the console, and closing or reloading the browser tab (the browser's own question). Saving, or
// discarding by leaving, forgets the changes.
// The same wrapping starts the page's leaving fade (page-transition.ts), once leaving is certain.
import { App } from "antd";
import { useCallback, useContext, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { UNSAFE_NavigationContext, useLocation } from "react-router";
import { setPopGuard } from "./history-guard.ts";
import { leavesPage, pageLeaving } from "./layout/page-transition.ts";

const unsaved = new Set<symbol>();
let ask: (() => Promise<boolean>) | undefined;

export const hasUnsaved = (): boolean => unsaved.size > 0;

/** Everything typed was saved (or is given up): leaving no longer asks. */
export function forgetUnsaved(): void {
  unsaved.clear();
}

/**
 * Whether the user may leave the page: at once when nothing is unsaved, else after saying so in a
 * confirmation (leaving forgets the changes).
 */
export async function confirmLeave(): Promise<boolean> {
  if (!hasUnsaved() || !ask) return true;
  const leave = await ask();
  if (leave) forgetUnsaved();
  return leave;
}

/**
 * A form's part: `changed()` after each change the user makes, `changed(false)` when its values are back to
 * those it loaded (an edit undone is nothing to lose); its changes are forgotten when it goes.
 */
export function useUnsavedChanges(): { changed: (dirty?: boolean) => void } {
  const token = useRef(Symbol("form"));
  useEffect(() => {
    const mine = token.current;
    return () => {
      unsaved.delete(mine);
    };
  }, []);
  // The same function on every render: callers keep it in their own callbacks' dependencies.
  const changed = useCallback((dirty = true) => {
    if (dirty) unsaved.add(token.current);
    else unsaved.delete(token.current);
  }, []);
  return { changed };
}

/** React Router's number of a history entry (its state's idx), if the entry is the console's. */
function historyIndex(state: unknown): number | undefined {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : undefined;
}

/** Placed once inside the router and antd's App: asks before any navigation while changes are unsaved. */
export function UnsavedChangesGuard() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { navigator } = useContext(UNSAFE_NavigationContext);
  // The history entry the console is at (React Router numbers its entries), for Back and Forward below.
  const location = useLocation();
  const at = useRef<number | undefined>(undefined);
  useEffect(() => {
    at.current = historyIndex(window.history.state);
  }, [location]);

  useEffect(() => {
    ask = () =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t("confirm.leave"),
          content: t("confirm.leaveText"),
          okText: t("confirm.leaveOk"),
          cancelText: t("confirm.stay"),
          okButtonProps: { danger: true },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      });
    return () => {
      ask = undefined;
    };
  }, [modal, t]);

  useEffect(() => {
    const { push: rawPush, go: rawGo } = navigator;
    const push = (...args: Parameters<typeof rawPush>) => {
      if (leavesPage(args[0])) pageLeaving();
      rawPush(...args);
    };
    const go = (...args: Parameters<typeof rawGo>) => {
      pageLeaving();
      rawGo(...args);
    };
    navigator.push = (...args: Parameters<typeof push>) => {
      if (!hasUnsaved()) return push(...args);
      void confirmLeave().then((leave) => leave && push(...args));
    };
    navigator.go = (...args: Parameters<typeof go>) => {
      if (!hasUnsaved()) return go(...args);
      void confirmLeave().then((leave) => leave && go(...args));
    };
    // The browser's Back and Forward: the address has changed when the event arrives, the page not yet.
    // With unsaved changes, React Router does not see the event (src/app/history-guard.ts), the address
    // is put back, and the move is made again once leaving is confirmed.
    let puttingBack = false;
    setPopGuard((event) => {
      if (puttingBack) {
        puttingBack = false;
        return true;
      }
      const from = at.current;
      const to = historyIndex(event.state);
      if (!hasUnsaved() || from === undefined || to === undefined || from === to) return false;
      puttingBack = true;
      window.history.go(from - to);
      void confirmLeave().then((leave) => leave && window.history.go(to - from));
      return true;
    });
    window.addEventListener("popstate", pageLeaving);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsaved()) return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", beforeUnload);
    return () => {
      navigator.push = rawPush;
      navigator.go = rawGo;
      window.removeEventListener("beforeunload", beforeUnload);
      setPopGuard(undefined);
      window.removeEventListener("popstate", pageLeaving);
    };
  }, [navigator]);

  return null;
}

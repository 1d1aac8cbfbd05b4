// After any action (a transition, an operation, a delete, a restore) every screen that shows records
// must show their new state at once: lists, details, counts, related records, relation titles and
// histories. Refine keys its queries by the route's resource identifier, not by the entity, so the
// action invalidates every data query; only the ones on screen refetch.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";

/** Query keys of what records show: Refine's data queries and our own. */
const SHOWN = [["data"], ["related"], ["relation-titles"], ["record-history"], ["statistics"]];

export function useRefreshAfterAction(): () => Promise<void> {
  const queries = useQueryClient();
  return useCallback(async () => {
    await Promise.all(SHOWN.map((queryKey) => queries.invalidateQueries({ queryKey, refetchType: "active" })));
  }, [queries]);
}

// Whether a form's values are still those it loaded: the unsaved-changes guard asks only when they are not.
import { deepEquals } from "@rjsf/utils";

/**
 * The values as they mean something: a field left empty, cleared or filled with nothing is the same as a
 * field never there, an empty list or group as no list or group (rjsf keeps a cleared field's key with `undefined`, a loaded record has no key for it).
 */
function meaningful(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(meaningful);
  if (value === null || typeof value !== "object") return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const clean = meaningful(field);
    if (clean === undefined || clean === null || clean === "") continue;
    if (typeof clean === "object" && Object.keys(clean).length === 0) continue; // {} or []
    kept[key] = clean;
  }
  return kept;
}

/** Whether `now` holds the same values as `loaded`, empty fields aside (an edit typed and then undone). */
export const sameFormData = (loaded: unknown, now: unknown): boolean => deepEquals(meaningful(loaded), meaningful(now));

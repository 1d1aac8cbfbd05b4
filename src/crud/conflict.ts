// A race lost, worked out for the user (the server's 409 names it: server/core/errors.ts). A save at a
// stale version: field by field, the value the form started from, the one saved meanwhile (and who saved
// it, when, from the record's history) and the one typed, each with a choice between keeping one's own and
// taking theirs, and the values to send again. A transition someone else got to first: what happened,
// in words ("Approved by admin2 at 14:02, 3 seconds ago"). Pure functions; conflict-dialog.tsx shows them.
import i18n from "i18next";
import dayjs from "dayjs";
import { ApiError } from "../app/api.ts";
import type { RecordHistoryAnswer } from "../generated/types.ts";
import { sameFormData } from "./form-data.ts";
import { formatDateTime, intlLocale } from "./format.ts";
import type { EntityView } from "./model.ts";
import { timeZone } from "./time-zone.ts";

type Data = Record<string, unknown>;
export type HistoryEntry = RecordHistoryAnswer[number];

/** Which race a 409 says was lost, when it says (other refusals of a record's state carry their own data). */
export function raceOf(error: unknown): "staleVersion" | "stateConflict" | undefined {
  if (!(error instanceof ApiError) || error.statusCode !== 409) return undefined;
  const conflict = (error.data as { conflict?: unknown } | null | undefined)?.conflict;
  return conflict === "staleVersion" || conflict === "stateConflict" ? conflict : undefined;
}

/** Who made a change and when, from the record's history. */
export interface ChangedBy {
  actor: string;
  at: string;
}

/** One field that differs, and what the user keeps of it. */
export interface FieldConflict {
  field: string;
  /** The value as the form loaded the record. */
  base: unknown;
  /** The value saved meanwhile. */
  theirs: unknown;
  /** The value typed. */
  mine: unknown;
  /** Who changed it since the form loaded it: the other user, the user, or both (to different values). */
  changed: "theirs" | "mine" | "both";
  /** A field the form cannot change (read-only, fixed after creation, a state): theirs, without a choice. */
  fixed: boolean;
  /** The last change saved meanwhile, where the history tells it. */
  by?: ChangedBy;
}

export type Choice = "mine" | "theirs";

/** Two values mean the same (an empty field, a cleared one and none are the same: form-data.ts). */
export const sameValue = (a: unknown, b: unknown): boolean => sameFormData({ v: a }, { v: b });

/** The last change to each field, newest history entry first, as the history answers. */
export function lastChanges(history: HistoryEntry[]): Map<string, ChangedBy> {
  const last = new Map<string, ChangedBy>();
  for (const entry of history) {
    const fields = [...Object.keys(entry.changes ?? {}), ...entry.lines.map((line) => line.field)];
    for (const field of fields) if (!last.has(field)) last.set(field, { actor: entry.actor_name ?? "", at: entry.at });
  }
  return last;
}

/**
 * The fields that differ between what the form started from (`base`: the record as loaded; `loaded`: the
 * form's values as loaded, with the defaults the form filled in), what is saved now (`theirs`) and what was
 * typed (`mine`). A field both changed to the same value, or nobody changed, is not one.
 */
export function fieldConflicts(
  view: EntityView,
  values: { base: Data; loaded: Data; theirs: Data; mine: Data },
  history: HistoryEntry[] = [],
): FieldConflict[] {
  const { base, loaded, theirs, mine } = values;
  const by = lastChanges(history);
  const out: FieldConflict[] = [];
  for (const field of view.fields) {
    if (field.writeOnly) continue; // a secret is never read back: what is typed is sent, or nothing
    const name = field.name;
    const fixed = field.readOnly || field.immutable || view.states.has(name);
    const byThem = !sameValue(base[name], theirs[name]);
    const byMe = !fixed && !sameValue(name in loaded ? loaded[name] : base[name], mine[name]);
    if (!byThem && !byMe) continue;
    if (sameValue(mine[name], theirs[name])) continue;
    out.push({
      field: name,
      base: base[name],
      theirs: theirs[name],
      mine: mine[name],
      changed: byThem && byMe ? "both" : byThem ? "theirs" : "mine",
      fixed,
      by: byThem ? by.get(name) : undefined,
    });
  }
  return out;
}

/** What each field starts at: theirs where only they changed it (or the form cannot), else one's own. */
export const defaultChoice = (conflict: FieldConflict): Choice =>
  conflict.fixed || conflict.changed === "theirs" ? "theirs" : "mine";

/** The values to send again: what was typed, with theirs wherever it is chosen (or the form cannot change it). */
export function mergeChoices(mine: Data, conflicts: FieldConflict[], choices: Record<string, Choice>): Data {
  const merged: Data = { ...mine };
  for (const conflict of conflicts) {
    const choice = conflict.fixed ? "theirs" : (choices[conflict.field] ?? defaultChoice(conflict));
    if (choice === "mine") continue;
    if (conflict.theirs === undefined) delete merged[conflict.field];
    else merged[conflict.field] = conflict.theirs;
  }
  return merged;
}

/** "14:02" today (at the business's clock), else the date too; "3 seconds ago", "2 days ago", in the language. */
export function whenWords(
  at: string,
  lng: string,
  now: Date = new Date(),
  zone = timeZone(),
): { time: string; ago: string } {
  const then = new Date(at);
  const sameDay = dayjs(then).tz(zone).format("YYYY-MM-DD") === dayjs(now).tz(zone).format("YYYY-MM-DD");
  const time = sameDay
    ? new Intl.DateTimeFormat(intlLocale(lng), {
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone: zone,
      }).format(then)
    : formatDateTime(then, lng, zone);
  // Our own words: browsers' relative-time data is partial (Chromium says "now" in Khmer).
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const [count, unit] =
    seconds < 60
      ? [seconds, "seconds"]
      : seconds < 3600
        ? [Math.floor(seconds / 60), "minutes"]
        : seconds < 86_400
          ? [Math.floor(seconds / 3600), "hours"]
          : [Math.floor(seconds / 86_400), "days"];
  const ago =
    count === 0 ? i18n.t("common:conflict.ago.now", { lng }) : i18n.t(`common:conflict.ago.${unit}`, { lng, count });
  return { time, ago };
}

/**
 * What happened to a record whose transition lost a race, in words: the state it is in now and who put it
 * there ("Approved by admin2 at 14:02, 3 seconds ago"), else the last change to it ("Edited by ..."), else
 * that it is gone. `before` is the record as the screen had it, `now` as it is (undefined when gone).
 */
export function racedText(
  view: EntityView,
  stateField: string,
  before: Data,
  now: Data | undefined,
  history: HistoryEntry[],
  lng: string,
  at: Date = new Date(),
): string {
  if (!now) return i18n.t("common:conflict.racedGone", { lng });
  const moved = !sameValue(before[stateField], now[stateField]);
  // The entry that moved its state on; or, when only its version moved on, the newest one.
  const entry = moved ? history.find((e) => e.changes !== null && stateField in e.changes) : history[0];
  const field = view.byName.get(stateField);
  const state = field?.enumKey ? i18n.t(field.enumKey(now[stateField] as string), { lng }) : "";
  if (!entry) return i18n.t(moved ? "common:conflict.racedState" : "common:conflict.racedChanged", { lng, state });
  const words = {
    lng,
    state,
    action: entry.action_label,
    actor: entry.actor_name ?? "",
    ...whenWords(entry.at, lng, at),
  };
  return i18n.t(moved ? "common:conflict.racedStateBy" : "common:conflict.racedChangedBy", words);
}

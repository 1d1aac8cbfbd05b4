// The business's time zone (the server's setting-no call says it; Asia/Bangkok in the demo): the zone whose
// calendar days the statistics count, so the date filters send its days and the screens show times in it,
// whatever zone the browser is in. Until the server has said, the browser's zone stands in.
import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { useSyncExternalStore } from "react";

dayjs.extend(utc);
dayjs.extend(timezone);

let businessZone: string | undefined;
const listeners = new Set<() => void>();

/** The browser's own zone. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Sets the business's zone (an IANA name); an unknown name is ignored, the browser's zone stays. */
export function setTimeZone(zone: string | undefined): void {
  const known = zone && isZone(zone) ? zone : undefined;
  if (known === businessZone) return;
  businessZone = known;
  for (const listener of listeners) listener();
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone times are shown and days are counted in: the business's, or the browser's until it is known. */
export const timeZone = (): string => businessZone ?? browserZone();

/** The zone, re-rendering the caller when the settings bring it. */
export function useTimeZone(): string {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, timeZone);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** A zone's offset from UTC at an instant, as people write it: "UTC+7", "UTC+5:30", "UTC". */
export function zoneOffset(zone: string, at: Date = new Date()): string {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  return name.replace(/^GMT/, "UTC");
}

/**
 * The zone shown times are in, as an offset ("UTC+7"), when it is not the browser's at that instant;
 * nothing when the reader's clock agrees with the screen.
 */
export function zoneNote(at: Date = new Date(), zone = timeZone()): string | undefined {
  const shown = zoneOffset(zone, at);
  return shown === zoneOffset(browserZone(), at) ? undefined : shown;
}

/** The instant a business day ("2026-11-20") begins, in ISO form: 00:00 in the business's zone. */
export function dayStart(day: string, zone = timeZone()): string {
  return dayjs.tz(`${day} 00:00`, zone).toISOString();
}

/** The last millisecond of a business day, in ISO form: just before 24:00 in the business's zone. */
export function dayEnd(day: string, zone = timeZone()): string {
  const next = dayjs(day).add(1, "day").format("YYYY-MM-DD");
  return dayjs.tz(`${next} 00:00`, zone).subtract(1, "millisecond").toISOString();
}

/** The business day an instant falls on ("2026-11-20"). */
export const businessDay = (instant: string | Date, zone = timeZone()): string =>
  dayjs(instant).tz(zone).format("YYYY-MM-DD");

/** Today, in the business's zone. */
export const businessToday = (zone = timeZone()): string => businessDay(new Date(), zone);

const WALL_CLOCK = "YYYY-MM-DD HH:mm:ss";

/**
 * An instant as the business's clock reads it, as a dayjs of the browser's zone with that reading: what a
 * date-time picker shows and edits (the picker knows only the browser's zone).
 */
export const toWallClock = (instant: string, zone = timeZone()): dayjs.Dayjs =>
  dayjs(dayjs(instant).tz(zone).format(WALL_CLOCK));

/** The instant a picker's reading of the business's clock stands for, in ISO form. */
export const fromWallClock = (reading: dayjs.Dayjs, zone = timeZone()): string =>
  dayjs.tz(reading.format(WALL_CLOCK), zone).toISOString();

// Instants read on the business's clock (BUSINESS_TIME_ZONE, Asia/Bangkok in the demo), for what the server
// writes for people: an export's date cells and times. A spreadsheet's date has no zone, so a time is
// written as the business's clock reads it, and its column names the zone ("Order time (UTC+7)").

const parts = new Map<string, Intl.DateTimeFormat>();
const names = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = parts.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    parts.set(zone, format);
  }
  return format;
}

/** The zone's offset from UTC at an instant, in milliseconds (Asia/Bangkok: 7 h). */
function offsetAt(zone: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const { type, value } of partsFormat(zone).formatToParts(ms)) p[type] = Number(value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** Offsets by quarter hour (every zone's offset changes on one), a few thousand at most per zone. */
const offsets = new Map<string, number>();
const QUARTER = 15 * 60 * 1000;

/**
 * An instant as the zone's clock reads it, as milliseconds whose UTC reading is that clock's:
 * 2026-11-20T05:30:00Z in Asia/Bangkok → the milliseconds of 2026-11-20T12:30:00Z.
 */
export function wallClock(ms: number, zone: string): number {
  const key = `${zone}:${Math.floor(ms / QUARTER)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 50_000) offsets.clear();
    offset = offsetAt(zone, ms);
    offsets.set(key, offset);
  }
  return ms + offset;
}

/** The zone's offset as people write it: "UTC+7", "UTC+5:30", "UTC". */
export function zoneOffset(zone: string, at: Date = new Date()): string {
  let format = names.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" });
    names.set(zone, format);
  }
  const name = format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  return name.replace(/^GMT/, "UTC");
}

// The business's clock for what the server writes (server/core/zone.ts): an instant as a zone's clock
// reads it, across a change of summer time, and the zone's offset as people write it.
import { describe, expect, it } from "vitest";
import { wallClock, zoneOffset } from "../../server/core/zone.ts";

const read = (iso: string, zone: string) => new Date(wallClock(Date.parse(iso), zone)).toISOString();

describe("wallClock", () => {
  it("reads an instant on Bangkok's clock, the next day there after 17:00 UTC", () => {
    expect(read("2026-03-14T17:45:30.250Z", "Asia/Bangkok")).toBe("2026-03-15T00:45:30.250Z");
    expect(read("2026-11-20T05:30:00.000Z", "Asia/Bangkok")).toBe("2026-11-20T12:30:00.000Z");
  });

  it("follows summer time on each side of its change, in the same quarter hour's neighbours", () => {
    // Paris moved to summer time at 01:00 UTC on 2026-03-29.
    expect(read("2026-03-29T00:59:59.000Z", "Europe/Paris")).toBe("2026-03-29T01:59:59.000Z");
    expect(read("2026-03-29T01:00:00.000Z", "Europe/Paris")).toBe("2026-03-29T03:00:00.000Z");
    // Kathmandu is 5:45 ahead.
    expect(read("2026-01-01T00:00:00.000Z", "Asia/Kathmandu")).toBe("2026-01-01T05:45:00.000Z");
    expect(read("1969-12-31T23:59:59.000Z", "UTC")).toBe("1969-12-31T23:59:59.000Z");
  });
});

describe("zoneOffset", () => {
  it("writes the offset as people do", () => {
    expect(zoneOffset("Asia/Bangkok")).toBe("UTC+7");
    expect(zoneOffset("Asia/Kolkata")).toBe("UTC+5:30");
  });
});

// @vitest-environment jsdom
// src/crud/time-zone.ts with filters.ts, format.ts and field-value.tsx: a browser in Los Angeles working for
// a business in Bangkok (UTC+7) filters by the business's days and reads times at the business's clock,
// with the zone named where it is not the browser's.
import { cleanup, render, screen } from "@testing-library/react";
import dayjs from "dayjs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// The browser's zone, before anything reads the clock.
const browserTz = process.env.TZ;
process.env.TZ = "America/Los_Angeles";

const { fromCrudFilters, toCrudFilters } = await import("../../src/crud/filters.ts");
const { entityView } = await import("../../src/crud/model.ts");
const { formatDate, formatDateTime } = await import("../../src/crud/format.ts");
const { DateTimeText, TimeText } = await import("../../src/crud/field-value.tsx");
const { browserZone, businessToday, fromWallClock, setTimeZone, timeZone, toWallClock, zoneNote } =
  await import("../../src/crud/time-zone.ts");
const { DateTimeWidget } = await import("../../src/widgets/datetime-widget.tsx");
const { datePresets } = await import("../../src/crud/filter-bar.tsx");

const order = entityView("order");

beforeAll(() => setTimeZone("Asia/Bangkok"));
// Unmounted before the next test, and before the file's window goes (a picker left mounted has work queued).
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(() => {
  setTimeZone(undefined);
  process.env.TZ = browserTz;
});

describe("the business's time zone", () => {
  it("is the server's, not the browser's", () => {
    expect(browserZone()).toBe("America/Los_Angeles");
    expect(timeZone()).toBe("Asia/Bangkok");
  });

  it("sends a date filter's day as that business day, 00:00 to 24:00 in Bangkok", () => {
    const day = dayjs("2026-11-20");
    expect(toCrudFilters(order, { order_time: [day, day] })).toEqual([
      { field: "order_time", operator: "gte", value: "2026-11-19T17:00:00.000Z" },
      { field: "order_time", operator: "lte", value: "2026-11-20T16:59:59.999Z" },
    ]);
  });

  it("reads the filter back as the same days in the picker", () => {
    const values = fromCrudFilters(order, [
      { field: "order_time", operator: "gte", value: "2026-11-19T17:00:00.000Z" },
      { field: "order_time", operator: "lte", value: "2026-11-22T16:59:59.999Z" },
    ]);
    const [from, to] = values.order_time as dayjs.Dayjs[];
    expect(from.format("YYYY-MM-DD HH:mm")).toBe("2026-11-20 00:00");
    expect(to.format("YYYY-MM-DD HH:mm")).toBe("2026-11-22 23:59");
  });

  it("shows times at the business's clock in every language", () => {
    // 17:30 UTC on 20 Nov is 09:30 in Los Angeles and 00:30 on 21 Nov in Bangkok.
    const instant = "2026-11-20T17:30:00Z";
    expect(formatDateTime(instant, "en")).toBe("Nov 21, 2026, 00:30");
    expect(formatDateTime(instant, "zh")).toBe("2026年11月21日 00:30");
    expect(formatDateTime(instant, "tw")).toBe("2026年11月21日 00:30");
    expect(formatDateTime(instant, "th")).toBe("21 พ.ย. 2026 00:30");
    expect(formatDateTime(instant, "km")).toBe("21/11/2026 00:30");
    expect(formatDate(instant, "en")).toBe("Nov 21, 2026");
  });

  it("keeps a calendar day the day it is, in any zone", () => {
    expect(formatDate("2026-11-20", "en")).toBe("Nov 20, 2026");
    expect(formatDate("2026-11-20", "km")).toBe("20/11/2026");
  });

  it("names the zone of a time shown, only where it is not the browser's", () => {
    render(<DateTimeText value="2026-11-20T17:30:00Z" lng="en" />);
    const time = screen.getByText("00:30").parentElement!;
    expect(time.textContent).toBe("Nov 21, 2026, 00:30");
    expect(time.getAttribute("title")).toBe("UTC+7");
    expect(zoneNote(new Date("2026-11-20T17:30:00Z"), "America/Los_Angeles")).toBeUndefined();
    expect(zoneNote(new Date("2026-11-20T17:30:00Z"), "Asia/Kolkata")).toBe("UTC+5:30");
  });

  it("shows a record history's time at the business's clock, as the lists do, the zone named on hover", () => {
    // The history's entry at 17:30 UTC: 09:30 in the browser's Los Angeles, 00:30 the next day in Bangkok.
    render(<TimeText value="2026-11-20T17:30:00Z" lng="km" />);
    const time = screen.getByText("21/11/2026 00:30");
    expect(time.getAttribute("title")).toBe("UTC+7");
    cleanup();
    render(<TimeText value="2026-11-20T17:30:00Z" lng="en" />);
    expect(screen.getByText("Nov 21, 2026, 00:30").getAttribute("title")).toBe("UTC+7");
  });

  it("counts the date presets to the business's today", () => {
    // 20:00 UTC on 20 Nov: still the 20th in Los Angeles, already the 21st in Bangkok.
    vi.useFakeTimers({ now: new Date("2026-11-20T20:00:00Z"), toFake: ["Date"] });
    expect(businessToday()).toBe("2026-11-21");
    const lastWeek = datePresets(((key: string) => key) as never)[0];
    expect(lastWeek.value.map((d) => d.format("YYYY-MM-DD"))).toEqual(["2026-11-15", "2026-11-21"]);
    const filters = toCrudFilters(order, { order_time: lastWeek.value });
    expect(filters.map((f) => ("value" in f ? f.value : undefined))).toEqual([
      "2026-11-14T17:00:00.000Z",
      "2026-11-21T16:59:59.999Z",
    ]);
  });

  it("takes a date and time typed in a form on the business's clock, and shows it so", () => {
    // 09:00 in Bangkok is 02:00 UTC, 18:00 the day before in Los Angeles.
    const reading = toWallClock("2026-11-20T02:00:00.000Z");
    expect(reading.format("YYYY-MM-DD HH:mm")).toBe("2026-11-20 09:00");
    expect(fromWallClock(dayjs("2026-11-20 09:30"))).toBe("2026-11-20T02:30:00.000Z");
    expect(fromWallClock(toWallClock("2026-03-08T10:15:00.000Z"))).toBe("2026-03-08T10:15:00.000Z");
    const onChange = vi.fn();
    const { container } = render(
      <DateTimeWidget
        {...({
          id: "root_at",
          value: "2026-11-20T02:00:00.000Z",
          onChange,
          onBlur: vi.fn(),
          onFocus: vi.fn(),
        } as unknown as import("@rjsf/utils").WidgetProps)}
      />,
    );
    expect((container.querySelector("#root_at") as HTMLInputElement).value).toBe("2026-11-20 09:00:00");
    expect(screen.getByText("UTC+7")).toBeTruthy();
  });
});

// src/crud/filters.ts: the filter bar's values to Refine's CrudFilters and back, on real entity views.
import dayjs from "dayjs";
import type { CrudFilter } from "@refinedev/core";
import { describe, expect, it } from "vitest";
import { fromCrudFilters, toCrudFilters } from "../../src/crud/filters.ts";
import { entityView } from "../../src/crud/model.ts";

const goods = entityView("goods");
const order = entityView("order");

describe("toCrudFilters", () => {
  it("sends like filters as trimmed contains", () => {
    expect(toCrudFilters(goods, { title: "  Cola " })).toEqual([
      { field: "title", operator: "contains", value: "Cola" },
    ]);
  });

  it("sends eq and in filters as they are", () => {
    expect(toCrudFilters(order, { shop_id: 3, pay_status: ["paid", "refund_requested"] })).toEqual([
      { field: "shop_id", operator: "eq", value: 3 },
      { field: "pay_status", operator: "in", value: ["paid", "refund_requested"] },
    ]);
  });

  it("skips empty values, empty lists and fields that are not filters", () => {
    expect(
      toCrudFilters(order, { order_no: "", shop_id: null, pay_status: [], pay_type: undefined, money: 5 }),
    ).toEqual([]);
  });

  it("sends a money range typed in currency units in minor units", () => {
    expect(toCrudFilters(goods, { unit_price: [1.5, 3.25] })).toEqual([
      { field: "unit_price", operator: "gte", value: 150 },
      { field: "unit_price", operator: "lte", value: 325 },
    ]);
    // 1.15 * 100 is 114.99999999999999: the minor units must still be whole.
    expect(toCrudFilters(goods, { unit_price: [1.15, undefined] })).toEqual([
      { field: "unit_price", operator: "gte", value: 115 },
    ]);
    expect(toCrudFilters(goods, { unit_price: [undefined, 0] })).toEqual([
      { field: "unit_price", operator: "lte", value: 0 },
    ]);
  });

  it("sends a datetime range as whole days", () => {
    const from = dayjs("2026-03-05T15:20:00");
    const to = dayjs("2026-03-07T08:00:00");
    const filters = toCrudFilters(order, { order_time: [from, to] }) as { operator: string; value: string }[];
    expect(filters.map((f) => f.operator)).toEqual(["gte", "lte"]);
    expect(filters[0].value).toBe(dayjs("2026-03-05T00:00:00.000").toISOString());
    expect(filters[1].value).toBe(dayjs("2026-03-07T23:59:59.999").toISOString());
  });
});

describe("fromCrudFilters", () => {
  it("reads like, eq and in filters back, numbers as numbers", () => {
    const filters: CrudFilter[] = [
      { field: "order_no", operator: "contains", value: "2026" },
      { field: "shop_id", operator: "eq", value: "3" },
      { field: "pay_type", operator: "in", value: "1,4" },
      { field: "pay_status", operator: "in", value: ["paid"] },
      { field: "is_drop", operator: "eq", value: "1" },
    ];
    expect(fromCrudFilters(order, filters)).toEqual({
      order_no: "2026",
      shop_id: 3,
      pay_type: [1, 4],
      pay_status: ["paid"],
      is_drop: 1,
    });
  });

  it("ignores fields the entity does not have and logical filters", () => {
    expect(
      fromCrudFilters(goods, [
        { field: "nope", operator: "eq", value: 1 },
        { operator: "or", value: [{ field: "title", operator: "eq", value: "x" }] },
      ]),
    ).toEqual({});
  });

  it("reads a money range back in currency units", () => {
    expect(
      fromCrudFilters(goods, [
        { field: "unit_price", operator: "gte", value: "150" },
        { field: "unit_price", operator: "lte", value: 325 },
      ]),
    ).toEqual({ unit_price: [1.5, 3.25] });
  });
});

describe("round trip", () => {
  const roundTrip = (view: typeof goods, values: Record<string, unknown>) =>
    fromCrudFilters(view, toCrudFilters(view, values));

  it("keeps like, eq, in and money range values", () => {
    const values = { title: "Cola", cate_id: 2, unit_price: [1.5, 3.25] };
    expect(roundTrip(goods, values)).toEqual(values);
    const orderValues = { order_no: "2026", shop_id: 7, pay_type: [1, 2], pay_status: ["paid", "cancelled"] };
    expect(roundTrip(order, orderValues)).toEqual(orderValues);
  });

  it("keeps the days of a datetime range", () => {
    const back = roundTrip(order, { order_time: [dayjs("2026-03-05T15:20:00"), dayjs("2026-03-07T08:00:00")] });
    const [from, to] = back.order_time as dayjs.Dayjs[];
    expect(from.format("YYYY-MM-DD HH:mm:ss")).toBe("2026-03-05 00:00:00");
    expect(to.format("YYYY-MM-DD HH:mm:ss")).toBe("2026-03-07 23:59:59");
    // Sent again, the same filters come out.
    expect(toCrudFilters(order, back)).toEqual(
      toCrudFilters(order, { order_time: [dayjs("2026-03-05"), dayjs("2026-03-07")] }),
    );
  });

  it("keeps an open-ended range open", () => {
    expect(roundTrip(goods, { unit_price: [undefined, 9.99] })).toEqual({ unit_price: [undefined, 9.99] });
  });
});

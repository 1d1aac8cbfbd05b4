// server/entities/repository.ts: a list's total is counted at every call up to COUNT_CAP (exact); past it
// the count (every matching row) is held for ESTIMATE_REUSE_MS per filter and database and shown as an
// estimate: no count runs again until then, until forgetLargeResults (a write answered), or until a page
// past the first comes back empty. No planner is asked. The order list unfiltered, by agent or by pay
// status reads the roll-up (exact, at every call).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Queryable } from "../../server/db/db.ts";
import { modelOf } from "../../server/model/model.ts";
import {
  COUNT_CAP,
  ESTIMATE_REUSE_MS,
  forgetLargeResults,
  list,
  type ListQuery,
} from "../../server/entities/repository.ts";

/** A database whose count finds `counted()` rows and whose pages hold `rows()` rows; it records statements. */
function fakeDb(counted: () => number, rows: () => number = () => 10) {
  const statements: string[] = [];
  const db: Queryable = {
    query: async <T>(sql: string) => {
      if (sql.startsWith("select count(*)")) {
        statements.push("count");
        return { rows: [{ n: counted() }] as T[] };
      }
      if (sql.includes("stat_order")) {
        statements.push("rollup");
        return { rows: [{ n: 777 }] as T[] };
      }
      statements.push(sql.split(" ")[0]);
      return { rows: Array.from({ length: rows() }, (_, i) => ({ id: i + 1 })) as T[] };
    },
  };
  return { db, statements };
}

const order = modelOf("order");
const byDevice = (page = 1, machine = 7): ListQuery => ({
  page,
  limit: 10,
  sort: "order_time",
  order: "desc",
  where: [{ field: "machine_id", op: "eq", value: machine }],
});
const of = (statements: string[], kind: string) => statements.filter((s) => s === kind).length;

beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));
afterEach(() => vi.useRealTimers());

describe("a list's total past the counting cap", () => {
  it("is counted to the last row once per filter and database for the time it is held, on every page", async () => {
    let counted = 54_321;
    const { db, statements } = fakeDb(() => counted);
    const first = await list(db, order, {}, byDevice());
    expect([first.total, first.total_exact]).toEqual([54_321, false]);
    expect(of(statements, "count")).toBe(1);
    counted = 60_000;
    vi.advanceTimersByTime(ESTIMATE_REUSE_MS - 1);
    // The same filter, its second page too: the same figure, no count; each page is read.
    expect(await list(db, order, {}, byDevice())).toMatchObject({ total: 54_321, total_exact: false });
    expect((await list(db, order, {}, byDevice(2))).total).toBe(54_321);
    expect(of(statements, "count")).toBe(1);
    expect(of(statements, "select")).toBe(3);
    // Another filter has its own.
    expect((await list(db, order, {}, byDevice(1, 8))).total).toBe(60_000);
    expect(of(statements, "count")).toBe(2);
    // Another database has its own.
    const other = fakeDb(() => 70_000);
    expect((await list(other.db, order, {}, byDevice())).total).toBe(70_000);
    // Once the time is up, the filter is counted again.
    vi.advanceTimersByTime(1);
    expect((await list(db, order, {}, byDevice())).total).toBe(60_000);
    expect(of(statements, "count")).toBe(3);
  });

  it("counts again after a write is answered, and keeps nothing from a count begun before it", async () => {
    let counted = COUNT_CAP + 1;
    const held: Array<() => void> = [];
    let holdCounts = false;
    const statements: string[] = [];
    const db: Queryable = {
      query: async <T>(sql: string) => {
        if (sql.startsWith("select count(*)")) {
          statements.push("count");
          const n = counted;
          if (holdCounts) await new Promise<void>((resolve) => held.push(resolve));
          return { rows: [{ n }] as T[] };
        }
        statements.push(sql.split(" ")[0]);
        return { rows: [] as T[] };
      },
    };
    expect((await list(db, order, {}, byDevice())).total_exact).toBe(false);
    // Rows removed, and the removal answered: the next list counts, exactly.
    counted = COUNT_CAP;
    forgetLargeResults(db);
    expect(await list(db, order, {}, byDevice())).toMatchObject({ total: COUNT_CAP, total_exact: true });
    expect(of(statements, "count")).toBe(2);
    // A count that began before a write and answers after it is not kept: the next list counts again.
    counted = COUNT_CAP + 1;
    holdCounts = true;
    const early = list(db, order, {}, byDevice());
    await vi.waitFor(() => expect(held).toHaveLength(1));
    forgetLargeResults(db);
    held[0]();
    expect((await early).total_exact).toBe(false);
    holdCounts = false;
    await list(db, order, {}, byDevice());
    expect(of(statements, "count")).toBe(4);
    // That one is kept.
    await list(db, order, {}, byDevice());
    expect(of(statements, "count")).toBe(4);
  });

  it("counts again when a page past the first comes back empty under a held figure", async () => {
    let counted = COUNT_CAP + 3;
    let rows = 10;
    const { db, statements } = fakeDb(
      () => counted,
      () => rows,
    );
    expect((await list(db, order, {}, byDevice())).total).toBe(COUNT_CAP + 3);
    // Three rows removed elsewhere: page 101 (the pager's reach under an estimate) is empty.
    counted = COUNT_CAP;
    rows = 0;
    expect(await list(db, order, {}, byDevice(101))).toMatchObject({ total: COUNT_CAP, total_exact: true, list: [] });
    expect(of(statements, "count")).toBe(2);
    // And it is no longer held: the next call counts.
    rows = 10;
    expect((await list(db, order, {}, byDevice(100))).total_exact).toBe(true);
    expect(of(statements, "count")).toBe(3);
  });

  it("keeps another caller's scope apart: its filter is another statement", async () => {
    let counted = 5_000;
    const { db, statements } = fakeDb(() => counted);
    expect((await list(db, order, { path: "/1/2/" }, byDevice())).total).toBe(5_000);
    counted = 9_000;
    expect((await list(db, order, { path: "/1/3/" }, byDevice())).total).toBe(9_000);
    expect(of(statements, "count")).toBe(2);
  });

  it("counts exactly at every call up to the cap, and holds nothing", async () => {
    const { db, statements } = fakeDb(() => COUNT_CAP);
    const result = await list(db, order, {}, byDevice());
    expect([result.total, result.total_exact]).toEqual([COUNT_CAP, true]);
    await list(db, order, {}, byDevice());
    expect(of(statements, "count")).toBe(2);
  });

  it("reads the order roll-up, exact at every call, unfiltered, by agent or by pay status, for an agent", async () => {
    const { db, statements } = fakeDb(() => 99_999);
    const paid: ListQuery = { ...byDevice(), where: [{ field: "pay_status", op: "in", value: ["paid", "pending"] }] };
    for (const query of [{ ...byDevice(), where: [] }, paid]) {
      expect(await list(db, order, { path: "/1/2/" }, query)).toMatchObject({ total: 777, total_exact: true });
      expect(await list(db, order, {}, query)).toMatchObject({ total: 777, total_exact: true });
    }
    expect([of(statements, "rollup"), of(statements, "count")]).toEqual([4, 0]);
    // Not for an operator (bound devices), nor for a filter the roll-up does not know.
    await list(db, order, { operatorId: 3 }, { ...byDevice(), where: [] });
    await list(db, order, {}, byDevice());
    expect([of(statements, "rollup"), of(statements, "count")]).toEqual([4, 2]);
  });
});

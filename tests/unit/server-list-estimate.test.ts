// server/entities/repository.ts: a list's total counts up to COUNT_CAP rows (exact); past it the total is
// the planner's estimate, and the filter is taken as past the cap for ESTIMATE_REUSE_MS per database:
// neither its count nor its explain runs again until then, or until forgetLargeResults (a write answered).
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

/** A database whose count finds `counted` rows and whose planner estimates `planned`; it records statements. */
function fakeDb(counted: number, planned: () => number) {
  const statements: string[] = [];
  const db: Queryable = {
    query: async <T>(sql: string) => {
      statements.push(sql.startsWith("select count(*)") ? "count" : sql.split(" ")[0]);
      if (sql.startsWith("select count(*)")) return { rows: [{ n: counted }] as T[] };
      if (sql.startsWith("explain")) return { rows: [{ "QUERY PLAN": [{ Plan: { "Plan Rows": planned() } }] }] as T[] };
      return { rows: [] as T[] };
    },
  };
  return { db, statements };
}

const order = modelOf("order");
const paid = (page = 1): ListQuery => ({
  page,
  limit: 10,
  sort: "order_time",
  order: "desc",
  where: [{ field: "pay_status", op: "eq", value: "paid" }],
});
const refunded: ListQuery = { ...paid(), where: [{ field: "pay_status", op: "eq", value: "refunded" }] };
const explains = (statements: string[]) => statements.filter((s) => s === "explain").length;
const counts = (statements: string[]) => statements.filter((s) => s === "count").length;

beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));
afterEach(() => vi.useRealTimers());

describe("a list's total past the counting cap", () => {
  it("counts and asks the planner once per filter and database for the time it is reused, on every page", async () => {
    let planned = 54_321;
    const { db, statements } = fakeDb(COUNT_CAP + 1, () => planned);
    const first = await list(db, order, {}, paid());
    expect([first.total, first.total_exact]).toEqual([54_321, false]);
    expect([counts(statements), explains(statements)]).toEqual([1, 1]);
    planned = 60_000;
    vi.advanceTimersByTime(ESTIMATE_REUSE_MS - 1);
    // The same filter, its second page too: the same estimate, neither count nor explain; each page is read.
    expect(await list(db, order, {}, paid())).toMatchObject({ total: 54_321, total_exact: false });
    expect((await list(db, order, {}, paid(2))).total).toBe(54_321);
    expect([counts(statements), explains(statements)]).toEqual([1, 1]);
    expect(statements.filter((s) => s === "select").length).toBe(3);
    // Another filter has its own.
    expect((await list(db, order, {}, refunded)).total).toBe(60_000);
    expect([counts(statements), explains(statements)]).toEqual([2, 2]);
    // Another database has its own.
    const other = fakeDb(COUNT_CAP + 1, () => 70_000);
    expect((await list(other.db, order, {}, paid())).total).toBe(70_000);
    // Once the time is up, the filter is counted and the planner asked again.
    vi.advanceTimersByTime(1);
    expect((await list(db, order, {}, paid())).total).toBe(60_000);
    expect([counts(statements), explains(statements)]).toEqual([3, 3]);
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
        if (sql.startsWith("explain")) return { rows: [{ "QUERY PLAN": [{ Plan: { "Plan Rows": 5_000 } }] }] as T[] };
        return { rows: [] as T[] };
      },
    };
    expect((await list(db, order, {}, paid())).total_exact).toBe(false);
    // Rows removed, and the removal answered: the next list counts, exactly.
    counted = COUNT_CAP;
    forgetLargeResults(db);
    expect(await list(db, order, {}, paid())).toMatchObject({ total: COUNT_CAP, total_exact: true });
    expect(counts(statements)).toBe(2);
    // A count that began before a write and answers after it is not kept: the next list counts again.
    counted = COUNT_CAP + 1;
    holdCounts = true;
    const early = list(db, order, {}, paid());
    await vi.waitFor(() => expect(held).toHaveLength(1));
    forgetLargeResults(db);
    held[0]();
    expect((await early).total_exact).toBe(false);
    holdCounts = false;
    await list(db, order, {}, paid());
    expect(counts(statements)).toBe(4);
    // That one is kept.
    await list(db, order, {}, paid());
    expect(counts(statements)).toBe(4);
  });

  it("lets callers of the same filter share the one explain in flight, and asks again after one that failed", async () => {
    const answers: Array<(rows: number | Error) => void> = [];
    const statements: string[] = [];
    const db: Queryable = {
      query: async <T>(sql: string) => {
        statements.push(sql.split(" ")[0]);
        if (sql.startsWith("select count(*)")) return { rows: [{ n: COUNT_CAP + 1 }] as T[] };
        if (!sql.startsWith("explain")) return { rows: [] as T[] };
        const rows = await new Promise<number>((resolve, reject) =>
          answers.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))),
        );
        return { rows: [{ "QUERY PLAN": [{ Plan: { "Plan Rows": rows } }] }] as T[] };
      },
    };
    const waitForExplains = (n: number) => vi.waitFor(() => expect(explains(statements)).toBe(n));
    // Three calls before the planner answers: one explain, one answer for all.
    const calls = [list(db, order, {}, paid()), list(db, order, {}, paid(2)), list(db, order, {}, paid(3))];
    await waitForExplains(1);
    await vi.waitFor(() => expect(statements.filter((s) => s === "select").length).toBe(6));
    expect(explains(statements)).toBe(1);
    answers[0](20_000);
    expect((await Promise.all(calls)).map((r) => r.total)).toEqual([20_000, 20_000, 20_000]);
    // Once expired, a failed explain fails its callers and is not kept: the next call asks again.
    vi.advanceTimersByTime(ESTIMATE_REUSE_MS);
    const failing = [list(db, order, {}, paid()), list(db, order, {}, paid())];
    await waitForExplains(2);
    answers[1](new Error("planner down"));
    for (const call of failing) await expect(call).rejects.toThrow("planner down");
    const again = list(db, order, {}, paid());
    await waitForExplains(3);
    answers[2](30_000);
    expect((await again).total).toBe(30_000);
  });

  it("keeps another caller's scope apart: its filter is another statement", async () => {
    let planned = 5_000;
    const { db, statements } = fakeDb(COUNT_CAP + 1, () => planned);
    expect((await list(db, order, { path: "/1/2/" }, paid())).total).toBe(5_000);
    planned = 9_000;
    expect((await list(db, order, { path: "/1/3/" }, paid())).total).toBe(9_000);
    expect(explains(statements)).toBe(2);
  });

  it("counts exactly at every call, and asks no planner, up to the cap", async () => {
    const { db, statements } = fakeDb(COUNT_CAP, () => 99_999);
    const result = await list(db, order, {}, paid());
    expect([result.total, result.total_exact]).toEqual([COUNT_CAP, true]);
    await list(db, order, {}, paid());
    expect([counts(statements), explains(statements)]).toEqual([2, 0]);
  });

  it("never shows an estimate at or under the cap once more rows than it were counted", async () => {
    const { db } = fakeDb(COUNT_CAP + 1, () => 12);
    expect(await list(db, order, {}, paid())).toMatchObject({ total: COUNT_CAP + 1, total_exact: false });
  });
});

// The fuzz suite (issue 9): for every served call, requests generated from its input schema and broken
// in every way fuzz-gen.ts knows, sent as the platform admin, an agent, an operator and an outlet manager, in all five
// languages. Every answer is a 2xx or a 4xx with the envelope (field errors in the caller's language);
// never a 5xx, never a hang. A fixed seed makes every run send the same requests; `npm run bench` sends
// more of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredCalls } from "../../server/http/routes.ts";
import { createTestApp, type TestApp } from "./helper.ts";
import { fuzzCalls, fuzzPool, PRINCIPALS, runFuzz, type IdPool } from "./fuzz-gen.ts";

const FUZZ_SEED = 20261124;
/** Requests per call and principal: 326 calls x 4 principals x 12, about half a minute on two cores. */
const PER_CALL = 12;

let t: TestApp;
let pool: IdPool;

beforeAll(async () => {
  t = await createTestApp();
  pool = await fuzzPool(t);
});
afterAll(() => t?.close());

describe("fuzz", () => {
  it("covers every served call, as the route table lists them", () => {
    const served = new Set(declaredCalls().map((c) => `${c.method} ${c.url}`));
    expect(new Set(fuzzCalls().map((c) => `${c.method} ${c.path}`))).toEqual(served);
  });

  it("answers every broken request with a 2xx or an enveloped 4xx, in the caller's language", async () => {
    expect(pool.others.length).toBeGreaterThan(20);
    const report = await runFuzz(t, pool, PER_CALL, FUZZ_SEED);
    console.log(`fuzz: ${report.sent} requests, statuses ${JSON.stringify(Object.fromEntries(report.statuses))}`);
    expect(report.problems.slice(0, 40)).toEqual([]);
    expect(report.sent).toBe(report.calls * PRINCIPALS.length * PER_CALL);
    expect(report.calls).toBeGreaterThan(250);
    // The generators reach past validation: some requests succeed, many are refused with field errors.
    expect(report.statuses.get(200) ?? 0).toBeGreaterThan(500);
    expect(report.statuses.get(400) ?? 0).toBeGreaterThan(2000);
    // About half a minute alone on two cores; the whole suite running beside it can double or triple that.
  }, 240_000);
});

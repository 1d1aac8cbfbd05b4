// Every call the server answers is declared, every declared call is served, and the OpenAPI document
// lists exactly those, both ways. SPEC section 7's list is held against what is served: the calls still
// missing are named here, so the count falls visibly as the work lands.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import openapi from "../../src/generated/openapi.json" with { type: "json" };
import { buildApp } from "../../server/app.ts";
import { declaredCalls } from "../../server/http/routes.ts";
import { domainAreas } from "../../server/domain/index.ts";
import type { Area } from "../../server/domain/area.ts";
import { createTestApp, type TestApp } from "./helper.ts";
import { SPEC_CALLS } from "./spec-calls.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const documented = (): string[] =>
  Object.entries(openapi.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** SPEC calls not served yet: none now; a call dropped later shows up here by name. */
const STILL_MISSING: string[] = [];

describe("calls", () => {
  it("serves every declared call and nothing else", () => {
    const declared = declaredCalls().map((c) => `${c.method} ${c.url}`);
    // Written as a number: a change that drops calls is a visible change here.
    expect(declared).toHaveLength(343);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...t.app.servedCalls].sort()).toEqual([...declared].sort());
  });

  it("documents exactly the served calls in the OpenAPI document", () => {
    expect(documented().sort()).toEqual([...t.app.servedCalls].sort());
  });

  it("gives every documented operation an answer and, where it takes any, its input", () => {
    for (const [path, item] of Object.entries(openapi.paths as Record<string, Record<string, Record<string, unknown>>>))
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses, `${method} ${path}`).toHaveProperty("200");
        expect(operation["x-permission"], `${method} ${path}`).toBeTypeOf("string");
      }
  });

  it("documents the Idempotency-Key header on exactly the calls that honour it", () => {
    const paths = openapi.paths as Record<string, Record<string, { parameters?: { $ref?: string }[] }>>;
    const documentedKeyed = Object.entries(paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, operation]) =>
            (operation.parameters ?? []).some((p) => p.$ref === "#/components/parameters/IdempotencyKey"),
          )
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const keyed = declaredCalls().filter((c) => c.keyed);
    expect(documentedKeyed).toEqual(keyed.map((c) => `${c.method} ${c.url}`).sort());
    // No read honours a key; a write that runs its own transactions (sign-in, a file taken) does not.
    expect(keyed.filter((c) => c.method === "GET")).toEqual([]);
    expect(documentedKeyed).toContain("POST /merchant/machine-replenishment-goods");
    expect(documentedKeyed).not.toContain("POST /merchant/login");
  });

  it("holds SPEC section 7's 233 calls against what is served", () => {
    expect(SPEC_CALLS).toHaveLength(233);
    const served = new Set(t.app.servedCalls);
    const missing = SPEC_CALLS.map((c) => `${c.method} ${c.path}`).filter((c) => !served.has(c));
    console.log(`SPEC section 7: ${233 - missing.length} of 233 calls served; missing:\n  ${missing.join("\n  ")}`);
    expect(missing).toEqual(STILL_MISSING);
  });
});

describe("pairing operations with their handlers", () => {
  const without = (call: string): Area[] =>
    domainAreas({}).map((area) => ({
      ...area,
      handlers: Object.fromEntries(Object.entries(area.handlers).filter(([name]) => name !== call)),
    }));

  it("refuses to start when a declared operation has no handler", async () => {
    await expect(buildApp({ db: t.db, areas: without("goods-down") })).rejects.toThrow(
      /schemas\/operations\/goods-down\.json: no handler in server\/domain\/goods/,
    );
  });

  it("refuses to start when a handler has no declaration", async () => {
    const areas = domainAreas({});
    areas[0] = { ...areas[0], handlers: { ...areas[0].handlers, ["no-such-call" as never]: async () => null } };
    await expect(buildApp({ db: t.db, areas })).rejects.toThrow(/handler "no-such-call" has no declaration/);
  });

  it("refuses to start when a handler sits in another area than its declaration names", async () => {
    const areas = without("goods-down");
    const goodsDown = domainAreas({}).find((a) => a.name === "goods")!.handlers["goods-down"]!;
    areas[0] = { ...areas[0], handlers: { ...areas[0].handlers, "goods-down": goodsDown } };
    await expect(buildApp({ db: t.db, areas })).rejects.toThrow(/handler "goods-down" is declared in area "goods"/);
  });
});

describe("pairing the calls that take a file with their intakes", () => {
  it("refuses to start when a call that takes a file has no intake, or an intake no such call", async () => {
    const areas = domainAreas({}).map((area) =>
      area.name === "uploads" ? { ...area, files: { "goods-image": area.files!["goods-image"] } } : area,
    );
    await expect(buildApp({ db: t.db, areas })).rejects.toThrow(
      /schemas\/operations\/upload\.json takes a file: no intake in server\/domain\/uploads/,
    );
    const stray = domainAreas({}).map((area) =>
      area.name === "goods"
        ? { ...area, files: { "goods-down": { limit: async () => ({ bytes: 1, tooLarge: () => new Error() }) } } }
        : area,
    );
    await expect(buildApp({ db: t.db, areas: stray as Area[] })).rejects.toThrow(
      /server\/domain\/goods: file intake "goods-down" is for no multipart operation of this area/,
    );
  });
});

describe("answers as their schemas declare them", () => {
  // version-check declares version, digits (required), latest and can_update; this one leaves digits out.
  // The handlers' types refuse such a handler (Handlers types each answer as its schema does); what escapes
  // them (a cast, a row typed loosely) is what the check finds at run time, so this one is cast on purpose.
  const drifted = (): Area[] =>
    domainAreas({}).map((area) => {
      const real = area.handlers["version-check"];
      if (!real) return area;
      const handler = async (...args: Parameters<typeof real>) => {
        const { digits: _digits, ...rest } = await real(...args);
        return rest;
      };
      return { ...area, handlers: { ...area.handlers, "version-check": handler as unknown as typeof real } };
    });

  it("fails a call whose answer differs from its schema when answers are checked, naming what differs", async () => {
    const app = await buildApp({ db: t.db, areas: drifted(), checkAnswers: true });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await app.inject({ method: "GET", url: "/merchant/version-check" });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain("digits"); // the caller is not told the server's insides
      expect(logged).toHaveBeenCalledWith(
        "version-check answered what schemas/operations/version-check.json does not declare: / must have required property 'digits'",
      );
    } finally {
      logged.mockRestore();
      await app.close();
    }
  });

  it("answers the same call as it is when answers are not checked (production), and a true answer either way", async () => {
    const unchecked = await buildApp({ db: t.db, areas: drifted() });
    const response = await unchecked.inject({ method: "GET", url: "/merchant/version-check" });
    await unchecked.close();
    expect(response.statusCode).toBe(200);
    expect(response.json().data).not.toHaveProperty("digits");

    const checked = await t.app.inject({ method: "GET", url: "/merchant/version-check" });
    expect(checked.statusCode).toBe(200);
    expect(checked.json().data.digits).toEqual(expect.any(Array));
  });
});

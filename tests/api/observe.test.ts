// Watching a running server (server/http/observe.ts, server/core/metrics.ts): /healthz and /readyz without
// a session and without data (ready only with the database reachable and at this version's schemas); a
// request id on every answer and in each of that request's log lines, JSON, with no password, token or
// query string in them; Prometheus' figures on a port of their own: requests by call and status, their
// latency, the database's pool, the hashing slots, throttled sign-ins, ledger postings by kind. On PGlite,
// and on PostgreSQL with DATABASE_URL.
import { Writable } from "node:stream";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../server/app.ts";
import type { Db } from "../../server/db/db.ts";
import { serveMetrics } from "../../server/core/metrics.ts";
import { post } from "../../server/domain/money/ledger.ts";
import { migrate } from "../../server/db/migrate.ts";
import { call, createTestApp, type TestApp } from "./helper.ts";

let t: TestApp;
let metrics: Server;
let metricsUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  metrics = await serveMetrics(0, "127.0.0.1");
  metricsUrl = `http://127.0.0.1:${(metrics.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  metrics?.close();
  await t?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The scrape's value of one series, e.g. `console_http_requests_total{call="/merchant/login",...}`; 0 when absent. */
async function scraped(series: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("health", () => {
  it("/healthz answers without a session, and says nothing else", async () => {
    const reply = await call(t.app, { method: "GET", url: "/healthz" });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.raw)).toEqual({ status: "ok" });
    expect(reply.headers["cache-control"]).toBe("no-store");
  });

  it("/readyz: ready with the database reachable and migrated, the licence's state named, no data", async () => {
    const licence = await (await t.as("admin")).get<{ state: string }>("/admin/checksn");
    const reply = await call(t.app, { method: "GET", url: "/readyz" });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.raw)).toEqual({
      ready: true,
      database: "ok",
      migrations: "done",
      licence: licence.body.data.state,
    });
  });

  it("/readyz: not ready (503) while a column of this version's schemas is missing, ready again once migrated", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      // An older database: a column this version wants is not there yet.
      await t.db.exec(`alter table "notice" drop column "content"`);
      vi.setSystemTime(Date.now() + 5_000);
      const pending = await call(t.app, { method: "GET", url: "/readyz" });
      expect(pending.status).toBe(503);
      expect(JSON.parse(pending.raw)).toMatchObject({ ready: false, database: "ok", migrations: "pending" });
      await migrate(t.db);
      vi.setSystemTime(Date.now() + 5_000);
      const ready = await call(t.app, { method: "GET", url: "/readyz" });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.raw)).toMatchObject({ ready: true, migrations: "done" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("/readyz: not ready (503) when the database does not answer; /healthz still answers", async () => {
    let down = false;
    const failing = (): Promise<never> => Promise.reject(new Error("connection refused"));
    const db: Db = {
      kind: t.db.kind,
      query: (...args) => (down ? failing() : t.db.query(...args)),
      exec: (sql) => (down ? failing() : t.db.exec(sql)),
      transaction: (fn) => (down ? failing() : t.db.transaction(fn)),
      listen: (...args) => t.db.listen(...args),
      close: async () => {},
    };
    const app = await buildApp({ db });
    try {
      down = true;
      const reply = await call(app, { method: "GET", url: "/readyz" });
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.raw)).toEqual({
        ready: false,
        database: "unreachable",
        migrations: "pending",
        licence: "unknown",
      });
      expect((await call(app, { method: "GET", url: "/healthz" })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("request ids and logs", () => {
  it("every answer carries its request's id: a new UUID, or the one a proxy sent when it is one", async () => {
    const a = await call(t.app, { method: "GET", url: "/healthz" });
    const b = await call(t.app, { method: "GET", url: "/merchant/no-such-call" });
    expect(a.headers["x-request-id"]).toMatch(UUID);
    expect(b.headers["x-request-id"]).toMatch(UUID);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
    const kept = await call(t.app, { method: "GET", url: "/healthz", headers: { "x-request-id": "lb-7f3a.42" } });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a.42");
    // Not an id (a space, a line break, too long): a new one instead.
    for (const bad of ["two words", "a\u0007b", "x".repeat(129)]) {
      const replaced = await call(t.app, { method: "GET", url: "/healthz", headers: { "x-request-id": bad } });
      expect(replaced.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("logs JSON lines, each of a request's lines with its id; never a password, a token or a query string", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    });
    const app = await buildApp({ db: t.db, logger: { level: "info", stream } });
    try {
      const password = "demo123";
      const login = await call<{ token: string }>(app, {
        method: "POST",
        url: "/merchant/login",
        payload: { account: "agent_a", password },
      });
      expect(login.status).toBe(200);
      const token = login.body.data.token;
      const search = await call(app, {
        method: "GET",
        url: "/merchant/shop-list?page=1&limit=5&name_like=Zq85599123456",
        headers: { authorization: `Bearer ${token}`, locale: "en" },
      });
      expect(search.status).toBe(200);
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const reply of [login, search]) {
        const id = reply.headers["x-request-id"];
        const own = logged.filter((entry) => entry.reqId === id);
        // Its arrival and its answer, both under its id, the answer with its status.
        expect(own.map((entry) => entry.msg)).toEqual(["incoming request", "request completed"]);
        expect(own[1]).toMatchObject({ res: { status: 200 } });
      }
      expect(logged.find((entry) => entry.reqId === search.headers["x-request-id"])).toMatchObject({
        req: { method: "GET", path: "/merchant/shop-list", route: "/merchant/shop-list" },
      });
      const text = lines.join("\n");
      expect(text).not.toContain(password);
      expect(text).not.toContain(token);
      expect(text).not.toContain("Zq85599123456");
      expect(text.toLowerCase()).not.toContain("authorization");
    } finally {
      await app.close();
    }
  });
});

describe("Prometheus' figures", () => {
  it("counts requests by call, method and status, with their latency", async () => {
    const ok = 'console_http_requests_total{call="/merchant/login",method="POST",status="200"}';
    const refused = 'console_http_requests_total{call="/merchant/login",method="POST",status="400"}';
    const timed = 'console_http_request_duration_seconds_count{call="/merchant/login",method="POST"}';
    const before = { ok: await scraped(ok), refused: await scraped(refused), timed: await scraped(timed) };
    await t.as("agent_b");
    await t.as("agent_b");
    await call(t.app, { method: "POST", url: "/merchant/login", payload: { account: "agent_b" } });
    expect(await scraped(ok)).toBe(before.ok + 2);
    expect(await scraped(refused)).toBe(before.refused + 1);
    expect(await scraped(timed)).toBe(before.timed + 3);
  });

  it("names the database's pool, the hashing slots, the event loop's delay", async () => {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(text).toContain(`console_db_pool{database="${t.db.kind}",state="busy"}`);
    expect(text).toContain(`console_db_pool{database="${t.db.kind}",state="waiting"}`);
    expect(text).toContain('console_password_hashing{state="queued"} 0');
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^console_db_wait_seconds_count \d/m);
  });

  it("counts sign-ins refused by the throttle", async () => {
    const before = await scraped("console_sign_in_throttled_total");
    const wrong = () =>
      call(t.app, {
        method: "POST",
        url: "/merchant/login",
        payload: { account: "agent_a1", password: "not-the-password" },
        remoteAddress: "10.9.8.7",
      });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await wrong()).status);
    // Five wrong passwords are answered, the next ones refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(await scraped("console_sign_in_throttled_total")).toBe(before + 2);
  });

  it("counts ledger postings by kind", async () => {
    const series = 'console_ledger_postings_total{kind="delivery_pending"}';
    const before = await scraped(series);
    await t.db.transaction((tx) =>
      post(tx, [
        { agentId: t.ids.agent_b, kind: "delivery_pending", amount: 500, frozen: 500 },
        { agentId: t.ids.agent_a, kind: "delivery_pending", amount: 300, frozen: 300 },
      ]),
    );
    expect(await scraped(series)).toBe(before + 2);
  });

  it("are served on their own port only: the console's port does not answer them", async () => {
    expect((await call(t.app, { method: "GET", url: "/metrics" })).raw).not.toContain("console_http_requests_total");
    expect((await fetch(`${metricsUrl}/other`)).status).toBe(404);
  });
});

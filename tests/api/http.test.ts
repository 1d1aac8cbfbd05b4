// The HTTP layer's promises: who may call is decided by the matched route, whatever way the address is
// written; headers (no-store on every API answer, the console's Content-Security-Policy and no framing);
// the OpenAPI document shows no secrets; password hashing is bounded (excess sign-ins get 503, other
// calls keep answering); a client that sends its body slowly is answered 408 and let go; on PGlite calls
// take turns, and a caller who hangs up gives its turn back.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HASHING, withHashSlot } from "../../server/core/passwords.ts";
import { buildApp, PGLITE_AT_WORK } from "../../server/app.ts";
import { call, createTestApp, listen, type Client, type TestApp } from "./helper.ts";

let t: TestApp;
let admin: Client;
let base: string;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.as("admin");
  base = await listen(t.app);
  port = Number(new URL(base).port);
});
afterAll(() => t?.close());

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: { code: number; message: string; data: unknown } | undefined;
}

function parse(text: string): RawReply {
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  let body: RawReply["body"];
  try {
    body = JSON.parse(rest.join("\r\n")) as RawReply["body"];
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** Sends bytes as written (request-target included) and reads the answer until the server closes. */
function raw(text: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("connect", () => socket.write(text)); // the server closes after answering (connection: close)
    socket.on("data", (chunk) => (out += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => resolve(parse(out)));
  });
}

const get = (target: string, token?: string) =>
  raw(
    `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n${token ? `authorization: Bearer ${token}\r\n` : ""}connection: close\r\n\r\n`,
  );

describe("who may call is the matched route's", () => {
  const reaching = () => [
    `http://127.0.0.1:${port}/merchant/goods-list`, // absolute-form request-target
    `http://example.org/merchant/goods-list`, // absolute-form naming another host
    "/merchant/%6dachine-list", // percent-encoded letter
    "/merchant/goods%2Dlist",
  ];
  it("an address written another way that reaches a call still needs a token there", async () => {
    for (const target of reaching()) {
      const anonymous = await get(target);
      expect(anonymous.status, target).toBe(401);
      expect(anonymous.body, target).toEqual({ code: 401, message: "Please sign in", data: null });
      expect((await get(target, admin.token)).status, target).toBe(200);
    }
  });

  it("an address that matches no call is a 404 with or without a token, never a public call's handler", async () => {
    for (const target of [
      "//merchant/goods-list",
      "/merchant//goods-list",
      "/merchant/goods-list/",
      "/MERCHANT/goods-list",
      "/merchant/./goods-list",
      "/merchant/setting-no/../goods-list",
      "/merchant/setting-no%2F..%2Fgoods-list",
      "/merchant/login%2F..%2Fgoods-list",
      "/merchant/goods-list;.js",
      "/merchant/goods-list%00",
    ]) {
      for (const token of [undefined, admin.token]) {
        const reply = await get(target, token);
        expect([400, 404], `${target} ${token ? "with" : "without"} a token`).toContain(reply.status);
        expect(reply.body?.code).toBe(reply.status);
      }
    }
  });
});

describe("headers", () => {
  it("every API answer, success, error or file, carries Cache-Control: no-store", async () => {
    const replies = [
      await admin.get("/merchant/goods-list"),
      await admin.get("/merchant/order-export?format=csv"),
      await call(t.app, { method: "GET", url: "/merchant/goods-list" }),
      await call(t.app, { method: "GET", url: "/merchant/no-such-call" }),
      await call(t.app, { method: "GET", url: "/merchant/openapi.json" }),
      await call(t.app, { method: "POST", url: "/merchant/login", payload: { account: "admin" } }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 401, 404, 200, 400]);
    for (const reply of replies) expect(reply.headers["cache-control"]).toBe("no-store");
    expect(replies[1].headers["content-type"]).toMatch(/^text\/csv/);
  });

  it("the console's page has a Content-Security-Policy and may not be framed; its files work as before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "console-"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(
      join(dir, "index.html"),
      `<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>`,
    );
    writeFileSync(join(dir, "assets/app.js"), "export {};");
    const app = await buildApp({ db: t.db, consoleDir: dir });
    try {
      for (const url of ["/", "/goods/list", "/login"]) {
        const page = await app.inject({ url });
        expect(page.statusCode, url).toBe(200);
        const csp = String(page.headers["content-security-policy"]);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("default-src 'self'");
        expect(csp).toMatch(/script-src 'self'( 'unsafe-eval')?;/); // no inline scripts, no other origin
        expect(csp).toContain("style-src 'self' 'unsafe-inline'"); // antd's CSS-in-JS
        expect(csp).toContain("object-src 'none'");
        expect(page.headers["x-frame-options"]).toBe("DENY");
        expect(page.headers["x-content-type-options"]).toBe("nosniff");
      }
      const script = await app.inject({ url: "/assets/app.js" });
      expect(script.statusCode).toBe(200);
      expect(script.headers["content-type"]).toMatch(/javascript/);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the OpenAPI document shows no example value for a password, key, secret or certificate", async () => {
    const doc = (await call<never>(t.app, { method: "GET", url: "/merchant/openapi.json" })).raw;
    const schemas = (JSON.parse(doc) as { components: { schemas: Record<string, { examples?: unknown[] }> } })
      .components.schemas;
    const shown: string[] = [];
    for (const [name, schema] of Object.entries(schemas))
      for (const example of schema.examples ?? [])
        for (const field of Object.keys(example as object))
          if (/password|secret|private|_key$|cert/.test(field)) shown.push(`${name}.${field}`);
    expect(shown).toEqual([]);
    for (const value of ["s3cret-pass", "Mekong-2026!", "coffee2026", "5c1d9e8f7a6b4c3d2e1f0a9b8c7d6e5f"])
      expect(doc).not.toContain(value);
    expect(schemas.op_login.examples).toEqual([{ account: "agent_pp" }]);
  });
});

describe("password hashing is bounded", () => {
  it("past its queue a sign-in is refused with 503 at once, uncounted, while other calls keep answering", async () => {
    const saved = { ...HASHING };
    Object.assign(HASHING, { concurrency: 1, queue: 2 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Hashes that are running and waiting, held by the test: the pool is full.
    const held = Array.from({ length: 3 }, () => withHashSlot(() => gate));
    try {
      const signIn = () =>
        call(t.app, {
          method: "POST",
          url: "/merchant/login",
          headers: { locale: "zh" },
          payload: { account: "agent_b", password: "demo123" },
          remoteAddress: "10.50.0.1",
        });
      const refused = await signIn();
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ code: 503, message: "服务器繁忙，请稍后再试", data: null });
      expect(refused.headers["retry-after"]).toBe("1");
      expect((await admin.get("/merchant/setting-no")).status).toBe(200);
      expect((await admin.get("/merchant/goods-list")).status).toBe(200);
      // A refusal for want of time is not a failed attempt.
      const { rows } = await t.db.query<{ n: number }>(
        `select coalesce(sum(failures), 0)::int as n from sys_login_throttle where key like '%10.50.0.1'`,
      );
      expect(rows[0].n).toBe(0);
      release();
      await Promise.all(held);
      expect((await signIn()).status).toBe(200);
    } finally {
      release();
      Object.assign(HASHING, saved);
    }
  });
});

describe("slow clients", () => {
  it("a body sent a byte at a time is cut off at the request timeout with a 408 in the caller's language", async () => {
    const slow = await buildApp({ db: t.db, timeouts: { request: 600, headers: 600, idle: 5_000 } });
    const slowBase = await listen(slow);
    const slowPort = Number(new URL(slowBase).port);
    try {
      const started = performance.now();
      const body = JSON.stringify({ account: "admin", password: "admin123" });
      const reply = await new Promise<RawReply>((resolve, reject) => {
        const socket = connect(slowPort, "127.0.0.1");
        let out = "";
        let i = 0;
        const timer = setInterval(() => {
          if (i < body.length && socket.writable) socket.write(body[i++]);
        }, 100);
        socket.on("connect", () =>
          socket.write(
            `POST /merchant/login HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\nlocale: th\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
          ),
        );
        socket.on("data", (chunk) => (out += chunk.toString("utf8")));
        socket.on("error", reject);
        socket.on("close", () => {
          clearInterval(timer);
          resolve(parse(out));
        });
      });
      const seconds = (performance.now() - started) / 1000;
      expect(reply.status).toBe(408);
      expect(reply.body).toEqual({ code: 408, message: "คำขอใช้เวลาส่งนานเกินไป โปรดลองใหม่อีกครั้ง", data: null });
      // Well before the whole body (about 4 s at this pace) could have arrived.
      expect(seconds).toBeLessThan(body.length * 0.1);
    } finally {
      await slow.close();
    }
  });

  it("on a kept-alive connection too, after an answer; and headers too large are a 431 envelope", async () => {
    const slow = await buildApp({ db: t.db, timeouts: { request: 600, headers: 600, idle: 5_000 } });
    const slowPort = Number(new URL(await listen(slow)).port);
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(slowPort, "127.0.0.1");
        let out = "";
        let second = false;
        socket.on("connect", () =>
          socket.write(`GET /merchant/setting-no HTTP/1.1\r\nhost: 127.0.0.1\r\nlocale: km\r\n\r\n`),
        );
        socket.on("data", (chunk) => {
          out += chunk.toString("utf8");
          // The first answer is in: start a second request whose body never comes.
          if (out.includes('"code":200') && !second) {
            second = true;
            socket.write(
              `POST /merchant/login HTTP/1.1\r\nhost: 127.0.0.1\r\nlocale: km\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{`,
            );
          }
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(out));
      });
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      const second = parse(text.slice(text.lastIndexOf("HTTP/1.1 ")));
      expect(second.status).toBe(408);
      expect(second.body?.code).toBe(408);
      expect(second.body?.message).toMatch(/[\u1780-\u17ff]/); // Khmer
      const huge = await raw(
        `GET /merchant/setting-no HTTP/1.1\r\nhost: 127.0.0.1\r\nx-filler: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      expect(huge.status).toBe(431);
      expect(huge.body).toEqual({ code: 431, message: "The request parameters are not valid", data: null });
    } finally {
      await slow.close();
    }
  });

  it("the defaults bound every request and idle connection", async () => {
    const { TIMEOUTS } = await import("../../server/app.ts");
    expect(t.app.server.requestTimeout).toBe(TIMEOUTS.request);
    expect(t.app.server.headersTimeout).toBe(TIMEOUTS.headers);
    expect(t.app.server.timeout).toBe(TIMEOUTS.idle);
    expect(TIMEOUTS.request).toBeGreaterThan(0);
  });
});

describe(`calls at work at once (on PGlite ${PGLITE_AT_WORK}, the rest in turn)`, () => {
  it("answers three times as many calls at once as there are turns, each with its rows", async () => {
    const replies = await Promise.all(
      Array.from({ length: 3 * PGLITE_AT_WORK }, () => get("/merchant/manage-list?limit=5", admin.token)),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    // The test's four agents, in every answer.
    expect(replies.map((r) => (r.body?.data as { list: unknown[] }).list.length)).toEqual(replies.map(() => 4));
  });

  it("gives back the turn of a caller who hangs up, before or during it: the next calls are answered", async () => {
    // Callers who send a call and hang up at once, more of them than there are turns.
    await Promise.all(
      Array.from(
        { length: 3 * PGLITE_AT_WORK },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(port, "127.0.0.1");
            socket.on("connect", () => {
              socket.write(
                `GET /merchant/manage-list?limit=5 HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${admin.token}\r\n\r\n`,
              );
              socket.destroy();
            });
            socket.on("close", () => resolve());
            socket.on("error", reject);
          }),
      ),
    );
    const replies = await Promise.all(
      Array.from({ length: 2 * PGLITE_AT_WORK }, () => get("/merchant/manage-list?limit=5", admin.token)),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  });
});

describe("what makes an instance read its sessions again", () => {
  it("only a signed-in write that succeeded: a stranger's requests, 404s and refusals forget nothing", async () => {
    // Sessions trusted for a minute here, so that only a forgetting can end one sooner.
    const trusting = await buildApp({ db: t.db, sessions: { trustMs: 60_000 } });
    try {
      const login = async (account: string, password = "demo123") =>
        (
          await call<{ token: string }>(trusting, {
            method: "POST",
            url: "/merchant/login",
            payload: { account, password },
          })
        ).body.data.token;
      const [agent, other] = [await login("agent_a"), await login("agent_b")];
      const as = (token: string, method: "GET" | "POST", url: string, payload?: unknown) =>
        call(trusting, {
          method,
          url,
          headers: { authorization: `Bearer ${token}`, locale: "en" },
          ...(payload === undefined ? {} : { payload: payload as never }),
        });
      expect((await as(agent, "GET", "/merchant/user-info")).status).toBe(200);
      // Ended by hand in the database: the instance still trusts what it read.
      await t.db.query(`update sys_token set revoked_at = now() where principal_id = $1 and revoked_at is null`, [
        t.ids.agent_a,
      ]);
      const stranger = [
        await call(trusting, { method: "POST", url: "/merchant/no-such-call", payload: {} }),
        await call(trusting, { method: "DELETE", url: "/merchant/goods-delete?id=1" }),
        await call(trusting, {
          method: "POST",
          url: "/merchant/login",
          payload: { account: "agent_b", password: "wrong-pass-123" },
        }),
        await as(other, "POST", "/merchant/goods-cate-add", { name: "" }),
        await as(other, "POST", "/merchant/manage-role-add", { name: "Not mine", level: 3, permissions: [] }),
      ];
      expect(stranger.map((r) => r.status)).toEqual([404, 401, 401, 400, 403]);
      expect((await as(agent, "GET", "/merchant/user-info")).status).toBe(200);
      // A signed-in write that succeeded: every session is read again, and the ended one refused.
      expect((await as(other, "POST", "/merchant/goods-cate-add", { name: "Forgetting", sort: 1 })).status).toBe(200);
      expect((await as(agent, "GET", "/merchant/user-info")).status).toBe(401);
    } finally {
      await trusting.close();
    }
  });
});

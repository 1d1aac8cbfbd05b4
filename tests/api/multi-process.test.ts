// Two server processes on one PostgreSQL database: what a process keeps of its own is only a second's
// trust in the sessions it has read, so a token from one works on the other and a logout on one ends it
// there at once and on the other within that second, and a list's count past the cap, held 10 s, so a row
// added through one is in the other's count within those seconds; the sign-in limits are shared, a transition raced
// from both has one winner, and a restock sent to both with one Idempotency-Key is applied once. PGlite
// allows one process per database, so without DATABASE_URL this suite is skipped (and says so in its name).
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_TRUST_MS, THROTTLE } from "../../server/domain/session/auth.ts";
import { COUNT_CAP, ESTIMATE_REUSE_MS } from "../../server/entities/repository.ts";
import { createTestApp, send, type TestApp } from "./helper.ts";
import { startServer, stopped } from "./processes.ts";
import { Fixtures } from "./fixtures.ts";

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

describe.skipIf(!ON_POSTGRES)(
  `two server processes on one PostgreSQL database${ON_POSTGRES ? "" : " (skipped: DATABASE_URL is unset; PGlite is one process per database)"}`,
  () => {
    let t: TestApp;
    let servers: { child: ChildProcess; base: string }[] = [];
    beforeAll(async () => {
      t = await createTestApp();
      const { rows } = await t.db.query<{ schema: string }>(`select current_schema() as schema`);
      servers = await Promise.all([startServer(rows[0].schema), startServer(rows[0].schema)]);
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => stopped(s.child)));
      await t?.close();
    });
    const [a, b] = [() => servers[0].base, () => servers[1].base];

    const signIn = (base: string, account: string, password: string, from = "127.0.0.1") =>
      send<{ token: string }>(base, { path: "/merchant/login", body: { account, password }, localAddress: from });

    it(`a token from one process works on the other; a logout on one ends it there at once and on the other within ${SESSION_TRUST_MS} ms`, async () => {
      const session = await signIn(a(), "agent_a", "demo123");
      expect(session.status).toBe(200);
      const headers = { authorization: `Bearer ${session.body.data.token}` };
      for (const base of [a(), b()])
        expect((await send(base, { path: "/merchant/user-info", headers })).status).toBe(200);
      expect((await send(b(), { path: "/merchant/logout", method: "POST", headers })).status).toBe(200);
      const loggedOut = performance.now();
      expect((await send(b(), { path: "/merchant/user-info", headers })).status).toBe(401);
      // The other process may answer from the session it read a moment ago, until its second is up: ask
      // until it refuses. The margin is for a busy machine, not for the server.
      let status = 200;
      while (status === 200 && performance.now() - loggedOut < SESSION_TRUST_MS + 2000)
        status = (await send(a(), { path: "/merchant/user-info", headers })).status;
      expect(status).toBe(401);
    });

    it(`a list's count past the cap, held by one process, takes in a row added through the other within ${ESTIMATE_REUSE_MS} ms`, async () => {
      const fx = new Fixtures(t);
      const { id } = await fx.createRecord("notice", "admin");
      await fx.copies("notice", id, COUNT_CAP + 2);
      const count = async () =>
        Number((await t.db.query<{ n: number }>(`select count(*)::int as n from "notice"`)).rows[0].n);
      const before = await count();
      const session = await signIn(a(), "admin", "admin123");
      const headers = { authorization: `Bearer ${session.body.data.token}` };
      const total = async (base: string) => {
        const reply = await send<{ total: number; total_exact: boolean }>(base, {
          path: "/merchant/notice-list-list?page=1&limit=10",
          headers,
        });
        expect(reply.status, reply.raw).toBe(200);
        return reply.body.data.total;
      };
      expect(await total(a())).toBe(before);
      const added = await send(b(), {
        path: "/merchant/notice-list-add",
        headers,
        body: (await fx.makeRecord("notice", "admin")) as Record<string, unknown>,
      });
      expect(added.status, added.raw).toBe(200);
      const addedAt = performance.now();
      // The process that answered the write counts again at once; the other holds its count, then counts.
      expect(await total(b())).toBe(before + 1);
      let seen = await total(a());
      while (seen === before && performance.now() - addedAt < ESTIMATE_REUSE_MS + 2000) seen = await total(a());
      expect(seen).toBe(before + 1);
    });

    it(`20 wrong passwords at once, half to each process: exactly ${THROTTLE.perAccountAddress} are tried`, async () => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? a() : b(), "agent_b", `wrong-${i}`, "127.0.0.9")),
      );
      expect(replies.filter((r) => r.status === 401)).toHaveLength(THROTTLE.perAccountAddress);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(20 - THROTTLE.perAccountAddress);
      for (const base of [a(), b()]) {
        expect((await signIn(base, "agent_b", "demo123", "127.0.0.9")).status).toBe(429);
        expect((await signIn(base, "agent_b", "demo123", "127.0.0.10")).status).toBe(200);
      }
    });

    it("20 simultaneous accepts of one work order across both: one wins, the others get 409", async () => {
      const { rows } = await t.db.query<{ id: number }>(
        `insert into "service_order" (type, problem, status, agent_id, agent_path) values ('equipment_issue', 'Lane 3 jams', 'pending', $1, $2) returning id`,
        [t.ids.admin, `/${t.ids.admin}/`],
      );
      const session = await signIn(a(), "admin", "admin123");
      const headers = { authorization: `Bearer ${session.body.data.token}` };
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(i % 2 ? a() : b(), { path: "/merchant/service-accept", headers, body: { id: rows[0].id } }),
        ),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
      const after = await t.db.query<{ status: string; version: number }>(
        `select status, version from "service_order" where id = $1`,
        [rows[0].id],
      );
      expect(after.rows[0]).toEqual({ status: "processing", version: 2 });
    });

    it("20 simultaneous restocks with one Idempotency-Key across both: applied once, the same answer to all", async () => {
      const fx = new Fixtures(t);
      const goods = await fx.createRecord("goods", "agent_a", { stock: 40 });
      const plan = await fx.createRecord("channel_plan", "agent_a", {
        channels: [{ channel_number: 1, goods_id: goods.id, count: 10, price: 300 }],
      });
      const machine = await fx.createRecord("machine", "agent_a", { kind: "vending" });
      const agentA = await fx.client("agent_a");
      expect(
        (await agentA.post("/merchant/machine-bind-plan", { id: machine.id, channel_plan_id: plan.id })).status,
      ).toBe(200);
      const { rows: lanes } = await t.db.query<{ id: number }>(
        `update machine_channel set "left" = 0 where machine_id = $1 returning id::int`,
        [machine.id],
      );
      const session = await signIn(a(), "agent_a", "demo123");
      const headers = {
        authorization: `Bearer ${session.body.data.token}`,
        "idempotency-key": "multi-process-restock-0001",
      };
      const body = { id: machine.id, lanes: [{ channel_id: lanes[0].id, quantity: 3 }] };
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(i % 2 ? a() : b(), { path: "/merchant/machine-replenishment-goods", headers, body }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(replies.filter((r) => r.headers["idempotent-replayed"] === "true")).toHaveLength(19);
      for (const reply of replies) expect(reply.body).toEqual(replies[0].body);
      const after = await t.db.query<{ left: number; stock: number; records: number }>(
        `select c."left"::int, g.stock::int, (select count(*)::int from machine_restock r where r.machine_id = c.machine_id) as records
           from machine_channel c join goods g on g.id = c.goods_id where c.machine_id = $1`,
        [machine.id],
      );
      expect(after.rows[0]).toEqual({ left: 3, stock: 37, records: 1 });
    });
  },
);

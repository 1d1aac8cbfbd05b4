// Sign-in, sessions and the calls around them; localized errors; one transition under concurrency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, client, createTestApp, type TestApp } from "./helper.ts";
import { SESSION_TRUST_MS, THROTTLE } from "../../server/domain/session/auth.ts";
import { buildApp } from "../../server/app.ts";
import { menu } from "../../src/generated/resources.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t.close());

const login = (account: string, password: string, ip = "10.0.0.1") =>
  call<{ token: string; permissions: string[]; user: { is_admin: boolean }; expires_at: string }>(t.app, {
    method: "POST",
    url: "/merchant/login",
    payload: { account, password },
    remoteAddress: ip,
  });

describe("login", () => {
  it("signs in the demo admin with every permission and a 3-day token", async () => {
    const reply = await login("admin", "admin123");
    expect(reply.status).toBe(200);
    expect(reply.body.data.user.is_admin).toBe(true);
    expect(reply.body.data.permissions).toContain("goods.add");
    const days = (Date.parse(reply.body.data.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
  });

  it("signs in an operator, whose permissions are the device ones", async () => {
    const reply = await login("operator_a", "demo123");
    expect(reply.status).toBe(200);
    expect(reply.body.data.permissions).toEqual(expect.arrayContaining(["machine.list", "machine.replenish"]));
    expect(reply.body.data.permissions).not.toContain("goods.list");
  });

  it("requires account and password, with messages in the caller's language", async () => {
    const reply = await call<{ errors: { field: string; message: string }[] }>(t.app, {
      method: "POST",
      url: "/merchant/login",
      headers: { locale: "zh" },
      payload: {},
    });
    expect(reply.status).toBe(400);
    expect(reply.body.data.errors.map((e) => e.field).sort()).toEqual(["account", "password"]);
    expect(reply.body.data.errors[0].message).toMatch(/[\u4e00-\u9fff]/);
  });

  it("refuses a wrong password and an unknown account alike", async () => {
    const wrong = await login("agent_b", "nope-nope", "10.0.0.2");
    const unknown = await login("nobody_here", "nope-nope", "10.0.0.2");
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it(`throttles an account at an address after ${THROTTLE.perAccountAddress} failures, even with the right password`, async () => {
    for (let i = 0; i < THROTTLE.perAccountAddress; i++)
      expect((await login("operator_a", "wrong-pass", "10.1.0.1")).status).toBe(401);
    const blocked = await login("operator_a", "demo123", "10.1.0.1");
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toContain(String(THROTTLE.baseMinutes));
    expect((await login("operator_a", "demo123", "10.1.0.2")).status).toBe(200);
  });

  it(`throttles an address after ${THROTTLE.perAddress} failures across accounts`, async () => {
    for (let i = 0; i < THROTTLE.perAddress; i++) await login(`someone_${i}`, "wrong-pass", "10.9.9.9");
    expect((await login("agent_b", "demo123", "10.9.9.9")).status).toBe(429);
    expect((await login("agent_b", "demo123", "10.9.9.10")).status).toBe(200);
  });
});

describe("sessions", () => {
  it("401 without a token, with a bad one, after logout, and after expiry", async () => {
    expect((await call(t.app, { method: "GET", url: "/merchant/goods-list" })).status).toBe(401);
    expect((await client(t.app, "not-a-token").get("/merchant/goods-list")).status).toBe(401);

    const session = await t.as("agent_b");
    expect((await session.get("/merchant/goods-list")).status).toBe(200);
    expect((await session.post("/merchant/logout")).status).toBe(200);
    expect((await session.get("/merchant/goods-list")).status).toBe(401);

    const other = await t.as("agent_b");
    await t.db.query(
      `update sys_token set expires_at = now() - interval '1 second' where revoked_at is null and principal_id = $1`,
      [t.ids.agent_b],
    );
    const expired = await other.get("/merchant/goods-list");
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
  });

  it("another instance trusts a session it has read for one second, never longer; the instance signed out of refuses at once", async () => {
    let now = Date.now();
    const other = await buildApp({ db: t.db, sessions: { now: () => now } });
    try {
      const session = await t.as("agent_b");
      const there = client(other, session.token);
      expect((await there.get("/merchant/user-info")).status).toBe(200);
      expect((await session.post("/merchant/logout")).status).toBe(200);
      expect((await session.get("/merchant/user-info")).status).toBe(401);
      now += SESSION_TRUST_MS - 1;
      expect((await there.get("/merchant/user-info")).status).toBe(200);
      now += 1;
      expect((await there.get("/merchant/user-info")).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("a role narrowed through this instance holds from its agents' next call", async () => {
    const admin = await t.as("admin");
    const narrow = await t.as("agent_a1");
    expect((await narrow.get("/merchant/goods-list")).status).toBe(200);
    const role = (
      await admin.get<{ permissions: string[]; version: number }>(`/merchant/manage-role-detail?id=${t.ids.roleNarrow}`)
    ).body.data;
    // The record as last answered, with other permissions (its readOnly fields as the server has them).
    const update = (from: object, permissions: string[]) =>
      admin.post<{ version: number; permissions: string[] }>("/merchant/manage-role-update", { ...from, permissions });
    const narrowed = await update(
      role,
      role.permissions.filter((p) => p !== "goods.list"),
    );
    expect(narrowed.status).toBe(200);
    try {
      expect((await narrow.get("/merchant/goods-list")).status).toBe(403);
    } finally {
      expect((await update(narrowed.body.data, role.permissions)).status).toBe(200);
    }
    expect((await narrow.get("/merchant/goods-list")).status).toBe(200);
  });

  it("stores tokens only as hashes", async () => {
    const session = await t.as("agent_a");
    const { rows } = await t.db.query<{ n: number }>(`select count(*)::int as n from sys_token where token_hash = $1`, [
      session.token,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it("changing the password checks the old one, ends every session, and the new one works", async () => {
    const first = await t.as("agent_a");
    const second = await t.as("agent_a");
    const wrongOld = await first.post("/merchant/modify-password", {
      old_password: "not-it-at-all",
      new_password: "new-pass-1",
      confirm_password: "new-pass-1",
    });
    expect(wrongOld.status).toBe(400);
    const mismatch = await first.post("/merchant/modify-password", {
      old_password: "demo123",
      new_password: "new-pass-1",
      confirm_password: "new-pass-2",
    });
    expect(mismatch.status).toBe(400);
    expect(JSON.stringify(mismatch.body.data)).toContain("confirm_password");
    expect(
      (
        await first.post("/merchant/modify-password", {
          old_password: "demo123",
          new_password: "new-pass-1",
          confirm_password: "new-pass-1",
        })
      ).status,
    ).toBe(200);
    expect((await first.get("/merchant/menu")).status).toBe(401);
    expect((await second.get("/merchant/menu")).status).toBe(401);
    expect((await login("agent_a", "demo123", "10.2.0.1")).status).toBe(401);
    const renewed = await t.as("agent_a", "new-pass-1");
    expect(
      (
        await renewed.post("/merchant/modify-password", {
          old_password: "new-pass-1",
          new_password: "demo123",
          confirm_password: "demo123",
        })
      ).status,
    ).toBe(200);
  });
});

describe("setting another account's password", () => {
  it("needs the confirmation, and the new password then signs in", async () => {
    const admin = await t.as("admin");
    const detail = await admin.get<Record<string, unknown>>(`/merchant/manage-detail?id=${t.ids.agent_b}`);
    expect(detail.body.data.password).toBeUndefined(); // hashed, never read back
    const alone = await admin.post<{ errors: { field: string; keyword: string }[] }>("/merchant/manage-update", {
      ...detail.body.data,
      password: "fresh-pass-9",
    });
    expect(alone.status).toBe(400);
    expect(alone.body.data.errors).toEqual([
      expect.objectContaining({ field: "confirm_password", keyword: "required" }),
    ]);
    const mismatch = await admin.post("/merchant/manage-update", {
      ...detail.body.data,
      password: "fresh-pass-9",
      confirm_password: "fresh-pass-8",
    });
    expect(mismatch.status).toBe(400);
    const both = await admin.post("/merchant/manage-update", {
      ...detail.body.data,
      password: "fresh-pass-9",
      confirm_password: "fresh-pass-9",
    });
    expect(both.status).toBe(200);
    expect((await login("agent_b", "fresh-pass-9", "10.3.0.1")).status).toBe(200);
    const again = await admin.get<Record<string, unknown>>(`/merchant/manage-detail?id=${t.ids.agent_b}`);
    expect(
      (
        await admin.post("/merchant/manage-update", {
          ...again.body.data,
          password: "demo123",
          confirm_password: "demo123",
        })
      ).status,
    ).toBe(200);
  });
});

describe("menu and permissions", () => {
  it("gives the admin the whole menu and a narrow role only its routes", async () => {
    const admin = await t.as("admin");
    const full = await admin.get<{ routes: { permission: string }[] }[]>("/merchant/menu");
    expect(full.body.data.length).toBe(menu.length);
    const narrow = await t.as("agent_a1");
    const few = await narrow.get<{ routes: { permission: string; title: string }[] }[]>("/merchant/menu");
    const permissions = few.body.data.flatMap((g) => g.routes.map((r) => r.permission));
    expect(new Set(permissions)).toEqual(new Set(["goods.list", "order.list", "machine.list"]));
    expect(few.body.data[0].routes[0].title).not.toMatch(/^menu:/);
  });

  it("answers 403 for a call outside the role", async () => {
    const narrow = await t.as("agent_a1");
    expect((await narrow.get("/merchant/goods-list")).status).toBe(200);
    expect((await narrow.post("/merchant/goods-add", {})).status).toBe(403);
    expect((await narrow.get("/merchant/shop-list")).status).toBe(403);
  });
});

describe("role pickers", () => {
  it("offers an agent only the roles it may grant, and the ranks above its own", async () => {
    const agent = await t.as("agent_b");
    const down = await agent.get<{ id: number; level: number }[]>("/merchant/manage-role-down");
    expect(down.status).toBe(200);
    const ids = down.body.data.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([t.ids.roleAgent, t.ids.roleNarrow]));
    expect(ids).not.toContain(1); // the platform admin role holds permissions agent_b does not
    const forced = await agent.get<{ id: number }[]>("/merchant/manage-role-down?force_down=1");
    expect(forced.body.data.map((r) => r.id)).toEqual([t.ids.roleNarrow]);
    const up = await agent.get<{ level: number }[]>("/merchant/manage-role-up");
    expect(up.body.data.map((r) => r.level)).toEqual([0]);
    expect((await (await t.as("agent_a1")).get("/merchant/manage-role-down")).status).toBe(403);
  });
});

describe("common calls", () => {
  it("serves the OpenAPI document without signing in", async () => {
    const reply = await t.app.inject({ method: "GET", url: "/merchant/openapi.json" });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().openapi).toBe("3.1.0");
    expect(reply.json().paths["/merchant/goods-list"].get).toBeDefined();
  });

  it("checks and upgrades the version", async () => {
    const admin = await t.as("admin");
    expect(
      (
        await admin.post("/admin/version-add", {
          version_number: "1.0.0",
          description: "First",
          upgrade_time: "2026-11-01T00:00:00Z",
          content: "Initial release",
        })
      ).status,
    ).toBe(200);
    const first = await call<{ version: string; can_update: number }>(t.app, {
      method: "GET",
      url: "/merchant/version-check",
    });
    expect(first.body.data).toMatchObject({ version: "1.0.0", can_update: 0 });
    await t.db.query(
      `insert into sys_state (key, value) values ('installed_version', '"1.0.0"') on conflict (key) do nothing`,
    );
    expect(
      (
        await admin.post("/admin/version-add", {
          version_number: "1.1.0",
          description: "Second",
          upgrade_time: "2026-11-20T00:00:00Z",
          content: "Improvements",
        })
      ).status,
    ).toBe(200);
    const pending = await call<{ version: string; can_update: number; digits: number[] }>(t.app, {
      method: "GET",
      url: "/merchant/version-check",
    });
    expect(pending.body.data).toMatchObject({ version: "1.0.0", digits: [1, 0, 0], can_update: 1 });
    expect((await (await t.as("agent_b")).post("/merchant/version-upgrade")).status).toBe(403);
    expect((await admin.post("/merchant/version-upgrade")).status).toBe(200);
    const done = await call<{ version: string; can_update: number }>(t.app, {
      method: "GET",
      url: "/merchant/version-check",
    });
    expect(done.body.data).toMatchObject({ version: "1.1.0", can_update: 0 });
  });

  it("shows the login page's public settings (the business's currency among them), and only those, without signing in", async () => {
    const admin = await t.as("admin");
    const current = await admin.get<Record<string, unknown>>("/merchant/setting-detail");
    const example = (await import("../../src/generated/schemas.ts")).entitySchemas.system_setting
      .examples![0] as Record<string, unknown>;
    expect(
      (await admin.post("/merchant/setting-update", { ...example, version: current.body.data.version })).status,
    ).toBe(200);
    const open = await call<Record<string, unknown>>(t.app, { method: "GET", url: "/merchant/setting-no" });
    expect(open.status).toBe(200);
    expect(Object.keys(open.body.data).sort()).toEqual(
      ["currency", "logo", "nav_title", "site_name", "time_zone"]
        .filter((k) => k in example || k === "time_zone")
        .sort(),
    );
    // The business's time zone, whose days the statistics count and the console filters by.
    expect(open.body.data.time_zone).toBe("Asia/Bangkok");
    expect(JSON.stringify(open.body.data)).not.toContain(String(example.mini_secret));
  });

  it("answers unknown calls with a 404 envelope", async () => {
    const reply = await call(t.app, { method: "GET", url: "/merchant/no-such-call" });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(404);
  });

  it("keeps an audit history of a record, in order, with who did it", async () => {
    const admin = await t.as("admin");
    const added = await admin.post<{ id: number; version: number }>("/merchant/shop-cate-add", {
      name: "Malls",
      sort: 1,
    });
    const record = added.body.data;
    await admin.post("/merchant/shop-cate-update", { ...record, name: "Shopping malls" });
    const history = await admin.get<{ action: string; actor_name: string; changes: Record<string, unknown> }[]>(
      `/merchant/record-history?entity=shop_group&id=${record.id}`,
    );
    expect(history.body.data.map((h) => h.action)).toEqual(["update", "create"]);
    expect(history.body.data[0].changes).toEqual({ name: ["Malls", "Shopping malls"] });
    expect(history.body.data[0].actor_name).toBe("admin");
    const other = await t.as("agent_b");
    expect((await other.get(`/merchant/record-history?entity=shop_group&id=${record.id}`)).status).toBe(404);
  });
});

describe("transitions under concurrency", () => {
  it("20 simultaneous accepts of one work order: exactly one wins, the others get 409", async () => {
    const admin = await t.as("admin");
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "service_order" (type, problem, status, agent_id, agent_path) values ('equipment_issue', 'Lane 3 jams', 'pending', $1, $2) returning id`,
      [t.ids.admin, `/${t.ids.admin}/`],
    );
    const id = rows[0].id;
    const replies = await Promise.all(Array.from({ length: 20 }, () => admin.post("/merchant/service-accept", { id })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const { rows: after } = await t.db.query<{ status: string; version: number }>(
      `select status, version from "service_order" where id = $1`,
      [id],
    );
    expect(after[0]).toEqual({ status: "processing", version: 2 });
    const audits = await t.db.query<{ n: number }>(
      `select count(*)::int as n from sys_audit where entity = 'service_order' and record_id = $1 and action = 'accept'`,
      [id],
    );
    expect(audits.rows[0].n).toBe(1);
  });
});

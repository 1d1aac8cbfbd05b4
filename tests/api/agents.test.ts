// The agent tree (issue 13): superiors, direct and all subordinates, the superior picker, the role
// picker's force_down, a superior's password reset to SPEC §9's default, and the accounts nobody may
// delete (oneself, the platform admin, a role in use). Fixtures (helper.ts): admin → agent_a → agent_a1,
// admin → agent_b; roles "Platform admin" (level 0), "Level-1 agent" (1, agent_a and agent_b) and
// "Viewer" (2, agent_a1's narrow role); operator_a belongs to agent_a.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_PASSWORD } from "../../src/schema/constants.ts";
import { call, createTestApp, type Client, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;
let operator: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB, operator] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "agent_b", "operator_a"].map((a) => fx.client(a)),
  );
}, 60_000);
afterAll(() => t?.close());

const ids = (reply: { body: { data: unknown } }) => (reply.body.data as Row[]).map((r) => r.id);
const signIn = (account: string, password: string) =>
  call<{ token: string }>(t.app, { method: "POST", url: "/merchant/login", payload: { account, password } });

/** Each reader call refuses agent_a1's narrow role and the operator with 403. */
async function refusedWithoutPermission(url: string) {
  for (const who of [agentA1, operator]) {
    const reply = await who.get(url);
    expect(reply.status, reply.raw).toBe(403);
  }
}

describe("manage-up: the chain of superiors, nearest first", () => {
  it("answers a sub-agent's chain to the platform admin, as cards without money", async () => {
    const reply = await agentA.get(`/merchant/manage-up?id=${t.ids.agent_a1}`);
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toEqual([
      {
        id: t.ids.agent_a,
        nickname: "agent a",
        account: "agent_a",
        phone: "+85512000000",
        pid: t.ids.admin,
        role: "Level-1 agent",
        depth: 1,
      },
      {
        id: t.ids.admin,
        nickname: "admin",
        account: "admin",
        phone: "+85512000000",
        pid: null,
        role: "Platform admin",
        depth: 2,
      },
    ]);
  });

  it("answers the caller's own superiors without an id, and none for the platform admin", async () => {
    expect(ids(await agentA.get("/merchant/manage-up"))).toEqual([t.ids.admin]);
    expect(ids(await agentB.get("/merchant/manage-up"))).toEqual([t.ids.admin]);
    expect(ids(await admin.get(`/merchant/manage-up?id=${t.ids.agent_a1}`))).toEqual([t.ids.agent_a, t.ids.admin]);
    expect((await admin.get("/merchant/manage-up")).body.data).toEqual([]);
  });

  it("refuses an id that is not an id", async () => {
    for (const bad of ["abc", "0", "-1", "1.5"]) {
      const reply = await agentA.get(`/merchant/manage-up?id=${bad}`);
      expect(reply.status, `${bad}: ${reply.raw}`).toBe(400);
    }
  });

  it("answers 404 for another agent's sub-agent, and for the admin seen from below", async () => {
    for (const id of [t.ids.agent_a1, t.ids.agent_a, t.ids.admin]) {
      const reply = await agentB.get(`/merchant/manage-up?id=${id}`);
      expect(reply.status, reply.raw).toBe(404);
    }
  });

  it("refuses a role without the agent permission", () => refusedWithoutPermission("/merchant/manage-up"));
});

describe("manage-direct-down: the direct subordinates", () => {
  it("answers the caller's or a given agent's direct subordinates as records", async () => {
    expect(ids(await admin.get("/merchant/manage-direct-down"))).toEqual([t.ids.agent_a, t.ids.agent_b]);
    expect(ids(await admin.get(`/merchant/manage-direct-down?id=${t.ids.agent_a}`))).toEqual([t.ids.agent_a1]);
    const own = await agentA.get<Row[]>("/merchant/manage-direct-down");
    expect(own.status, own.raw).toBe(200);
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0]).toMatchObject({ id: t.ids.agent_a1, account: "agent_a1", pid: t.ids.agent_a });
    expect(own.body.data[0]).not.toHaveProperty("password");
    expect((await agentA.get(`/merchant/manage-direct-down?id=${t.ids.agent_a1}`)).body.data).toEqual([]);
  });

  it("refuses an id that is not an id", async () => {
    const reply = await agentA.get("/merchant/manage-direct-down?id=x");
    expect(reply.status).toBe(400);
    expect(errorFields(reply)).toEqual(["id"]);
  });

  it("answers 404 for another agent's records", async () => {
    for (const id of [t.ids.agent_a, t.ids.agent_a1]) {
      const reply = await agentB.get(`/merchant/manage-direct-down?id=${id}`);
      expect(reply.status, reply.raw).toBe(404);
    }
  });

  it("refuses a role without the agent permission", () => refusedWithoutPermission("/merchant/manage-direct-down"));
});

describe("manage-all-down: the whole subtree, paged like a list", () => {
  it("answers every agent below, the agent itself left out, with paging and filters", async () => {
    const all = await admin.get<{ list: Row[]; total: number }>("/merchant/manage-all-down?sort=id&order=asc");
    expect(all.status, all.raw).toBe(200);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.list.map((r) => r.id)).toEqual([t.ids.agent_a, t.ids.agent_a1, t.ids.agent_b]);
    const second = await admin.get<{ list: Row[]; total: number; page: number }>(
      "/merchant/manage-all-down?sort=id&order=asc&limit=1&page=2",
    );
    expect(second.body.data).toMatchObject({ total: 3, page: 2 });
    expect(second.body.data.list.map((r) => r.id)).toEqual([t.ids.agent_a1]);
    const like = await admin.get<{ list: Row[] }>("/merchant/manage-all-down?account_like=agent_a&sort=id&order=asc");
    expect(like.body.data.list.map((r) => r.id)).toEqual([t.ids.agent_a, t.ids.agent_a1]);
    const below = await admin.get<{ list: Row[] }>(`/merchant/manage-all-down?id=${t.ids.agent_a}`);
    expect(below.body.data.list.map((r) => r.id)).toEqual([t.ids.agent_a1]);
    const own = await agentA.get<{ list: Row[] }>("/merchant/manage-all-down");
    expect(own.body.data.list.map((r) => r.id)).toEqual([t.ids.agent_a1]);
    expect((await agentB.get<{ total: number }>("/merchant/manage-all-down")).body.data.total).toBe(0);
  });

  it("refuses a bad id, sort field or page", async () => {
    for (const query of ["id=x", "sort=password", "page=0", "nickname_gte=1"]) {
      const reply = await admin.get(`/merchant/manage-all-down?${query}`);
      expect(reply.status, `${query}: ${reply.raw}`).toBe(400);
    }
  });

  it("answers 404 for another agent's records", async () => {
    const reply = await agentB.get(`/merchant/manage-all-down?id=${t.ids.agent_a}`);
    expect(reply.status, reply.raw).toBe(404);
  });

  it("refuses a role without the agent permission", () => refusedWithoutPermission("/merchant/manage-all-down"));
});

describe("manage-pid-list: the superiors a new agent may get", () => {
  it("answers the caller and its subtree as options, narrowed by keyword", async () => {
    const all = await admin.get("/merchant/manage-pid-list");
    expect(all.status, all.raw).toBe(200);
    expect(all.body.data).toEqual([
      { id: t.ids.admin, title: "admin" },
      { id: t.ids.agent_a, title: "agent a" },
      { id: t.ids.agent_a1, title: "agent a1" },
      { id: t.ids.agent_b, title: "agent b" },
    ]);
    expect((await agentA.get("/merchant/manage-pid-list")).body.data).toEqual([
      { id: t.ids.agent_a, title: "agent a" },
      { id: t.ids.agent_a1, title: "agent a1" },
    ]);
    expect((await agentA.get("/merchant/manage-pid-list?keyword=a1")).body.data).toEqual([
      { id: t.ids.agent_a1, title: "agent a1" },
    ]);
  });

  it("never offers another agent's sub-agents", async () => {
    expect((await agentB.get("/merchant/manage-pid-list")).body.data).toEqual([
      { id: t.ids.agent_b, title: "agent b" },
    ]);
    expect((await agentB.get("/merchant/manage-pid-list?keyword=a1")).body.data).toEqual([]);
  });

  it("refuses a keyword over 100 characters", async () => {
    const reply = await agentA.get(`/merchant/manage-pid-list?keyword=${"a".repeat(101)}`);
    expect(reply.status, reply.raw).toBe(400);
    expect(errorFields(reply)).toEqual(["keyword"]);
  });

  it("refuses a role that may not add agents", () => refusedWithoutPermission("/merchant/manage-pid-list"));
});

describe("manage-role-down with force_down=1: roles of the next level down from the caller's", () => {
  const titles = (reply: { body: { data: unknown } }) => (reply.body.data as Row[]).map((r) => r.title);

  it("answers the roles of the next level down from the caller's own only", async () => {
    expect(titles(await admin.get("/merchant/manage-role-down"))).toEqual([
      "Platform admin",
      "Level-1 agent",
      "Viewer",
    ]);
    // The platform admin (level 0) gives level 1: Viewer (level 2) is for the agents below those.
    expect(titles(await admin.get("/merchant/manage-role-down?force_down=1"))).toEqual(["Level-1 agent"]);
    expect(titles(await agentA.get("/merchant/manage-role-down"))).toEqual(["Level-1 agent", "Viewer"]);
    expect(titles(await agentA.get("/merchant/manage-role-down?force_down=1"))).toEqual(["Viewer"]);
    expect(titles(await agentA.get("/merchant/manage-role-down?force_down=0"))).toEqual(["Level-1 agent", "Viewer"]);
  });

  it("leaves out a peer role at the caller's own level", async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "role" (name, level, permissions) values ('Peer', 1, '["goods.list"]') returning id`,
    );
    try {
      expect(titles(await agentA.get("/merchant/manage-role-down"))).toEqual(["Level-1 agent", "Peer", "Viewer"]);
      expect(titles(await agentA.get("/merchant/manage-role-down?force_down=1"))).toEqual(["Viewer"]);
    } finally {
      await t.db.query(`delete from "role" where id = $1`, [rows[0].id]);
    }
  });

  it("refuses a force_down that is not 0 or 1", async () => {
    const reply = await agentA.get("/merchant/manage-role-down?force_down=2");
    expect(reply.status, reply.raw).toBe(400);
    expect(errorFields(reply)).toEqual(["force_down"]);
  });

  it("refuses a role without the role picker", () =>
    refusedWithoutPermission("/merchant/manage-role-down?force_down=1"));
});

describe("deleting: oneself, the platform admin, a role in use", () => {
  const live = async (id: number) =>
    (await t.db.query(`select 1 from "agent" where id = $1 and deleted_at is null`, [id])).rows.length;

  it("refuses a role in use, naming it and how many agents use it, in the caller's language", async () => {
    const level1 = await admin.del(`/merchant/manage-role-delete?id=${t.ids.roleAgent}`);
    expect(level1.status, level1.raw).toBe(409);
    expect(level1.body.message).toBe("Role “Level-1 agent” is used by 2 agents and cannot be deleted");
    const viewer = await admin.del(`/merchant/manage-role-delete?id=${t.ids.roleNarrow}`);
    expect(viewer.body.message).toBe("Role “Viewer” is used by 1 agent and cannot be deleted");
    const zh = await (await fx.clientIn("admin", "zh")).del(`/merchant/manage-role-delete?id=${t.ids.roleNarrow}`);
    expect(zh.body.message).toBe("角色“Viewer”正被 1 个代理使用，不能删除");
    const { rows } = await t.db.query(`select id from "role" where id = any($1::bigint[])`, [
      [t.ids.roleAgent, t.ids.roleNarrow],
    ]);
    expect(rows).toHaveLength(2);
  });

  it("refuses a role held only by an agent in the recycle bin, and deletes an unused one", async () => {
    const role = await fx.createRecord("role", "admin", { name: "Spare", level: 3, permissions: ["goods.list"] });
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "agent" (nickname, account, password, phone, role_id, parent_role_id, pid, deleted_at)
       values ('Binned', 'binned', 'x', '1', $1, $2, $3, now()) returning id`,
      [t.ids.roleNarrow, role.id, t.ids.admin],
    );
    const refused = await admin.del(`/merchant/manage-role-delete?id=${role.id}`);
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.message).toBe("Role “Spare” is used by 1 agent and cannot be deleted");
    await t.db.query(`delete from "agent" where id = $1`, [rows[0].id]);
    const deleted = await admin.del(`/merchant/manage-role-delete?id=${role.id}`);
    expect(deleted.status, deleted.raw).toBe(200);
  });

  it("refuses one's own account, alone or among others, and deletes nothing", async () => {
    for (const [who, query] of [
      [agentA, `${t.ids.agent_a}`],
      [agentA, `${t.ids.agent_a1},${t.ids.agent_a}`],
      [admin, `${t.ids.admin}`],
    ] as const) {
      const reply = await who.del(`/merchant/manage-delete?id=${query}`);
      expect(reply.status, reply.raw).toBe(409);
      expect(reply.body.message).toBe("You cannot delete your own account");
    }
    for (const id of [t.ids.admin, t.ids.agent_a, t.ids.agent_a1]) expect(await live(id)).toBe(1);
    expect((await agentA.get("/merchant/user-info")).status).toBe(200);
  });

  it("refuses the platform admin, even to another account without a superior", async () => {
    await t.db.query(
      `insert into "agent" (nickname, account, password, phone, role_id, parent_role_id, pid, agent_path)
       select 'Second root', 'root2', password, '1', role_id, parent_role_id, null, '/0/' from "agent" where id = $1`,
      [t.ids.admin],
    );
    const root2 = await t.as("root2", "admin123");
    const reply = await root2.del(`/merchant/manage-delete?id=${t.ids.admin}`);
    expect(reply.status, reply.raw).toBe(409);
    expect(reply.body.message).toBe("admin is the platform admin and cannot be deleted");
    expect(await live(t.ids.admin)).toBe(1);
    await t.db.query(`delete from "agent" where account = 'root2'`);
  });

  it("keeps another agent's account a 404, and still deletes a sub-agent", async () => {
    const other = await agentB.del(`/merchant/manage-delete?id=${t.ids.agent_a1}`);
    expect(other.status, other.raw).toBe(404);
    const sub = await fx.createRecord("agent", "agent_a", { account: "sub_to_delete" });
    const deleted = await agentA.del(`/merchant/manage-delete?id=${sub.id}`);
    expect(deleted.status, deleted.raw).toBe(200);
    expect(await live(sub.id as number)).toBe(0);
  });
});

describe("manage-reset-password: a superior resets to SPEC §9's default", () => {
  const hashOf = async (id: number) =>
    (await t.db.query<{ password: string }>(`select password from "agent" where id = $1`, [id])).rows[0].password;

  it("sets the default, ends every session of that agent, and the default signs in", async () => {
    expect(RESET_PASSWORD).toBe("123456");
    const sub = await fx.createRecord("agent", "agent_a", { account: "reset_me" });
    const old = await t.as("reset_me", "s3cret-pass");
    const other = await t.as("reset_me", "s3cret-pass");
    expect((await old.get("/merchant/user-info")).status).toBe(200);
    const reply = await agentA.post("/merchant/manage-reset-password", { id: sub.id });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toBeNull();
    for (const session of [old, other]) expect((await session.get("/merchant/user-info")).status).toBe(401);
    expect((await signIn("reset_me", "s3cret-pass")).status).toBe(401);
    const fresh = await signIn("reset_me", RESET_PASSWORD);
    expect(fresh.status, fresh.raw).toBe(200);
    // The superior's own session goes on.
    expect((await agentA.get("/merchant/user-info")).status).toBe(200);
    const { rows } = await t.db.query(
      `select actor_id, action from sys_audit where entity = 'agent' and record_id = $1 and action = 'reset_password'`,
      [sub.id],
    );
    expect(rows).toEqual([{ actor_id: t.ids.agent_a, action: "reset_password" }]);
  });

  it("ends the agent's sessions but not its operators'", async () => {
    const a = await t.as("agent_a");
    const op = await t.as("operator_a");
    const reply = await admin.post("/merchant/manage-reset-password", { id: t.ids.agent_a });
    expect(reply.status, reply.raw).toBe(200);
    expect((await a.get("/merchant/user-info")).status).toBe(401);
    expect((await op.get("/merchant/user-info")).status).toBe(200);
    // Put agent_a's password back for the rest of the file.
    await t.db.query(`update "agent" set password = (select password from "agent" where id = $1) where id = $2`, [
      t.ids.agent_b,
      t.ids.agent_a,
    ]);
    agentA = await t.as("agent_a");
  });

  it("refuses one's own password, translated, and changes nothing", async () => {
    const before = await hashOf(t.ids.agent_a);
    const reply = await agentA.post("/merchant/manage-reset-password", { id: t.ids.agent_a });
    expect(reply.status, reply.raw).toBe(409);
    expect(reply.body.message).toBe("You cannot reset your own password; change it under Change password");
    const th = await (await fx.clientIn("admin", "th")).post("/merchant/manage-reset-password", { id: t.ids.admin });
    expect(th.body.message).toBe("คุณไม่สามารถรีเซ็ตรหัสผ่านของตนเองได้ โปรดเปลี่ยนที่เมนูเปลี่ยนรหัสผ่าน");
    expect(await hashOf(t.ids.agent_a)).toBe(before);
    expect((await agentA.get("/merchant/user-info")).status).toBe(200);
  });

  it("refuses a body without a valid id", async () => {
    for (const body of [{}, { id: "x" }, { id: 0 }, { id: t.ids.agent_a1, password: "mine" }]) {
      const reply = await agentA.post("/merchant/manage-reset-password", body);
      expect(reply.status, `${JSON.stringify(body)}: ${reply.raw}`).toBe(400);
    }
  });

  it("answers 404 for another agent's sub-agent or a superior, and changes nothing", async () => {
    const before = await hashOf(t.ids.agent_a1);
    for (const [who, id] of [
      [agentB, t.ids.agent_a1],
      [agentA, t.ids.admin],
      [agentA, t.ids.agent_b],
    ] as const) {
      const reply = await who.post("/merchant/manage-reset-password", { id });
      expect(reply.status, reply.raw).toBe(404);
    }
    expect(await hashOf(t.ids.agent_a1)).toBe(before);
    expect((await agentA1.get("/merchant/user-info")).status).toBe(200);
  });

  it("refuses a role without the reset permission", async () => {
    const before = await hashOf(t.ids.agent_a1);
    for (const who of [agentA1, operator]) {
      const reply = await who.post("/merchant/manage-reset-password", { id: t.ids.agent_a1 });
      expect(reply.status, reply.raw).toBe(403);
    }
    expect(await hashOf(t.ids.agent_a1)).toBe(before);
  });
});

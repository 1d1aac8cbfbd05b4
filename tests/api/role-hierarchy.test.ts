// The role hierarchy a new agent is held to (server/domain/accounts/place.ts): its role is of the next
// level down from its superior's role (a role's level is the depth of the agents it is for), it grants
// nothing the superior's role does not, and its parent role is its superior's role (set from the superior).
// Fixtures (helper.ts): admin ("Platform admin", level 0, every permission) → agent_a ("Level-1 agent", 1,
// all but platform administration) → agent_a1 ("Viewer", 2, four read permissions), admin → agent_b
// ("Level-1 agent"); operator_a belongs to agent_a. Every refusal below is exact, translated, and creates
// nothing. Editing a role that agents hold keeps them in their place (409 naming the permission).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { Fixtures, type FieldErrors, type Row } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let operator: Client;
let roleAdmin: number;
let made = 0;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, operator] = await Promise.all(
    ["admin", "agent_a", "agent_a1", "operator_a"].map((a) => fx.client(a)),
  );
  const { rows } = await t.db.query<{ id: number }>(`select id from "role" where name = 'Platform admin'`);
  roleAdmin = Number(rows[0].id);
}, 60_000);
afterAll(() => t?.close());

/** A new agent's body: a fresh account, under the superior, with the role (and the parent role if given). */
function body(pid: number, role_id: number, more: Row = {}): Row {
  made += 1;
  return {
    nickname: `Sub ${made}`,
    account: `sub_${made}`,
    password: "s3cret-pass",
    confirm_password: "s3cret-pass",
    phone: "+855 12 000 111",
    role_id,
    pid,
    ...more,
  };
}

const errorsOf = (reply: Reply) => (reply.body.data as FieldErrors).errors;
const agents = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from "agent"`)).rows[0].n;

async function stored(id: unknown) {
  const { rows } = await t.db.query<{ role_id: number; parent_role_id: number; pid: number; agent_path: string }>(
    `select role_id::int, parent_role_id::int, pid::int, agent_path from "agent" where id = $1`,
    [id],
  );
  return rows[0];
}

/** A refusal: 400, exactly these field errors, and no agent made. */
async function refused(who: Client, payload: Row, errors: { field: string; keyword: string; message: string }[]) {
  const before = await agents();
  const reply = await who.post("/merchant/manage-add", payload);
  expect(reply.status, reply.raw).toBe(400);
  expect(errorsOf(reply)).toEqual(errors);
  expect(await agents()).toBe(before);
}

/** The level a role under each fixture agent must have: one below the agent's role's level. */
const LEVEL_UNDER: Record<string, number> = { "Platform admin": 1, "Level-1 agent": 2, Viewer: 3 };
const notBelow = (role: string) => ({
  field: "role_id",
  keyword: "roleNotBelowSuperior",
  message: `The role must be of level ${LEVEL_UNDER[role]}, one below the superior agent's role “${role}”`,
});
const beyondSuperior = (role: string, permission: string) => ({
  field: "role_id",
  keyword: "roleBeyondSuperior",
  message: `The role grants “${permission}”, which the superior agent's role “${role}” does not`,
});
const notParent = (role: string) => ({
  field: "parent_role_id",
  keyword: "parentRoleNotSuperiors",
  message: `The parent role must be the superior agent's role “${role}”`,
});

describe("a new agent's role ranks below its superior's, its parent role is the superior's", () => {
  it("creates a sub-agent under the caller, the parent role set from the superior", async () => {
    const reply = await agentA.post<Row>("/merchant/manage-add", body(t.ids.agent_a, t.ids.roleNarrow));
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data).toMatchObject({ role_id: t.ids.roleNarrow, parent_role_id: t.ids.roleAgent });
    const row = await stored(reply.body.data.id);
    expect(row).toEqual({
      role_id: t.ids.roleNarrow,
      parent_role_id: t.ids.roleAgent,
      pid: t.ids.agent_a,
      agent_path: `/${t.ids.admin}/${t.ids.agent_a}/${reply.body.data.id as number}/`,
    });
  });

  it("takes the superior's role sent as the parent role", async () => {
    const reply = await agentA.post<Row>(
      "/merchant/manage-add",
      body(t.ids.agent_a, t.ids.roleNarrow, { parent_role_id: t.ids.roleAgent }),
    );
    expect(reply.status, reply.raw).toBe(200);
    expect(await stored(reply.body.data.id)).toMatchObject({ parent_role_id: t.ids.roleAgent });
  });

  it("lets the platform admin create a level-1 agent under itself, and a sub-agent under an agent", async () => {
    const level1 = await admin.post<Row>("/merchant/manage-add", body(t.ids.admin, t.ids.roleAgent));
    expect(level1.status, level1.raw).toBe(200);
    expect(await stored(level1.body.data.id)).toMatchObject({
      role_id: t.ids.roleAgent,
      parent_role_id: roleAdmin,
      pid: t.ids.admin,
    });
    const below = await admin.post<Row>("/merchant/manage-add", body(t.ids.agent_a, t.ids.roleNarrow));
    expect(below.status, below.raw).toBe(200);
    expect(await stored(below.body.data.id)).toMatchObject({ parent_role_id: t.ids.roleAgent, pid: t.ids.agent_a });
  });

  it("accepts exactly the roles the role picker offers when the caller is the superior", async () => {
    const { rows } = await t.db.query<{ id: number }>(`select id::int from "role" order by id`);
    for (const [who, self] of [
      [agentA, t.ids.agent_a],
      [admin, t.ids.admin],
    ] as const) {
      const offered = ((await who.get<Row[]>("/merchant/manage-role-down?force_down=1")).body.data ?? []).map(
        (r) => r.id,
      );
      expect(offered.length).toBeGreaterThan(0);
      for (const { id } of rows) {
        const reply = await who.post("/merchant/manage-add", body(self, id));
        expect(reply.status, `role ${id}: ${reply.raw}`).toBe(offered.includes(id) ? 200 : 400);
      }
    }
  });

  it("refuses a role at or above the superior's place, the platform admin's requests too", async () => {
    // A peer of the caller: the caller's own role under the caller.
    await refused(agentA, body(t.ids.agent_a, t.ids.roleAgent), [notBelow("Level-1 agent")]);
    // Under agent_a1 (Viewer, level 2): neither its own level nor one above it.
    await refused(agentA, body(t.ids.agent_a1, t.ids.roleNarrow), [notBelow("Viewer")]);
    await refused(agentA, body(t.ids.agent_a1, t.ids.roleAgent), [notBelow("Viewer")]);
    // A level-1 agent under a Level-2 superior, or beside its peer: not even the platform admin.
    await refused(admin, body(t.ids.agent_a1, t.ids.roleAgent), [notBelow("Viewer")]);
    await refused(admin, body(t.ids.agent_a, t.ids.roleAgent), [notBelow("Level-1 agent")]);
    await refused(admin, body(t.ids.admin, roleAdmin), [notBelow("Platform admin")]);
  });

  it("refuses a role beyond the caller's own permissions on the field, once", async () => {
    await refused(agentA, body(t.ids.agent_a, roleAdmin), [
      { field: "role_id", keyword: "x-relation", message: "The chosen Role does not exist or is not yours to use" },
    ]);
  });

  it("refuses a parent role that is not the superior's", async () => {
    await refused(agentA, body(t.ids.agent_a, t.ids.roleNarrow, { parent_role_id: t.ids.roleNarrow }), [
      notParent("Level-1 agent"),
    ]);
    await refused(agentA, body(t.ids.agent_a, t.ids.roleNarrow, { parent_role_id: roleAdmin }), [
      notParent("Level-1 agent"),
    ]);
    await refused(admin, body(t.ids.agent_a, t.ids.roleNarrow, { parent_role_id: roleAdmin }), [
      notParent("Level-1 agent"),
    ]);
    // Both wrong: both fields named at once.
    await refused(agentA, body(t.ids.agent_a1, t.ids.roleAgent, { parent_role_id: t.ids.roleAgent }), [
      notBelow("Viewer"),
      notParent("Viewer"),
    ]);
  });

  it("answers in the caller's language", async () => {
    const expected: Record<string, [string, string]> = {
      zh: [
        "角色的级别必须为 2，比上级代理商的角色“Level-1 agent”低一级",
        "上级角色必须是上级代理商的角色“Level-1 agent”",
      ],
      tw: [
        "角色的級別必須為 2，比上級代理商的角色「Level-1 agent」低一級",
        "上級角色必須是上級代理商的角色「Level-1 agent」",
      ],
      th: [
        "บทบาทต้องอยู่ระดับ 2 ต่ำกว่าบทบาท “Level-1 agent” ของตัวแทนระดับบนหนึ่งระดับ",
        "บทบาทระดับบนต้องเป็นบทบาท “Level-1 agent” ของตัวแทนระดับบน",
      ],
      km: [
        "តួនាទីត្រូវតែនៅកម្រិត 2 ទាបជាងតួនាទី “Level-1 agent” របស់ភ្នាក់ងារថ្នាក់លើមួយកម្រិត",
        "តួនាទីថ្នាក់លើត្រូវតែជាតួនាទី “Level-1 agent” របស់ភ្នាក់ងារថ្នាក់លើ",
      ],
    };
    for (const [lng, messages] of Object.entries(expected)) {
      const who = await fx.clientIn("agent_a", lng);
      const reply = await who.post(
        "/merchant/manage-add",
        body(t.ids.agent_a, t.ids.roleAgent, { parent_role_id: roleAdmin }),
      );
      expect(reply.status, reply.raw).toBe(400);
      expect(errorsOf(reply).map((e) => e.message)).toEqual(messages);
    }
  });

  it("refuses a superior outside the caller's subtree on the field, as any relation it may not use", async () => {
    const outside = {
      field: "pid",
      keyword: "x-relation",
      message: "The chosen Superior agent does not exist or is not yours to use",
    };
    await refused(agentA, body(t.ids.agent_b, t.ids.roleNarrow), [outside]);
    await refused(agentA, body(t.ids.admin, t.ids.roleNarrow), [outside]);
    await refused(agentA, body(999_999, t.ids.roleNarrow), [outside]);
  });

  it("refuses a role or parent role that does not exist", async () => {
    await refused(agentA, body(t.ids.agent_a, 999_999), [
      { field: "role_id", keyword: "x-relation", message: "The chosen Role does not exist or is not yours to use" },
    ]);
    await refused(agentA, body(t.ids.agent_a, t.ids.roleNarrow, { parent_role_id: 999_999 }), [
      {
        field: "parent_role_id",
        keyword: "x-relation",
        message: "The chosen Parent role does not exist or is not yours to use",
      },
    ]);
  });

  it("refuses a role without agent.add and an operator (403), creating nothing", async () => {
    const before = await agents();
    for (const who of [agentA1, operator]) {
      const reply = await who.post("/merchant/manage-add", body(t.ids.agent_a1, t.ids.roleNarrow));
      expect(reply.status, reply.raw).toBe(403);
      expect(reply.body.message).toBe("You do not have permission for this action");
    }
    expect(await agents()).toBe(before);
  });
});

describe("after creation", () => {
  it("refuses a change of role, parent role or superior", async () => {
    const created = (await agentA.post<Row>("/merchant/manage-add", body(t.ids.agent_a, t.ids.roleNarrow))).body.data;
    const before = await stored(created.id);
    for (const [field, value] of [
      ["role_id", t.ids.roleAgent],
      ["parent_role_id", t.ids.roleNarrow],
      ["pid", t.ids.agent_a1],
    ] as const) {
      const reply = await agentA.post("/merchant/manage-update", { ...created, [field]: value });
      expect(reply.status, reply.raw).toBe(400);
      expect(errorsOf(reply).map((e) => [e.field, e.keyword])).toEqual([[field, "x-immutable"]]);
    }
    expect(await stored(created.id)).toEqual(before);
  });

  it("leaves agents made before the rule as they are, and brings one back from the bin unchanged", async () => {
    // The fixtures' agents hold their own role as parent role, as rows made before the rule may: no rewrite.
    expect(await stored(t.ids.agent_a)).toMatchObject({ role_id: t.ids.roleAgent, parent_role_id: t.ids.roleAgent });
    const { rows } = await t.db.query<{ id: number }>(
      `insert into "agent" (nickname, account, password, phone, role_id, parent_role_id, pid, agent_path)
       values ('Old', 'old_row', 'x', '1', $1, $1, $2, '') returning id::int`,
      [t.ids.roleAgent, t.ids.agent_a],
    );
    const id = rows[0].id;
    await t.db.query(`update "agent" set agent_path = $1, agent_id = $2 where id = $2`, [
      `/${t.ids.admin}/${t.ids.agent_a}/${id}/`,
      id,
    ]);
    const before = await stored(id);
    expect((await admin.del(`/merchant/manage-delete?id=${id}`)).status).toBe(200);
    const recovered = await admin.post("/merchant/manage-recycle-recover", { id: [id] });
    expect(recovered.status, recovered.raw).toBe(200);
    expect(await stored(id)).toEqual(before);
  });
});

/** Roles beside the fixtures' for the table: one of level 2 granting what a Level-1 agent lacks, two of level 3. */
async function addRole(name: string, level: number, permissions: string[]): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `insert into "role" (name, level, permissions) values ($1, $2, $3) returning id::int`,
    [name, level, JSON.stringify(permissions)],
  );
  return rows[0].id;
}

describe("every role at every depth", () => {
  const roles: Record<string, number> = {};
  beforeAll(async () => {
    roles["Platform admin"] = roleAdmin;
    roles["Level-1 agent"] = t.ids.roleAgent;
    roles.Viewer = t.ids.roleNarrow;
    roles["Wide viewer"] = await addRole("Wide viewer", 2, ["goods.list", "role.add"]);
    roles["Level-3 reader"] = await addRole("Level-3 reader", 3, ["goods.list"]);
    roles["Level-3 seller"] = await addRole("Level-3 seller", 3, ["goods.list", "order.refund"]);
  });

  // Written from the rule, not the code: under an agent whose role has level L and permissions P, a role
  // fits when its level is L + 1 and its permissions are within P. Depth 1 is under admin (Platform admin,
  // 0, all), depth 2 under agent_a (Level-1 agent, 1, all but role/version/application/plugin/payment and
  // system settings, role.all kept), depth 3 under agent_a1 (Viewer, 2, goods.list/detail, order.list,
  // machine.list). "ok" is accepted; otherwise the refusal on role_id.
  const ok = "ok";
  const low = (superior: string) => notBelow(superior);
  const TABLE: [string, unknown, unknown, unknown][] = [
    //  role              depth 1 (under admin)     depth 2 (under agent_a)                                   depth 3 (under agent_a1)
    ["Platform admin", low("Platform admin"), low("Level-1 agent"), low("Viewer")],
    ["Level-1 agent", ok, low("Level-1 agent"), low("Viewer")],
    ["Viewer", low("Platform admin"), ok, low("Viewer")],
    ["Wide viewer", low("Platform admin"), beyondSuperior("Level-1 agent", "Role: Add"), low("Viewer")],
    ["Level-3 reader", low("Platform admin"), low("Level-1 agent"), ok],
    ["Level-3 seller", low("Platform admin"), low("Level-1 agent"), beyondSuperior("Viewer", "Order: Refund")],
  ];
  const superiors = () => [
    { pid: t.ids.admin, role: roleAdmin },
    { pid: t.ids.agent_a, role: t.ids.roleAgent },
    { pid: t.ids.agent_a1, role: t.ids.roleNarrow },
  ];

  for (const [role, ...byDepth] of TABLE)
    it(`the platform admin gives “${role}” at depths 1, 2 and 3`, async () => {
      for (const [i, expected] of byDepth.entries()) {
        const { pid, role: superiorRole } = superiors()[i];
        if (expected !== ok) {
          await refused(admin, body(pid, roles[role]), [
            expected as { field: string; keyword: string; message: string },
          ]);
          continue;
        }
        const reply = await admin.post<Row>("/merchant/manage-add", body(pid, roles[role]));
        expect(reply.status, `${role} at depth ${i + 1}: ${reply.raw}`).toBe(200);
        const row = await stored(reply.body.data.id);
        // The parent role is derived: the superior's role; the path is one deeper than the superior's.
        expect(row).toMatchObject({ role_id: roles[role], parent_role_id: superiorRole, pid });
        expect(row.agent_path.split("/").filter(Boolean)).toHaveLength(i + 2);
      }
    });

  it("agent_a gives at depths 2 and 3 what the rule takes, and nothing beyond its own permissions", async () => {
    const mine = {
      field: "role_id",
      keyword: "x-relation",
      message: "The chosen Role does not exist or is not yours to use",
    };
    const expected: Record<string, [unknown, unknown]> = {
      "Platform admin": [mine, mine],
      "Level-1 agent": [low("Level-1 agent"), low("Viewer")],
      Viewer: [ok, low("Viewer")],
      "Wide viewer": [mine, mine],
      "Level-3 reader": [low("Level-1 agent"), ok],
      "Level-3 seller": [low("Level-1 agent"), beyondSuperior("Viewer", "Order: Refund")],
    };
    for (const [role, byDepth] of Object.entries(expected))
      for (const [i, want] of byDepth.entries()) {
        const pid = [t.ids.agent_a, t.ids.agent_a1][i];
        if (want === ok) {
          const reply = await agentA.post("/merchant/manage-add", body(pid, roles[role]));
          expect(reply.status, `${role} under ${pid}: ${reply.raw}`).toBe(200);
        } else
          await refused(agentA, body(pid, roles[role]), [want as { field: string; keyword: string; message: string }]);
      }
  });

  it("offers under force_down=1 exactly the next level down within the caller's permissions", async () => {
    const offered = async (who: Client) =>
      ((await who.get<Row[]>("/merchant/manage-role-down?force_down=1")).body.data ?? []).map((r) => r.title).sort();
    expect(await offered(admin)).toEqual(["Level-1 agent"]);
    expect(await offered(agentA)).toEqual(["Viewer"]);
  });

  it("names the permission in the caller's language", async () => {
    const zh = await fx.clientIn("agent_a", "zh");
    const reply = await zh.post("/merchant/manage-add", body(t.ids.agent_a1, roles["Level-3 seller"]));
    expect(reply.status, reply.raw).toBe(400);
    expect(errorsOf(reply).map((e) => e.message)).toEqual([
      "该角色授予了“订单: 退款”，而上级代理商的角色“Viewer”没有此权限",
    ]);
  });
});

describe("editing a role that agents hold", () => {
  let reader: number;
  beforeAll(async () => {
    reader = await addRole("Edit reader", 3, ["goods.list"]);
    // An agent holding it under agent_a1 (Viewer): Viewer is above it.
    const made = await admin.post<Row>("/merchant/manage-add", body(t.ids.agent_a1, reader));
    expect(made.status, made.raw).toBe(200);
  });

  const detail = async (id: number) => (await admin.get<Row>(`/merchant/manage-role-detail?id=${id}`)).body.data;
  const permissionsOf = async (id: number) =>
    (await t.db.query<{ p: string[]; level: number }>(`select permissions as p, level from "role" where id = $1`, [id]))
      .rows[0];

  async function refusedEdit(who: Client, id: number, change: Row, status: number, message: string) {
    const before = await permissionsOf(id);
    const reply = await who.post("/merchant/manage-role-update", { ...(await detail(id)), ...change });
    expect(reply.status, reply.raw).toBe(status);
    expect(reply.body.message).toBe(message);
    expect(await permissionsOf(id)).toEqual(before);
  }

  it("refuses a permission the role of a holder's superior lacks, naming it", async () => {
    const viewer = await detail(t.ids.roleNarrow);
    await refusedEdit(
      admin,
      t.ids.roleNarrow,
      { permissions: [...(viewer.permissions as string[]), "role.add"] },
      409,
      "Role “Viewer” cannot grant “Role: Add”: some of its agents are under agents with role “Level-1 agent”, which does not",
    );
  });

  it("refuses taking away a permission a subordinate's role still grants, naming it", async () => {
    const viewer = await detail(t.ids.roleNarrow);
    await refusedEdit(
      admin,
      t.ids.roleNarrow,
      { permissions: (viewer.permissions as string[]).filter((p) => p !== "goods.list") },
      409,
      // The first role below it that grants it: Level-3 reader, made by the table above.
      "Role “Viewer” must keep “Goods: View list”: role “Level-3 reader” of agents below its agents grants it (take it from that role first)",
    );
  });

  it("refuses a new level for a role in the tree", async () => {
    await refusedEdit(
      admin,
      t.ids.roleNarrow,
      { level: 5 },
      409,
      "Role “Viewer” is held by agents in the tree: its level must stay 2",
    );
    await refusedEdit(
      admin,
      reader,
      { level: 2 },
      409,
      "Role “Edit reader” is held by agents in the tree: its level must stay 3",
    );
  });

  it("answers in the caller's language", async () => {
    const km = await fx.clientIn("admin", "km");
    await refusedEdit(
      km,
      t.ids.roleNarrow,
      { level: 5 },
      409,
      "តួនាទី “Viewer” មានភ្នាក់ងារកំពុងប្រើក្នុងខ្សែបណ្តាញ៖ កម្រិតរបស់វាត្រូវតែនៅ 2 ដដែល",
    );
  });

  it("takes an edit within the rule, and anything on a role nobody holds", async () => {
    const viewer = await detail(t.ids.roleNarrow);
    const without = (viewer.permissions as string[]).filter((p) => p !== "machine.list");
    const narrowed = await admin.post<Row>("/merchant/manage-role-update", { ...viewer, permissions: without });
    expect(narrowed.status, narrowed.raw).toBe(200);
    const back = await admin.post<Row>("/merchant/manage-role-update", {
      ...narrowed.body.data,
      permissions: [...without, "machine.list"],
    });
    expect(back.status, back.raw).toBe(200);
    const free = await addRole("Unused", 7, ["goods.list"]);
    const wide = await admin.post<Row>("/merchant/manage-role-update", {
      ...(await detail(free)),
      level: 4,
      permissions: ["goods.list", "role.add"],
    });
    expect(wide.status, wide.raw).toBe(200);
  });

  it("refuses an edit to a role without role.update and to an operator (403)", async () => {
    for (const who of [agentA, agentA1, operator])
      await refusedEdit(who, t.ids.roleNarrow, { level: 5 }, 403, "You do not have permission for this action");
  });
});

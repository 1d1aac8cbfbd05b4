// What ends a session besides logging out: a password set through an update call (the account's every
// session), deleting the account (for good: recovering it does not bring its tokens back), and deleting
// the agent that owns an operator. One's own password is changed only through modify-password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type Client, type TestApp } from "./helper.ts";
import type { FieldErrors, Row } from "./fixtures.ts";

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.as("admin");
});
afterAll(() => t?.close());

const signedIn = async (session: Client) => (await session.get("/merchant/user-info")).status === 200;

async function setPassword(by: Client, url: string, id: number, password: string) {
  const entity = url.startsWith("/merchant/manage") ? "manage" : "operator";
  const detail = await by.get<Row>(`/merchant/${entity}-detail?id=${id}`);
  expect(detail.status, detail.raw).toBe(200);
  return by.post<FieldErrors>(url, { ...detail.body.data, password, confirm_password: password });
}

describe("a password set through an update call", () => {
  it("ends every session of that agent, and only its", async () => {
    const first = await t.as("agent_b");
    const second = await t.as("agent_b");
    const bystander = await t.as("agent_a");
    const reply = await setPassword(admin, "/merchant/manage-update", t.ids.agent_b, "fresh-pass-1");
    expect(reply.status, reply.raw).toBe(200);
    expect(await signedIn(first)).toBe(false);
    expect(await signedIn(second)).toBe(false);
    expect(await signedIn(bystander)).toBe(true);
    expect(await signedIn(admin)).toBe(true);
    expect(await signedIn(await t.as("agent_b", "fresh-pass-1"))).toBe(true);
  });

  it("ends every session of that operator", async () => {
    const operator = await t.as("operator_a");
    const reply = await setPassword(admin, "/merchant/operator-update", t.ids.operator_a, "fresh-pass-2");
    expect(reply.status, reply.raw).toBe(200);
    expect(await signedIn(operator)).toBe(false);
    expect(await signedIn(await t.as("operator_a", "fresh-pass-2"))).toBe(true);
  });

  it("ends nothing when the password is not changed", async () => {
    const session = await t.as("agent_a1");
    const detail = await admin.get<Row>(`/merchant/manage-detail?id=${t.ids.agent_a1}`);
    const reply = await admin.post("/merchant/manage-update", { ...detail.body.data, nickname: "Agent A1 renamed" });
    expect(reply.status, reply.raw).toBe(200);
    expect(await signedIn(session)).toBe(true);
  });

  it("is refused for one's own account, in the caller's language: modify-password asks for the current one", async () => {
    const own = await t.as("agent_a");
    const before = await t.db.query<{ password: string }>(`select password from "agent" where id = $1`, [
      t.ids.agent_a,
    ]);
    for (const [session, id] of [
      [own, t.ids.agent_a],
      [admin, t.ids.admin],
    ] as const) {
      const reply = await setPassword(session, "/merchant/manage-update", id, "taken-over-1");
      expect(reply.status, reply.raw).toBe(400);
      expect(reply.body.data.errors).toEqual([
        { field: "password", keyword: "ownPassword", message: expect.stringContaining("Change password") as string },
      ]);
      expect(await signedIn(session)).toBe(true);
    }
    const after = await t.db.query<{ password: string }>(`select password from "agent" where id = $1`, [t.ids.agent_a]);
    expect(after.rows[0].password).toBe(before.rows[0].password);
    const zh = await setPassword(client(t.app, own.token, "zh"), "/merchant/manage-update", t.ids.agent_a, "x-pass-1");
    expect(zh.status).toBe(400);
    expect(zh.body.data.errors[0].message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe("deleting an account", () => {
  it("ends the agent's sessions, and recovering it from the recycle bin does not bring them back", async () => {
    const session = await t.as("agent_a1");
    expect((await admin.del(`/merchant/manage-delete?id=${t.ids.agent_a1}`)).status).toBe(200);
    expect(await signedIn(session)).toBe(false);
    expect((await admin.post("/merchant/manage-recycle-recover", { id: [t.ids.agent_a1] })).status).toBe(200);
    expect(await signedIn(session)).toBe(false);
    expect(await signedIn(await t.as("agent_a1"))).toBe(true);
  });

  it("ends the sessions of an operator, and of the operators an agent owns", async () => {
    const operator = await t.as("operator_a", "fresh-pass-2");
    const agent = await t.as("agent_a");
    expect((await admin.del(`/merchant/manage-delete?id=${t.ids.agent_a}`)).status).toBe(200);
    expect(await signedIn(agent)).toBe(false);
    expect(await signedIn(operator)).toBe(false);
    expect((await admin.post("/merchant/manage-recycle-recover", { id: [t.ids.agent_a] })).status).toBe(200);
    expect(await signedIn(operator)).toBe(false);
    const again = await t.as("operator_a", "fresh-pass-2");
    expect((await admin.del(`/merchant/operator-delete?id=${t.ids.operator_a}`)).status).toBe(200);
    expect(await signedIn(again)).toBe(false);
  });
});

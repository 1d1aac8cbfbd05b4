// The serial service and the licence it holds: a trial of 30 days from installation, a serial number
// signed with the saved secret key, and 402 on every call but a few once the licence has ended.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetLicence } from "../../server/domain/licence/index.ts";
import { issueSerial } from "../../server/domain/licence/serial.ts";
import { call, createTestApp, type Client, type TestApp } from "./helper.ts";

let t: TestApp;
let admin: Client;
let agent: Client;
const KEY = "k3y-of-the-vendor-for-tests";
const DAY = 86_400_000;

interface Status {
  state: string;
  licensee: string | null;
  valid_until: string;
  days_left: number;
  key_saved: number;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.as("admin");
  agent = await t.as("agent_a");
});
afterAll(() => t?.close());

/** Puts the licence back as a fresh installation has it: no key, no serial, installed just now. */
async function fresh(installedDaysAgo = 0) {
  await t.db.query(`delete from sys_state where key like 'licence:%'`);
  await t.db.query(`update sys_migration set at = now() - make_interval(days => $1)`, [installedDaysAgo]);
  forgetLicence(t.db);
}
beforeEach(() => fresh());

const serialUntil = (until: string, key = KEY, licensee = "Mekong Smart Retail") =>
  issueSerial(key, { licensee, valid_until: until });
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe("the licence", () => {
  it("runs a 30-day trial from installation while no serial number is installed", async () => {
    const status = await agent.get<Status>("/admin/checksn");
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ state: "trial", licensee: null, days_left: 30, key_saved: 0 });
    await fresh(12);
    expect((await agent.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "trial", days_left: 18 });
    expect((await agent.get("/merchant/goods-list")).status).toBe(200);
  });

  it("saves the secret key write-only, refusing a short one on its field", async () => {
    const short = await admin.post<{ errors: unknown[] }>("/admin/saveSecretKey", { secret_key: "short" });
    expect(short.status).toBe(400);
    expect(short.body.data.errors).toEqual([expect.objectContaining({ field: "secret_key" })]);
    expect((await admin.get<{ key_saved: number }>("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 0 });

    const saved = await admin.post<Status>("/admin/saveSecretKey", { secret_key: KEY });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ state: "trial", key_saved: 1 });
    expect((await admin.get("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 1 });
    // Never answered, by any call of the service.
    for (const url of ["/admin/affirmSecretKey", "/admin/checksn"])
      expect((await admin.get(url)).raw).not.toContain(KEY);
  });

  it("installs a serial number signed with the saved key, and refuses every other", async () => {
    const valid = serialUntil("2031-06-30T23:59:59.000Z");
    const noKey = await admin.post<{ errors: unknown[] }>("/admin/sn", { sn: valid });
    expect(noKey.status).toBe(400);
    expect(noKey.body.data.errors).toEqual([
      { field: "sn", keyword: "serialNoKey", message: "Save the secret key first: serial numbers are checked with it" },
    ]);

    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    const refusals: [string, string][] = [
      ["not a serial", "This is not a serial number issued for this system's secret key"],
      [
        serialUntil("2031-06-30T23:59:59.000Z", "another-vendor-key-0000"),
        "This is not a serial number issued for this system's secret key",
      ],
      [`${valid.slice(0, -2)}xx`, "This is not a serial number issued for this system's secret key"],
      [serialUntil("2020-01-31T00:00:00.000Z"), "This serial number expired on 2020-01-31"],
    ];
    for (const [sn, message] of refusals) {
      const refused = await admin.post<{ errors: unknown[] }>("/admin/sn", { sn });
      expect(refused.status, sn).toBe(400);
      expect(refused.body.data.errors, sn).toEqual([expect.objectContaining({ field: "sn", message })]);
    }
    expect((await admin.get<Status>("/admin/checksn")).body.data.state).toBe("trial");

    const installed = await admin.post<Status>("/admin/sn", { sn: ` ${valid}\n` });
    expect(installed.status).toBe(200);
    expect(installed.body.data).toMatchObject({
      state: "licensed",
      licensee: "Mekong Smart Retail",
      valid_until: "2031-06-30T23:59:59.000Z",
      key_saved: 1,
    });
    // In Chinese, the refusal too.
    const zh = await call<{ errors: unknown[] }>(t.app, {
      method: "POST",
      url: "/admin/sn",
      headers: { authorization: `Bearer ${admin.token}`, locale: "zh" },
      payload: { sn: "not a serial" },
    });
    expect(zh.body.data.errors).toEqual([expect.objectContaining({ message: "该序列号不是为本系统密钥签发的" })]);
  });

  it("stops counting a serial number once another key is saved", async () => {
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    await admin.post("/admin/sn", { sn: serialUntil(inDays(100)) });
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "licensed", days_left: 100 });
    await admin.post("/admin/saveSecretKey", { secret_key: "a-different-key-entirely" });
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "trial", licensee: null });
  });

  it("answers 402 on every call but signing in and out, the versions and the licence once it has ended", async () => {
    await fresh(31);
    const goods = await agent.get("/merchant/goods-list");
    expect(goods.status).toBe(402);
    expect(goods.body.message).toBe("The system has expired; contact the administrator");
    const zh = await call(t.app, {
      method: "GET",
      url: "/merchant/order-list",
      headers: { authorization: `Bearer ${agent.token}`, locale: "zh" },
    });
    expect([zh.status, zh.body.message]).toEqual([402, "系统已到期，请联系管理员"]);
    expect((await admin.post("/merchant/goods-add", { name: "x" })).status).toBe(402);
    // A stranger learns nothing of the licence: signed out is 401 first.
    expect((await call(t.app, { method: "GET", url: "/merchant/goods-list" })).status).toBe(401);

    // Still answered: the login page, signing in, the version check, the licence's own calls.
    expect((await call(t.app, { method: "GET", url: "/merchant/setting-no" })).status).toBe(200);
    const login = await call(t.app, {
      method: "POST",
      url: "/merchant/login",
      payload: { account: "agent_a", password: "demo123" },
    });
    expect(login.status).toBe(200);
    expect((await agent.get("/merchant/version-check")).status).toBe(200);
    expect((await agent.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "expired", days_left: -1 });

    // The administrator installs a serial number: the next call is answered, in this process at once.
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    expect((await admin.post("/admin/sn", { sn: serialUntil(inDays(365)) })).status).toBe(200);
    expect((await agent.get("/merchant/goods-list")).status).toBe(200);
    const other = await t.as("agent_b");
    expect((await other.post("/merchant/logout")).status).toBe(200);
  });

  it("refuses the service's writes to a role without the permission, and strangers everything", async () => {
    for (const [method, url, payload] of [
      ["GET", "/admin/affirmSecretKey", undefined],
      ["POST", "/admin/saveSecretKey", { secret_key: KEY }],
      ["POST", "/admin/sn", { sn: "VMS1.x.y" }],
    ] as const) {
      const refused = method === "GET" ? await agent.get(url) : await agent.post(url, payload);
      expect(refused.status, url).toBe(403);
      expect((await call(t.app, { method, url, payload })).status, url).toBe(401);
    }
    expect((await call(t.app, { method: "GET", url: "/admin/checksn" })).status).toBe(401);
    // The licence is the platform's: nothing an agent did changed it.
    expect((await admin.get("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 0 });
  });
});

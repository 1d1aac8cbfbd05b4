// The serial service and the licence it holds: a trial of 30 days from installation; a serial number
// that counts only when the vendor signed it (Ed25519) for this installation's id and the saved secret
// key; 402 on every call but a few once the licence has ended. The vendor here is a key pair made at run
// time, which this file's app trusts (buildApp's licenceKeys); serial numbers are built as the format says
// (VMS2.<payload base64url>.<signature base64url>), apart from the code that checks them.
import { createHash, createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetLicence } from "../../server/domain/licence/index.ts";
import { buildApp } from "../../server/app.ts";
import { call, client, createTestApp, type Client, type TestApp } from "./helper.ts";

let t: TestApp;
let admin: Client;
let agent: Client;
const KEY = "k3y-of-the-vendor-for-tests";
const DAY = 86_400_000;
const vendor = generateKeyPairSync("ed25519");
const stranger = generateKeyPairSync("ed25519");
/** The demo seed's, as README documents them (server/seed/demo.ts). */
const DEMO_KEY = "demo-secret-key-mekong-2026";
const DEMO_SERIAL =
  "VMS2.eyJsaWNlbnNlZSI6Ik1la29uZyBTbWFydCBSZXRhaWwiLCJ2YWxpZF91bnRpbCI6IjIwMzYtMTItMzFUMjM6NTk6NTkuMDAwWiIsImluc3RhbGxhdGlvbiI6ImRlbW8tbWVrb25nLXNtYXJ0LXJldGFpbCIsImtleV9zaGEyNTYiOiJiODAyNTE4YTE5YzNmOTlmY2VjYjIwMmU5MWY5OWVmNzFjMzljYTE4MzlhOTUyNGVhOWIxMTgwNzI2MjUxNDQwIn0.wmQev4AUCfhQ5I2mTfJ0KDevGT4HghoO8snc7CtuTikTBJOv83epY0ndTRPRAyK9DuaAit73oMGaJXxnXDDQAQ";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const INVALID = { field: "sn", keyword: "serialInvalid", message: "This is not a valid serial number" };
const OTHER_KEY = {
  field: "sn",
  keyword: "serialOtherKey",
  message: "This serial number was issued for another secret key than the one saved",
};
const otherInstallation = (id: string) => ({
  field: "sn",
  keyword: "serialOtherInstallation",
  message: `This serial number was issued for another installation: ask the vendor for one for installation ID ${id}`,
});

interface Status {
  state: string;
  licensee: string | null;
  valid_until: string;
  days_left: number;
  key_saved: number;
  installation: string;
}

beforeAll(async () => {
  t = await createTestApp({ licenceKeys: [vendor.publicKey] });
  admin = await t.as("admin");
  agent = await t.as("agent_a");
});
afterAll(() => t?.close());

/** Puts the licence back as a fresh installation has it: no key, no serial, installed `installedDaysAgo`. */
async function fresh(installedDaysAgo = 0) {
  await t.db.query(`delete from sys_state where key in ('licence:secret_key', 'licence:serial')`);
  await t.db.query(`update sys_migration set at = now() - make_interval(days => $1)`, [installedDaysAgo]);
  forgetLicence(t.db);
}
beforeEach(() => fresh());

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64url");
/** A VMS2 serial number for `payload`, as the vendor signs one: Ed25519 over "VMS2.<payload>". */
const signed = (payload: object, privateKey: KeyObject = vendor.privateKey) => {
  const body = b64(JSON.stringify(payload));
  return `VMS2.${body}.${b64(sign(null, Buffer.from(`VMS2.${body}`), privateKey))}`;
};
/** This installation's id, as the serial service answers it. */
const installation = async () => (await admin.get<Status>("/admin/checksn")).body.data.installation;
const serialFor = async (
  valid_until: string,
  { key = KEY, id, privateKey }: { key?: string; id?: string; privateKey?: KeyObject } = {},
) =>
  signed(
    {
      licensee: "Mekong Smart Retail",
      valid_until,
      installation: id ?? (await installation()),
      key_sha256: sha256(key),
    },
    privateKey,
  );
/** The old kind (VMS1): an HMAC-SHA256 under the secret key, which whoever saved the key could make. */
const hmacSerial = (key: string, valid_until: string) => {
  const body = b64(JSON.stringify({ licensee: "Self-licensed", valid_until }));
  return `VMS1.${body}.${b64(createHmac("sha256", key).update(`VMS1.${body}`).digest())}`;
};
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const storedSerial = async () =>
  (await t.db.query<{ value: string }>(`select value from sys_state where key = 'licence:serial'`)).rows[0]?.value;

describe("the licence", () => {
  it("runs a 30-day trial from installation while no serial number is installed, and names the installation", async () => {
    const status = await agent.get<Status>("/admin/checksn");
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ state: "trial", licensee: null, days_left: 30, key_saved: 0 });
    const id = status.body.data.installation;
    expect(id).toMatch(UUID);
    expect((await admin.get("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 0, installation: id });
    await fresh(12);
    expect((await agent.get<Status>("/admin/checksn")).body.data).toMatchObject({
      state: "trial",
      days_left: 18,
      installation: id,
    });
    expect((await agent.get("/merchant/goods-list")).status).toBe(200);
  });

  it("saves the secret key write-only, refusing a short one on its field", async () => {
    const id = await installation();
    const short = await admin.post<{ errors: unknown[] }>("/admin/saveSecretKey", { secret_key: "short" });
    expect(short.status).toBe(400);
    expect(short.body.data.errors).toEqual([expect.objectContaining({ field: "secret_key" })]);
    expect((await admin.get("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 0, installation: id });

    const saved = await admin.post<Status>("/admin/saveSecretKey", { secret_key: KEY });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ state: "trial", key_saved: 1, installation: id });
    expect((await admin.get("/admin/affirmSecretKey")).body.data).toEqual({ key_saved: 1, installation: id });
    // Never answered, by any call of the service.
    for (const url of ["/admin/affirmSecretKey", "/admin/checksn"])
      expect((await admin.get(url)).raw).not.toContain(KEY);
  });

  it("installs a serial number the vendor signed for this installation and key", async () => {
    const id = await installation();
    const valid = await serialFor("2031-06-30T23:59:59.000Z");
    const noKey = await admin.post<{ errors: unknown[] }>("/admin/sn", { sn: valid });
    expect(noKey.status).toBe(400);
    expect(noKey.body.data.errors).toEqual([
      { field: "sn", keyword: "serialNoKey", message: "Save the secret key first: serial numbers are checked with it" },
    ]);

    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    const installed = await admin.post<Status>("/admin/sn", { sn: ` ${valid}\n` });
    expect(installed.status).toBe(200);
    expect(installed.body.data).toEqual({
      state: "licensed",
      licensee: "Mekong Smart Retail",
      valid_until: "2031-06-30T23:59:59.000Z",
      days_left: Math.ceil((Date.parse("2031-06-30T23:59:59.000Z") - Date.now()) / DAY),
      key_saved: 1,
      installation: id,
    });
    expect(await storedSerial()).toBe(valid);
    expect((await agent.get<Status>("/admin/checksn")).body.data).toMatchObject({
      state: "licensed",
      valid_until: "2031-06-30T23:59:59.000Z",
    });
  });

  it("refuses every other serial number on its field, installing nothing", async () => {
    const id = await installation();
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    const valid = await serialFor("2031-06-30T23:59:59.000Z");
    const [, body, signature] = valid.split(".");
    const flipped = Buffer.from(signature, "base64url");
    flipped[0] ^= 1;
    const altered = b64(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body, "base64url").toString()),
        valid_until: "2099-12-31T00:00:00.000Z",
      }),
    );
    const refusals: [string, string, object][] = [
      ["garbage", "not a serial", INVALID],
      ["no signature", `VMS2.${body}`, INVALID],
      ["a wrong signature", `VMS2.${body}.${b64(flipped)}`, INVALID],
      ["an altered payload", `VMS2.${altered}.${signature}`, INVALID],
      ["the VMS1 prefix on a VMS2 serial", `VMS1.${body}.${signature}`, INVALID],
      [
        "signed by another key pair",
        await serialFor("2031-06-30T23:59:59.000Z", { privateKey: stranger.privateKey }),
        INVALID,
      ],
      ["a VMS1 HMAC serial under the saved key", hmacSerial(KEY, "2099-12-31T23:59:59.000Z"), INVALID],
      [
        "signed, without an installation",
        signed({ licensee: "X", valid_until: "2031-06-30T23:59:59.000Z", key_sha256: sha256(KEY) }),
        INVALID,
      ],
      [
        "for another installation",
        await serialFor("2031-06-30T23:59:59.000Z", { id: "3f1c2a4e-0000-4000-8000-000000000000" }),
        otherInstallation(id),
      ],
      ["for another key", await serialFor("2031-06-30T23:59:59.000Z", { key: "another-vendor-key-0000" }), OTHER_KEY],
      [
        "expired",
        await serialFor("2020-01-31T00:00:00.000Z"),
        { field: "sn", keyword: "serialExpired", message: "This serial number expired on 2020-01-31" },
      ],
    ];
    for (const [what, sn, error] of refusals) {
      const refused = await admin.post<{ errors: unknown[] }>("/admin/sn", { sn });
      expect(refused.status, what).toBe(400);
      expect(refused.body.data.errors, what).toEqual([error]);
    }
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({
      state: "trial",
      licensee: null,
      installation: id,
    });
    expect(await storedSerial()).toBeUndefined();

    // In Chinese, the refusals too.
    const zh = async (sn: string) =>
      (
        await call<{ errors: { message: string }[] }>(t.app, {
          method: "POST",
          url: "/admin/sn",
          headers: { authorization: `Bearer ${admin.token}`, locale: "zh" },
          payload: { sn },
        })
      ).body.data.errors.map((e) => e.message);
    expect(await zh("not a serial")).toEqual(["这不是有效的序列号"]);
    expect(await zh(await serialFor(inDays(30), { id: "elsewhere" }))).toEqual([
      `该序列号是为另一个安装签发的：请向供应商索取安装 ID 为 ${id} 的序列号`,
    ]);
    expect(await zh(await serialFor(inDays(30), { key: "another-vendor-key-0000" }))).toEqual([
      "该序列号是为另一个密钥签发的，与已保存的密钥不符",
    ]);
  });

  it("refuses the old bypass: a VMS1 HMAC serial under a key the admin saved leaves an expired system expired", async () => {
    await fresh(31);
    expect((await agent.get("/merchant/goods-list")).status).toBe(402);
    expect((await admin.post("/admin/saveSecretKey", { secret_key: KEY })).status).toBe(200);
    const bypass = await admin.post<{ errors: unknown[] }>("/admin/sn", {
      sn: hmacSerial(KEY, "2099-12-31T23:59:59.000Z"),
    });
    expect(bypass.status).toBe(400);
    expect(bypass.body.data.errors).toEqual([INVALID]);
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({
      state: "expired",
      licensee: null,
      days_left: -1,
    });
    expect((await agent.get("/merchant/goods-list")).status).toBe(402);
  });

  it("no longer honours a VMS1 serial number installed before: the trial, or the expired system, again", async () => {
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    // As the old version left it: the HMAC serial in place, under the saved key.
    await t.db.query(`insert into sys_state (key, value) values ('licence:serial', $1)`, [
      JSON.stringify(hmacSerial(KEY, "2099-12-31T23:59:59.000Z")),
    ]);
    forgetLicence(t.db);
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({
      state: "trial",
      licensee: null,
      days_left: 30,
    });
    await t.db.query(`update sys_migration set at = now() - interval '31 days'`);
    forgetLicence(t.db);
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "expired", licensee: null });
    expect((await agent.get("/merchant/goods-list")).status).toBe(402);
  });

  it("stops counting a serial number once another key is saved", async () => {
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    await admin.post("/admin/sn", { sn: await serialFor(inDays(100)) });
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "licensed", days_left: 100 });
    await admin.post("/admin/saveSecretKey", { secret_key: "a-different-key-entirely" });
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "trial", licensee: null });
    // The first key again: the serial number issued for it counts again.
    await admin.post("/admin/saveSecretKey", { secret_key: KEY });
    expect((await admin.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "licensed", days_left: 100 });
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
    expect((await admin.post("/admin/sn", { sn: await serialFor(inDays(365)) })).status).toBe(200);
    expect((await agent.get("/merchant/goods-list")).status).toBe(200);
    const other = await t.as("agent_b");
    expect((await other.post("/merchant/logout")).status).toBe(200);
  });

  it("refuses the service's writes to a role without the permission, and strangers everything", async () => {
    for (const [method, url, payload] of [
      ["GET", "/admin/affirmSecretKey", undefined],
      ["POST", "/admin/saveSecretKey", { secret_key: KEY }],
      ["POST", "/admin/sn", { sn: "VMS2.x.y" }],
    ] as const) {
      const refused = method === "GET" ? await agent.get(url) : await agent.post(url, payload);
      expect(refused.status, url).toBe(403);
      expect((await call(t.app, { method, url, payload })).status, url).toBe(401);
    }
    expect((await call(t.app, { method: "GET", url: "/admin/checksn" })).status).toBe(401);
    // The licence is the platform's: nothing an agent did changed it.
    expect((await admin.get<{ key_saved: number }>("/admin/affirmSecretKey")).body.data.key_saved).toBe(0);
  });
});

describe("the installation's id", () => {
  it("is made once per database: two instances on one database agree, and keep it", async () => {
    await t.db.query(`delete from sys_state where key = 'licence:installation'`);
    const second = await buildApp({ db: t.db, checkAnswers: true, licenceKeys: [vendor.publicKey] });
    try {
      const login = await call<{ token: string }>(second, {
        method: "POST",
        url: "/merchant/login",
        payload: { account: "admin", password: "admin123" },
      });
      const admin2 = client(second, login.body.data.token);
      // Both ask at once, before either has one.
      const [one, two] = await Promise.all([admin.get<Status>("/admin/checksn"), admin2.get<Status>("/admin/checksn")]);
      const id = one.body.data.installation;
      expect(id).toMatch(UUID);
      expect(two.body.data.installation).toBe(id);
      const { rows } = await t.db.query<{ value: string }>(
        `select value from sys_state where key = 'licence:installation'`,
      );
      expect(rows.map((r) => r.value)).toEqual([id]);

      // A serial number installed through one counts on the other; no call changes the id.
      await admin.post("/admin/saveSecretKey", { secret_key: KEY });
      expect((await admin.post("/admin/sn", { sn: await serialFor(inDays(200), { id }) })).status).toBe(200);
      expect((await admin2.get<Status>("/admin/checksn")).body.data).toMatchObject({
        state: "licensed",
        days_left: 200,
        installation: id,
      });
      await admin2.post("/admin/saveSecretKey", { secret_key: "yet-another-key-0000" });
      expect((await admin2.get<Status>("/admin/affirmSecretKey")).body.data).toEqual({
        key_saved: 1,
        installation: id,
      });
      expect(await installation()).toBe(id);
    } finally {
      await second.close();
    }
  });

  it("keeps the demo's public serial number from licensing any other database", async () => {
    // A production app: the vendor's key, built in; a database of its own, not seeded with the demo.
    const production = await createTestApp();
    try {
      await production.db.query(`update sys_migration set at = now() - interval '31 days'`);
      forgetLicence(production.db);
      const owner = await production.as("admin");
      const id = (await owner.get<Status>("/admin/checksn")).body.data.installation;
      expect(id).toMatch(UUID);
      expect((await owner.post("/admin/saveSecretKey", { secret_key: DEMO_KEY })).status).toBe(200);
      const demo = await owner.post<{ errors: unknown[] }>("/admin/sn", { sn: DEMO_SERIAL });
      expect(demo.status).toBe(400);
      expect(demo.body.data.errors).toEqual([otherInstallation(id)]);
      expect((await owner.get<Status>("/admin/checksn")).body.data).toMatchObject({
        state: "expired",
        licensee: null,
        key_saved: 1,
        installation: id,
      });
      expect((await owner.get("/merchant/goods-list")).status).toBe(402);
      // Written straight into the database, as a copy of the demo's rows would put it: no licence either.
      await production.db.query(`insert into sys_state (key, value) values ('licence:serial', $1)`, [
        JSON.stringify(DEMO_SERIAL),
      ]);
      forgetLicence(production.db);
      expect((await owner.get<Status>("/admin/checksn")).body.data).toMatchObject({ state: "expired", licensee: null });
      expect((await owner.get("/merchant/goods-list")).status).toBe(402);
      await production.db.query(`delete from sys_state where key = 'licence:serial'`);
      // Nor does a serial number signed by a key the vendor's app does not trust (this file's).
      const ours = await owner.post<{ errors: unknown[] }>("/admin/sn", {
        sn: await serialFor(inDays(30), { key: DEMO_KEY, id }),
      });
      expect(ours.body.data.errors).toEqual([INVALID]);
      expect((await owner.get("/merchant/goods-list")).status).toBe(402);
    } finally {
      await production.close();
    }
  });

  it("trusts public keys only", async () => {
    await expect(buildApp({ db: t.db, licenceKeys: [vendor.privateKey] })).rejects.toThrow(
      "licence: serial numbers are checked with Ed25519 public keys only",
    );
    await expect(buildApp({ db: t.db, licenceKeys: [] })).rejects.toThrow(
      "licence: no public key to check serial numbers with",
    );
  });
});

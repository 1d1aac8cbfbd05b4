// Payment settings: certificates and keys uploaded for their own fields only (a key where a certificate
// belongs is refused), read back as subject, fingerprint and expiry (pay-setting-certificates), never as
// the file; secrets never in any answer; the role without the permission refused.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Client, type Reply, type TestApp } from "./helper.ts";
import { errorFields, Fixtures, type Row } from "./fixtures.ts";
import { makeCertificate, type TestCertificate } from "../support/certificates.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let soon: TestCertificate;
let later: TestCertificate;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA] = await Promise.all(["admin", "agent_a"].map((a) => fx.client(a)));
  soon = makeCertificate("Wallet API 1612345678", 20);
  later = makeCertificate("Online wallet app", 400);
}, 120_000);
afterAll(() => t?.close());

interface Uploaded {
  url: string;
  certificate?: Row;
}

async function upload(field: string, data: string | Buffer, account = "admin"): Promise<Reply<Uploaded>> {
  const form = new FormData();
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  form.append("file", new Blob([new Uint8Array(bytes)]), "upload.bin");
  const { token } = await t.as(account);
  return call<Uploaded>(t.app, {
    method: "POST",
    url: `/merchant/upload?entity=payment_setting&field=${field}`,
    headers: { authorization: `Bearer ${token}`, locale: "en" },
    payload: form,
  });
}

/** SHA-256 of the DER bytes, as colon-separated upper-case hex: worked out here, apart from the server. */
const fingerprintOf = (der: Buffer) =>
  createHash("sha256").update(der).digest("hex").toUpperCase().match(/../g)!.join(":");

const SECRETS = {
  mini_appid: "wx8f3a2c9d1e7b6a54",
  mini_secret: "mini-secret-value-0001",
  social_wallet_mch_id: "1612345678",
  social_wallet_v2_secret: "v2-secret-value-0001",
  social_wallet_v3_secret: "v3-secret-value-0001",
  social_wallet_serial_no: "5D1A7F3B9C2E4A6B",
};

describe("payment certificates", () => {
  it("reads an uploaded certificate's subject, fingerprint and expiry, and refuses a key in its place", async () => {
    const cert = await upload("social_wallet_cert_pem", soon.certPem);
    expect(cert.status, cert.raw).toBe(200);
    expect(cert.body.data.url).toMatch(/^private:payment_setting\//);
    expect(cert.body.data.certificate).toMatchObject({
      format: "x509",
      fingerprint: fingerprintOf(soon.certDer),
    });
    expect(cert.body.data.certificate!.subject).toContain("CN=Wallet API 1612345678");

    const wrong = await upload("social_wallet_cert_pem", soon.keyPem);
    expect(wrong.status).toBe(400);
    expect(errorFields(wrong)).toEqual(["file"]);
    expect(wrong.body.message).toBe("Please correct the highlighted fields");
    expect((wrong.body.data as unknown as { errors: { message: string }[] }).errors[0].message).toBe(
      "This file is not a certificate (PEM or DER)",
    );
    const notKey = await upload("social_wallet_cert_key", soon.certPem);
    expect(notKey.status).toBe(400);
    const key = await upload("social_wallet_cert_key", soon.keyPem);
    expect(key.status, key.raw).toBe(200);
    expect(key.body.data.certificate).toMatchObject({ format: "private-key", key: "RSA 2048" });
    const notP12 = await upload("social_wallet_cert_p12", soon.certPem);
    expect(notP12.status).toBe(400);
  });

  it("shows what the saved files hold, with days left, and never a secret or a file's address", async () => {
    const pem = (await upload("social_wallet_cert_pem", soon.certPem)).body.data.url;
    const key = (await upload("social_wallet_cert_key", soon.keyPem)).body.data.url;
    // The bundle is locked with the merchant id, as the wallet issues it.
    const p12 = (await upload("social_wallet_cert_p12", soon.p12(SECRETS.social_wallet_mch_id))).body.data.url;
    const app = (await upload("online_wallet_app_cert", later.certPem)).body.data.url;
    const saved = await admin.post("/merchant/pay-setting-set", {
      ...SECRETS,
      social_wallet_cert_pem: pem,
      social_wallet_cert_key: key,
      social_wallet_cert_p12: p12,
      online_wallet_app_cert: app,
    });
    expect(saved.status, saved.raw).toBe(200);

    const reply = await admin.get<Row[]>("/merchant/pay-setting-certificates");
    expect(reply.status, reply.raw).toBe(200);
    const byField = new Map(reply.body.data.map((c) => [c.field, c]));
    expect(byField.get("social_wallet_cert_pem")).toMatchObject({ set: true, problem: "ok", days_left: 19 });
    expect(byField.get("social_wallet_cert_p12")).toMatchObject({ set: true, problem: "ok", days_left: 19 });
    expect((byField.get("social_wallet_cert_p12")!.info as Row).fingerprint).toBe(fingerprintOf(soon.certDer));
    expect(byField.get("online_wallet_app_cert")).toMatchObject({ problem: "ok", days_left: 399 });
    expect(byField.get("online_wallet_root_cert")).toMatchObject({ set: false, problem: "missing", info: null });

    // Secrets and the files' addresses never come back: not from the settings, not from the certificates.
    for (const raw of [reply.raw, (await admin.get("/merchant/pay-setting-get")).raw]) {
      for (const secret of [
        SECRETS.mini_secret,
        SECRETS.social_wallet_v2_secret,
        SECRETS.social_wallet_v3_secret,
        pem,
        key,
      ])
        expect(raw).not.toContain(secret);
    }
    // Saving again without touching a secret keeps it.
    const current = (await admin.get<Row>("/merchant/pay-setting-get")).body.data;
    expect(current.social_wallet_v2_secret).toBe("******");
    expect(
      (await admin.post("/merchant/pay-setting-set", { ...current, social_wallet_mch_id: "1612345678" })).status,
    ).toBe(200);
    const stored = (await t.db.query<Row>(`select social_wallet_v2_secret from payment_setting`)).rows[0];
    expect(stored.social_wallet_v2_secret).toBe(SECRETS.social_wallet_v2_secret);
  });

  it("is the platform's: an agent may not read or upload certificates", async () => {
    expect((await agentA.get("/merchant/pay-setting-certificates")).status).toBe(403);
    expect((await upload("social_wallet_cert_pem", soon.certPem, "agent_a")).status).toBe(403);
  });
});

/** Saves over the stored version (a secret left out is kept), as the screen does. */
async function save(body: Row, as: Client = admin): Promise<Reply<Row>> {
  const { version } = (await admin.get<Row>("/merchant/pay-setting-get")).body.data;
  return as.post<Row>("/merchant/pay-setting-set", { version, ...body });
}

const messages = (reply: Reply) =>
  Object.fromEntries(
    (reply.body.data as unknown as { errors: { field: string; message: string }[] }).errors.map((e) => [
      e.field,
      e.message,
    ]),
  );

describe("what a provider in use needs", () => {
  const OFF = {
    social_wallet_enabled: 0,
    online_wallet_enabled: 0,
    regional_enabled: 0,
    provider_a_enabled: 0,
    provider_b_enabled: 0,
  };
  // From nothing stored (the tests above saved the social wallet and a certificate).
  beforeAll(async () => {
    await t.db.query(`delete from payment_setting`);
  });

  it("asks nothing of a provider switched off, and each field of one switched on, named in words", async () => {
    // Every provider off: nothing is needed, whatever is empty.
    const off = await save({ ...OFF, provider_a_mch_id: "", provider_a_secret: "", regional_app_id: "" });
    expect(off.status, off.raw).toBe(200);

    // Provider A on with its merchant id only: its secret is missing, and nothing of the others.
    const a = await save({ ...OFF, provider_a_enabled: 1, provider_a_mch_id: "880010023" });
    expect(a.status, a.raw).toBe(400);
    expect(errorFields(a)).toEqual(["provider_a_secret"]);
    expect(messages(a).provider_a_secret).toBe("Provider A secret is required while “Provider A in use” is on");
    // In the caller's language.
    const zh = await (
      await fx.clientIn("admin", "zh")
    ).post("/merchant/pay-setting-set", {
      version: (await admin.get<Row>("/merchant/pay-setting-get")).body.data.version,
      ...OFF,
      provider_a_enabled: 1,
      provider_a_mch_id: "880010023",
    });
    expect(messages(zh).provider_a_secret).toBe("开启“使用服务商 A”时必须填写服务商 A 密钥");

    // With its secret it saves; saved again with the secret kept (masked), it still has it.
    const both = { provider_a_mch_id: "880010023", provider_a_secret: "pa-secret-0001" };
    expect((await save({ ...OFF, ...both, provider_a_enabled: 1 })).status).toBe(200);
    expect((await save({ ...OFF, provider_a_enabled: 1, provider_a_secret: "******" })).status).toBe(200);
    // Emptied while in use: refused; switched off, it may be emptied.
    expect(errorFields(await save({ ...OFF, provider_a_enabled: 1, provider_a_mch_id: "" }))).toEqual([
      "provider_a_mch_id",
    ]);
    expect((await save({ ...OFF, provider_a_mch_id: "", provider_a_secret: "" })).status).toBe(200);
  });

  it("refuses the social wallet in use without its secrets, the mini-program and its three files", async () => {
    const reply = await save({ ...OFF, social_wallet_enabled: 1, social_wallet_mch_id: "1612345678" });
    expect(reply.status, reply.raw).toBe(400);
    expect(errorFields(reply).sort()).toEqual(
      [
        "mini_appid",
        "mini_secret",
        "social_wallet_v2_secret",
        "social_wallet_v3_secret",
        "social_wallet_serial_no",
        "social_wallet_cert_p12",
        "social_wallet_cert_key",
        "social_wallet_cert_pem",
      ].sort(),
    );
    expect(messages(reply).social_wallet_cert_key).toBe(
      "Social wallet private key (key) is required while “Social-app wallet in use” is on",
    );
    // With all of it (the bundle locked with the merchant id), it saves.
    const files = {
      social_wallet_cert_pem: (await upload("social_wallet_cert_pem", soon.certPem)).body.data.url,
      social_wallet_cert_key: (await upload("social_wallet_cert_key", soon.keyPem)).body.data.url,
      social_wallet_cert_p12: (await upload("social_wallet_cert_p12", soon.p12(SECRETS.social_wallet_mch_id))).body.data
        .url,
    };
    const saved = await save({ ...OFF, ...SECRETS, ...files, social_wallet_enabled: 1 });
    expect(saved.status, saved.raw).toBe(200);
    // Switched off, its fields may be emptied.
    expect((await save({ ...OFF, social_wallet_mch_id: "" })).status).toBe(200);
  });

  it("takes the online wallet with its public key or with all three certificates", async () => {
    const base = {
      ...OFF,
      online_wallet_enabled: 1,
      online_wallet_app_id: "2021004123456789",
      online_wallet_private_key: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    };
    const keyOnly = await save(base);
    // Neither set begun: the public key is asked for.
    expect(errorFields(keyOnly)).toEqual(["online_wallet_public_key"]);
    // Certificate mode begun (two of three): the missing certificate is asked for, not the public key.
    const app = (await upload("online_wallet_app_cert", later.certPem)).body.data.url;
    const platform = (await upload("online_wallet_public_cert", later.certPem)).body.data.url;
    const two = await save({ ...base, online_wallet_app_cert: app, online_wallet_public_cert: platform });
    expect(errorFields(two)).toEqual(["online_wallet_root_cert"]);
    const root = (await upload("online_wallet_root_cert", later.certPem)).body.data.url;
    const three = await save({
      ...base,
      online_wallet_app_cert: app,
      online_wallet_public_cert: platform,
      online_wallet_root_cert: root,
    });
    expect(three.status, three.raw).toBe(200);
  });

  it("keeps in a certificate field only a file uploaded here of the field's kind", async () => {
    const key = (await upload("social_wallet_cert_key", soon.keyPem)).body.data.url;
    const cert = (await upload("online_wallet_app_cert", later.certPem)).body.data.url;
    const typed = await save({ ...OFF, online_wallet_root_cert: "certs/online-wallet/rootCert.crt" });
    expect(typed.status).toBe(400);
    expect(messages(typed).online_wallet_root_cert).toBe(
      "Online wallet root certificate does not hold a certificate (PEM or DER): upload it again",
    );
    // A key uploaded for the key field, put where a certificate belongs; a certificate where the key does.
    const swapped = await save({ ...OFF, online_wallet_root_cert: key, social_wallet_cert_key: cert });
    expect(errorFields(swapped).sort()).toEqual(["online_wallet_root_cert", "social_wallet_cert_key"]);
    expect(messages(swapped).social_wallet_cert_key).toBe(
      "Social wallet private key (key) does not hold a private key (PEM or DER): upload it again",
    );
    // A file that is not there (an address made up in the right shape).
    const gone = await save({
      ...OFF,
      online_wallet_root_cert: "private:payment_setting/2026-11/0123456789abcdef.pem",
    });
    expect(errorFields(gone)).toEqual(["online_wallet_root_cert"]);
    expect((await save({ ...OFF, online_wallet_root_cert: cert })).status).toBe(200);
  });

  it("is the platform's to set: an agent is refused and nothing changes", async () => {
    const before = (await admin.get<Row>("/merchant/pay-setting-get")).body.data;
    const reply = await save(
      { ...OFF, provider_b_enabled: 1, provider_b_mch_id: "X1", provider_b_secret: "s" },
      agentA,
    );
    expect(reply.status).toBe(403);
    expect((await admin.get<Row>("/merchant/pay-setting-get")).body.data.version).toBe(before.version);
  });
});

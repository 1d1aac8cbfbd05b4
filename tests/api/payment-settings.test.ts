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

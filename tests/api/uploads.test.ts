// Uploads: POST /merchant/upload checks permission, field, size and content (by magic bytes, not by name);
// public files are served from /uploads/ inert (nosniff, sandbox), private ones never; missing demo
// images answer a placeholder.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type Reply, type TestApp } from "./helper.ts";
import { holdUpload, trickleUpload } from "../support/trickle.ts";
import { Fixtures, type FieldErrors } from "./fixtures.ts";
import { UPLOAD_QUOTA } from "../../server/domain/uploads/index.ts";
import { makeCertificate, type TestCertificate } from "../support/certificates.ts";
import { tinyPng } from "../support/files.ts";

let t: TestApp;
let adminToken: string;
let certificate: TestCertificate;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = (await t.as("admin")).token;
  certificate = makeCertificate("Upload test", 365);
}, 60_000);
afterAll(() => t?.close());

interface Uploaded {
  url: string;
  size: number;
  mime: string;
}

interface Part {
  name?: string;
  data: Buffer | string;
  filename?: string;
  type?: string;
}

/** POST /merchant/upload as multipart/form-data, the way a browser's FormData sends it. */
function upload<T = Uploaded>(
  query: string,
  parts: Part | Part[],
  options: { token?: string | null; lng?: string } = {},
): Promise<Reply<T>> {
  const form = new FormData();
  for (const part of [parts].flat()) {
    const bytes = typeof part.data === "string" ? Buffer.from(part.data) : part.data;
    form.append(
      part.name ?? "file",
      new Blob([new Uint8Array(bytes)], { type: part.type ?? "application/octet-stream" }),
      part.filename ?? "upload.bin",
    );
  }
  const token = options.token === undefined ? adminToken : options.token;
  return call<T>(t.app, {
    method: "POST",
    url: `/merchant/upload?${query}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), locale: options.lng ?? "en" },
    payload: form,
  });
}

const get = (url: string) => t.app.inject({ method: "GET", url });

/** A valid PCM WAV: RIFF header and a few silent samples. */
function tinyWav(): Buffer {
  const samples = Buffer.alloc(800);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + samples.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

const pem = (bytes: number) => {
  const head = "-----BEGIN CERTIFICATE-----\n";
  const tail = "-----END CERTIFICATE-----\n";
  const body = "A".repeat(Math.max(0, bytes - head.length - tail.length));
  return head + body.replace(/(.{64})/g, "$1\n").slice(0, body.length) + tail;
};

const errorsOf = (reply: Reply) => (reply.body.data as FieldErrors).errors;

describe("uploading a file", () => {
  it("stores a real PNG under the entity and month, and serves it inert", async () => {
    const png = tinyPng();
    const reply = await upload("entity=goods&field=pic_url", { data: png, filename: "photo.png", type: "image/png" });
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe(200);
    const month = new Date().toISOString().slice(0, 7);
    expect(reply.body.data.url).toMatch(new RegExp(`^/uploads/goods/${month}/[0-9a-f]{16}\\.png$`));
    expect(reply.body.data).toMatchObject({ size: png.length, mime: "image/png" });

    const served = await get(reply.body.data.url); // no token: uploads are public
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toMatch(/default-src 'none'.*sandbox/);
    expect(served.rawPayload.equals(png)).toBe(true);
  });

  it("takes the type from the content, not from the name: a JPEG called .png is stored as .jpg", async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
      Buffer.from("JFIF\0"),
      Buffer.alloc(64),
    ]);
    const reply = await upload("entity=goods&field=pic_url", { data: jpeg, filename: "photo.png", type: "image/png" });
    expect(reply.status).toBe(200);
    expect(reply.body.data.url).toMatch(/\.jpg$/);
    expect(reply.body.data.mime).toBe("image/jpeg");
  });

  it("accepts images for a list of images (goods.carousel_url)", async () => {
    const reply = await upload("entity=goods&field=carousel_url", { data: tinyPng(), filename: "a.png" });
    expect(reply.status).toBe(200);
    expect(reply.body.data.mime).toBe("image/png");
  });

  it("refuses a text file renamed .png, in the caller's language", async () => {
    const text = { data: "just some text, not a picture\n", filename: "fake.png", type: "image/png" };
    const en = await upload<FieldErrors>("entity=goods&field=pic_url", text);
    const zh = await upload<FieldErrors>("entity=goods&field=pic_url", text, { lng: "zh" });
    expect(en.status).toBe(400);
    expect(en.body.code).toBe(400);
    expect(errorsOf(en)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadFormat" })]);
    expect(errorsOf(en)[0].message).toContain("PNG, JPEG, GIF, WEBP");
    expect(zh.status).toBe(400);
    expect(errorsOf(zh)[0].message).not.toBe(errorsOf(en)[0].message);
    expect(errorsOf(zh)[0].message).toMatch(/[\u4e00-\u9fff]/);
  });

  it("refuses a file larger than the field's maxBytes (certificate, 64 KB)", async () => {
    const reply = await upload("entity=payment_setting&field=social_wallet_cert_pem", {
      data: pem(64 * 1024 + 1),
      filename: "cert.pem",
    });
    expect(reply.status).toBe(400);
    expect(errorsOf(reply)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadSize" })]);
    expect(errorsOf(reply)[0].message).toContain("64 KB");
    // 64 KB exactly passes the size check; this one is then refused for not being a certificate.
    const fits = await upload("entity=payment_setting&field=social_wallet_cert_pem", { data: pem(64 * 1024) });
    expect(fits.status).toBe(400);
    expect(errorsOf(fits)).toEqual([expect.objectContaining({ field: "file", keyword: "certificateKind" })]);
  });

  it("refuses a WAV for an mp3-only field, and takes it where WAV is allowed", async () => {
    const wav = tinyWav();
    const music = await upload("entity=system_setting&field=bg_music", {
      data: wav,
      filename: "x.mp3",
      type: "audio/mpeg",
    });
    expect(music.status).toBe(400);
    expect(errorsOf(music)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadFormat" })]);
    expect(errorsOf(music)[0].message).toContain("MP3");
    const ad = await upload("entity=machine_ad&field=audio", { data: wav, filename: "jingle.wav" });
    expect(ad.status).toBe(200);
    expect(ad.body.data.mime).toBe("audio/wav");
  });

  it("keeps certificates private: a private: reference, never served", async () => {
    const reply = await upload("entity=payment_setting&field=social_wallet_cert_pem", {
      data: certificate.certPem,
      filename: "cert.pem",
    });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.data.url).toMatch(/^private:payment_setting\/\d{4}-\d{2}\/[0-9a-f]{16}\.pem$/);
    expect(reply.body.data.mime).toBe("application/x-pem-file");
    const path = reply.body.data.url.slice("private:".length);
    for (const url of [`/uploads/${path}`, `/uploads/..%2fprivate%2f${path}`, `/uploads/%2e%2e/private/${path}`])
      expect((await get(url)).statusCode).not.toBe(200);

    const p12 = await upload("entity=payment_setting&field=social_wallet_cert_p12", {
      data: certificate.p12("not the merchant id"),
      filename: "a.p12",
    });
    expect(p12.status, p12.raw).toBe(200);
    expect(p12.body.data.url).toMatch(/^private:.*\.p12$/);
    const junk = await upload("entity=payment_setting&field=social_wallet_cert_p12", { data: "not a certificate" });
    expect(junk.status).toBe(400);
  });

  it("needs exactly one file, in the part named file", async () => {
    const none = await upload("entity=goods&field=pic_url", []);
    expect(errorsOf(none)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadMissing" })]);
    const misnamed = await upload("entity=goods&field=pic_url", { name: "picture", data: tinyPng() });
    expect(errorsOf(misnamed)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadMissing" })]);
    const two = await upload("entity=goods&field=pic_url", [{ data: tinyPng() }, { data: tinyPng() }]);
    expect(two.status).toBe(400);
    expect(errorsOf(two)).toEqual([expect.objectContaining({ field: "file", keyword: "uploadMany" })]);
    const json = await call(t.app, {
      method: "POST",
      url: "/merchant/upload?entity=goods&field=pic_url",
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { file: "x" },
    });
    expect(json.status).toBe(400);
  });

  it("takes multipart on this call only: other calls keep their JSON bodies", async () => {
    const form = new FormData();
    form.append("title", "Cola");
    const reply = await call(t.app, {
      method: "POST",
      url: "/merchant/goods-add",
      headers: { authorization: `Bearer ${adminToken}` },
      payload: form,
    });
    expect(reply.status).toBe(415);
  });

  it("answers 400 on an unknown entity or field, or a field that takes no upload", async () => {
    for (const [query, field] of [
      ["entity=goods&field=no_such_field", "field"],
      ["entity=goods&field=title", "field"],
      ["entity=goods", "field"],
      ["entity=no_such_entity&field=pic_url", "entity"],
      ["entity=login&field=account", "entity"],
    ]) {
      const reply = await upload<FieldErrors>(query, { data: tinyPng() });
      expect(reply.status, query).toBe(400);
      expect(errorsOf(reply).map((e) => e.field)).toEqual([field]);
    }
  });
});

describe("who may upload", () => {
  it("401 without a token", async () => {
    expect((await upload("entity=goods&field=pic_url", { data: tinyPng() }, { token: null })).status).toBe(401);
  });

  it("403 without add, update or set on the entity", async () => {
    const viewer = await t.as("agent_a1"); // goods.list and goods.detail only
    expect((await upload("entity=goods&field=pic_url", { data: tinyPng() }, { token: viewer.token })).status).toBe(403);
    const agent = await t.as("agent_a"); // no platform settings
    const music = await upload("entity=system_setting&field=bg_music", { data: tinyWav() }, { token: agent.token });
    expect(music.status).toBe(403);
    expect((await upload("entity=goods&field=pic_url", { data: tinyPng() }, { token: agent.token })).status).toBe(200);
  });
});

describe("serving /uploads/", () => {
  it("never leaves the upload folder", async () => {
    const secret = await upload("entity=payment_setting&field=social_wallet_cert_key", { data: certificate.keyPem });
    const privatePath = secret.body.data.url.slice("private:".length);
    const attempts = [
      "/uploads/../package.json",
      "/uploads/../../../../etc/passwd",
      "/uploads/%2e%2e/%2e%2e/package.json",
      "/uploads/..%2f..%2fpackage.json",
      "/uploads/%2e%2e%2f%2e%2e%2fpackage.json",
      "/uploads/.%2e/.%2e/package.json",
      "/uploads/..\\package.json",
      "/uploads//etc/passwd",
      `/uploads/../private/${privatePath}`,
      `/uploads/demo/../../private/${privatePath}`,
      `/uploads/%2e%2e/private/${privatePath}`,
    ];
    for (const url of attempts) {
      const reply = await get(url);
      expect(reply.statusCode, url).not.toBe(200);
      expect(reply.body, url).not.toMatch(/merchant-console|BEGIN|root:/);
    }
    // inject resolves dot segments itself; a raw request sends them to the server as they are.
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    for (const url of attempts) {
      const reply = await raw(url);
      expect(reply.status, url).not.toBe(200);
      expect(reply.body, url).not.toMatch(/merchant-console|BEGIN|root:/);
    }
  });

  it("draws a placeholder for a missing demo image, the same one each time", async () => {
    const reply = await get("/uploads/demo/goods/cola-330ml.jpg");
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(reply.headers["cache-control"]).toMatch(/max-age=\d+/);
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    expect(reply.body).toMatch(/^<svg /);
    expect(reply.body).toContain("Cola 330ml");
    expect(reply.body).not.toContain("<script");
    expect((await get("/uploads/demo/goods/cola-330ml.jpg")).body).toBe(reply.body);
    expect((await get("/uploads/demo/goods/chips-original.jpg")).body).not.toBe(reply.body);
    const hostile = await get("/uploads/demo/x/%3Cscript%3Ealert(1)%3C%2Fscript%3E.png");
    expect(hostile.body).not.toContain("<script");
  });

  it("answers 404 for other missing files, never the console's page", async () => {
    for (const url of [
      "/uploads/goods/2020-01/0123456789abcdef.png",
      "/uploads/nothing",
      "/uploads/demo/ads/jingle.mp3",
    ]) {
      const reply = await get(url);
      expect(reply.statusCode, url).toBe(404);
      expect(reply.json().code).toBe(404);
    }
  });
});

describe("quota and sweeping", () => {
  it("holds each agent to its daily quota, under concurrency, with a translated 429", async () => {
    const png = tinyPng();
    const saved = { ...UPLOAD_QUOTA };
    const used = async (agentId: number) =>
      (
        await t.db.query<{ bytes: number; files: number }>(
          `select coalesce(sum(size), 0)::int as bytes, count(*)::int as files from sys_upload where quota_id = $1`,
          [agentId],
        )
      ).rows[0];
    // What agent_a has uploaded in the tests above, and room for three more files.
    Object.assign(UPLOAD_QUOTA, {
      bytesPerDay: 1024 * 1024 * 1024,
      filesPerDay: (await used(t.ids.agent_a)).files + 3,
    });
    try {
      const agentA = (await t.as("agent_a")).token;
      const replies = await Promise.all(
        Array.from({ length: 6 }, () =>
          upload("entity=goods&field=pic_url", { data: png, filename: "a.png" }, { token: agentA, lng: "zh" }),
        ),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
      const refused = replies.find((r) => r.status === 429)!;
      expect(refused.body.code).toBe(429);
      expect(refused.body.message).toMatch(/每日上传上限/);
      // Another agent has its own quota; the files count, too.
      const agentB = (await t.as("agent_b")).token;
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: agentB })).status).toBe(200);
      Object.assign(UPLOAD_QUOTA, { bytesPerDay: 1024 * 1024, filesPerDay: (await used(t.ids.agent_b)).files + 1 });
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: agentB })).status).toBe(200);
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: agentB })).status).toBe(429);
    } finally {
      Object.assign(UPLOAD_QUOTA, saved);
    }
  });

  it("counts a branch's uploads together: sub-agents and operators share their level-1 agent's quota", async () => {
    const png = tinyPng();
    const saved = { ...UPLOAD_QUOTA };
    const branchFiles = async (agentId: number) =>
      (
        await t.db.query<{ files: number }>(`select count(*)::int as files from sys_upload where quota_id = $1`, [
          agentId,
        ])
      ).rows[0].files;
    Object.assign(UPLOAD_QUOTA, {
      bytesPerDay: 1024 * 1024 * 1024,
      filesPerDay: (await branchFiles(t.ids.agent_a)) + 2,
    });
    try {
      const [a, a1, operator, b] = await Promise.all(
        ["agent_a", "agent_a1", "operator_a", "agent_b"].map(async (account) => (await t.as(account)).token),
      );
      // The sub-agent may not write goods (a narrow role): it uploads for its own machines' records instead.
      await t.db.query(`update "role" set permissions = permissions || '["goods.add"]'::jsonb where id = $1`, [
        t.ids.roleNarrow,
      ]);
      t.app.sessions.forget();
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: a1 })).status).toBe(200);
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: a })).status).toBe(200);
      // The branch's room is spent: the sub-agent is refused, and agent_b's branch is not touched.
      const refused = await upload("entity=goods&field=pic_url", { data: png }, { token: a1, lng: "th" });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/[\u0e00-\u0e7f]/);
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: operator })).status).toBe(403);
      Object.assign(UPLOAD_QUOTA, { filesPerDay: (await branchFiles(t.ids.agent_b)) + 1 });
      expect((await upload("entity=goods&field=pic_url", { data: png }, { token: b })).status).toBe(200);
      const rows = await t.db.query<{ agent_id: number; quota_id: number }>(
        `select agent_id::int, quota_id::int from sys_upload order by at desc, path limit 3`,
      );
      expect(rows.rows.map((r) => [r.agent_id, r.quota_id])).toEqual(
        expect.arrayContaining([
          [t.ids.agent_a1, t.ids.agent_a],
          [t.ids.agent_a, t.ids.agent_a],
          [t.ids.agent_b, t.ids.agent_b],
        ]),
      );
    } finally {
      Object.assign(UPLOAD_QUOTA, saved);
      await t.db.query(`update "role" set permissions = permissions - 'goods.add' where id = $1`, [t.ids.roleNarrow]);
      t.app.sessions.forget();
    }
  });

  it("refuses an upload before reading its body when the quota has no room for what it announces", async () => {
    const saved = { ...UPLOAD_QUOTA };
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = (await t.as("agent_b")).token;
    try {
      // Spent: the answer comes while the body is still being sent (only its first bytes ever are).
      Object.assign(UPLOAD_QUOTA, { bytesPerDay: 1, filesPerDay: 100 });
      const early = await trickleUpload(base, token, { announce: 5 * 1024 * 1024, send: 1024 });
      expect(early.status).toBe(429);
      expect(early.body.message).toMatch(/daily upload limit/);
      // Room for 100 KB, a 2 MB file: refused, never stored, and no room is left set aside.
      const used = (
        await t.db.query<{ bytes: number }>(
          `select coalesce(sum(size), 0)::int as bytes from sys_upload where quota_id = $1`,
          [t.ids.agent_b],
        )
      ).rows[0].bytes;
      Object.assign(UPLOAD_QUOTA, { bytesPerDay: used + 100 * 1024 });
      const before = await t.db.query(`select count(*)::int as n from sys_upload`);
      const big = Buffer.concat([tinyPng(), Buffer.alloc(2 * 1024 * 1024)]);
      const refused = await upload("entity=goods&field=pic_url", { data: big, filename: "big.png" }, { token });
      expect(refused.status).toBe(429);
      expect((await t.db.query(`select count(*)::int as n from sys_upload`)).rows).toEqual(before.rows);
      // A file that fits takes its real size once stored: what its request announced was only set aside.
      const small = await upload("entity=goods&field=pic_url", { data: tinyPng() }, { token });
      expect(small.status).toBe(200);
      const rows = await t.db.query<{ path: string; size: number }>(
        `select path, size::int from sys_upload where size < 0 or path like 'reserved:%' or path = $1`,
        [small.body.data.url.replace(/^\/uploads\//, "")],
      );
      expect(rows.rows).toEqual([{ path: small.body.data.url.replace(/^\/uploads\//, ""), size: tinyPng().length }]);
    } finally {
      Object.assign(UPLOAD_QUOTA, saved);
    }
  });

  it("sets room aside before reading: of ten 95 MB videos at once against 200 MB, eight are refused unread", async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const token = (await t.as("admin")).token;
    const before = (
      await t.db.query<{ bytes: number }>(
        `select coalesce(sum(size), 0)::int as bytes from sys_upload where quota_id = $1`,
        [t.ids.admin],
      )
    ).rows[0].bytes;
    const saved = { ...UPLOAD_QUOTA };
    Object.assign(UPLOAD_QUOTA, { bytesPerDay: before + 200 * 1024 * 1024, filesPerDay: 1000 });
    // Each sends 4 KB of its 95 MB and no more: only an answer that needs none of the rest can come.
    const held = Array.from({ length: 10 }, () =>
      holdUpload(base, token, {
        path: "/merchant/upload?entity=machine_ad&field=video",
        announce: 95 * 1024 * 1024,
        send: 4096,
        filename: "ad.mp4",
      }),
    );
    const answers: number[] = [];
    // The two that wait for their files are closed unanswered at the end: not a failure.
    for (const request of held)
      void request.answer.then(
        (a) => answers.push(a.status),
        () => undefined,
      );
    const reserved = async () =>
      (await t.db.query(`select path from sys_upload where quota_id = $1 and path like 'reserved:%'`, [t.ids.admin]))
        .rows.length;
    try {
      await expect.poll(() => answers.length, { timeout: 30_000 }).toBe(8);
      expect(answers).toEqual(Array(8).fill(429));
      // The two others have their room set aside and wait for the rest of their files.
      expect(await reserved()).toBe(2);
    } finally {
      for (const request of held) request.close();
      Object.assign(UPLOAD_QUOTA, saved);
    }
    // Abandoned, they give their room back.
    await expect.poll(reserved, { timeout: 30_000 }).toBe(0);
  });

  it("sweeps day-old files no record points to; keeps what a record (in the bin too) or a recent upload has", async () => {
    const fx = new Fixtures(t);
    const stored = async () => (await upload("entity=goods&field=pic_url", { data: tinyPng() })).body.data.url;
    const [kept, orphan, recent, binned] = [await stored(), await stored(), await stored(), await stored()];
    const goods = await fx.createRecord("goods", "admin");
    await fx.setColumn("goods", goods.id, "pic_url", kept);
    const other = await fx.createRecord("goods", "admin");
    await fx.setColumn("goods", other.id, "carousel_url", JSON.stringify([binned]));
    const admin = await t.as("admin");
    expect((await admin.del(`/merchant/goods-delete?id=${other.id}`)).status).toBe(200); // to the recycle bin
    const pathOf = (url: string) => url.replace(/^\/uploads\//, "");
    await t.db.query(`update sys_upload set at = now() - interval '25 hours' where path = any($1::text[])`, [
      [kept, orphan, binned].map(pathOf),
    ]);

    expect(await t.app.sweepUploads()).toEqual([pathOf(orphan)]);
    expect((await get(orphan)).statusCode).toBe(404);
    for (const url of [kept, recent, binned]) expect((await get(url)).statusCode, url).toBe(200);

    // Destroyed for good, the record lets its files go.
    expect((await admin.del(`/merchant/goods-recycle-destroy?id=${other.id}`)).status).toBe(200);
    expect(await t.app.sweepUploads()).toEqual([pathOf(binned)]);
    expect((await get(binned)).statusCode).toBe(404);
  });
});

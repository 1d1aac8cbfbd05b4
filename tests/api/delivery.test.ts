// How bytes leave the server (issue 30; server/http/delivery.ts): the console's files in the encoding the
// browser accepts, from the copies the build wrote (not compressed again per request); fingerprinted files
// cached for good, the page, the worker and the manifests revalidated every time; the API's answers over a
// kilobyte compressed on the fly, the same JSON once decompressed, small ones sent as they are.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { createTestApp, type Client, type TestApp } from "./helper.ts";

let t: TestApp;
let app: FastifyInstance;
let admin: Client;
const dir = mkdtempSync(join(tmpdir(), "delivery-"));
const script = `console.log(${JSON.stringify("a chunk of the console ".repeat(200))});\n`;
const page = `<!doctype html><html><head><title>console</title></head><body>${"<div></div>".repeat(200)}</body></html>`;

beforeAll(async () => {
  // A built console as tools/precompress.ts leaves it: each text file with its .br and .gz beside it. The
  // copies differ from what compressing the file here would give (a marker), so a test can tell them apart.
  mkdirSync(join(dir, "assets"), { recursive: true });
  writeFileSync(join(dir, "assets/screen-Ab12Cd34.js"), script);
  writeFileSync(join(dir, "assets/screen-Ab12Cd34.js.br"), brotliCompressSync(`${script}// br\n`));
  writeFileSync(join(dir, "assets/screen-Ab12Cd34.js.gz"), gzipSync(`${script}// gz\n`));
  writeFileSync(join(dir, "index.html"), page);
  writeFileSync(join(dir, "index.html.br"), brotliCompressSync(page));
  writeFileSync(join(dir, "sw.js"), "self.addEventListener('fetch', () => {});\n");
  writeFileSync(join(dir, "manifest-km.webmanifest"), JSON.stringify({ name: "ផ្ទាំងគ្រប់គ្រងអាជីវករ" }));
  t = await createTestApp();
  app = await buildApp({ db: t.db, consoleDir: dir });
  admin = await t.as("admin");
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers: { ...headers } });

describe("delivery", () => {
  it("sends a fingerprinted file as brotli or gzip from the build's copies, cached for good", async () => {
    const br = await get("/assets/screen-Ab12Cd34.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${script}// br\n`);

    const gz = await get("/assets/screen-Ab12Cd34.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${script}// gz\n`);

    const plain = await get("/assets/screen-Ab12Cd34.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("revalidates the page at any console address, the worker and the manifests", async () => {
    for (const url of ["/", "/login", "/machine/list/show/12"]) {
      const reply = await get(url, { "accept-encoding": "br" });
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers["cache-control"], url).toBe("no-cache");
      expect(reply.headers["content-encoding"], url).toBe("br");
      expect(brotliDecompressSync(reply.rawPayload).toString(), url).toBe(page);
      expect(reply.headers["content-security-policy"], url).toContain("default-src 'self'");
    }
    const worker = await get("/sw.js");
    expect(worker.headers["cache-control"]).toBe("no-cache");
    expect(worker.body).toBe("self.addEventListener('fetch', () => {});\n");
    const manifest = await get("/manifest-km.webmanifest");
    expect(manifest.headers["cache-control"]).toBe("no-cache");
    expect(JSON.parse(manifest.body).name).toBe("ផ្ទាំងគ្រប់គ្រងអាជីវករ");
  });

  it("answers a missing file 404, never the page", async () => {
    const reply = await get("/assets/screen-OldBuild0.js", { "accept-encoding": "br" });
    expect(reply.statusCode).toBe(404);
    expect(reply.headers["content-type"]).toMatch(/json/);
  });

  it("compresses an API answer over a kilobyte, the same JSON once decompressed; a small one as it is", async () => {
    // The admin's menu: every group and screen of the console, several kilobytes.
    const headers = { authorization: `Bearer ${admin.token}`, locale: "en" };
    const url = "/merchant/menu";
    const plain = await app.inject({ method: "GET", url, headers });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await app.inject({ method: "GET", url, headers: { ...headers, "accept-encoding": "br, gzip" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toBe("no-store");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(JSON.parse(plain.body));
    const gz = await app.inject({ method: "GET", url, headers: { ...headers, "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(JSON.parse(plain.body));

    // An error envelope is small: sent as it is.
    const refused = await app.inject({
      method: "GET",
      url: "/merchant/goods-detail?id=999999",
      headers: { ...headers, "accept-encoding": "br" },
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(refused.body).code).toBe(refused.statusCode);
  });
});

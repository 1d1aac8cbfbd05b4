// The licence across two server processes on one PostgreSQL database (README "What a server keeps of its
// own"): each keeps a running licence's end for LICENCE_REFRESH_MS and reads an ended one at every request.
// So a serial number installed through one after the licence ended counts on the other at its next request,
// and a serial number that brings a running licence's end closer, installed through one, ends the other's
// calls within that bound. The vendor is a key pair made here, which both processes trust; serial numbers
// are built as the format says (VMS2.<payload>.<Ed25519 signature>), apart from the code that checks them.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LICENCE_REFRESH_MS } from "../../server/domain/licence/index.ts";
import { createTestApp, send, type TestApp } from "./helper.ts";
import { startServer, stopped } from "./processes.ts";

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const KEY = "k3y-of-the-vendor-for-two-processes";
const vendor = generateKeyPairSync("ed25519");
const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64url");
function serial(installation: string, valid_until: string): string {
  const body = b64(
    JSON.stringify({
      licensee: "Mekong Smart Retail",
      valid_until,
      installation,
      key_sha256: createHash("sha256").update(KEY).digest("hex"),
    }),
  );
  return `VMS2.${body}.${b64(sign(null, Buffer.from(`VMS2.${body}`), vendor.privateKey))}`;
}

describe.skipIf(!ON_POSTGRES)(
  `the licence across two server processes${ON_POSTGRES ? "" : " (skipped: DATABASE_URL is unset; PGlite is one process per database)"}`,
  () => {
    let t: TestApp;
    let servers: { child: ChildProcess; base: string }[] = [];
    beforeAll(async () => {
      t = await createTestApp();
      // The trial ended before either process reads the licence.
      await t.db.query(`update sys_migration set at = now() - interval '40 days'`);
      const { rows } = await t.db.query<{ schema: string }>(`select current_schema() as schema`);
      const env = { TEST_LICENCE_KEY: vendor.publicKey.export({ type: "spki", format: "pem" }).toString() };
      servers = await Promise.all([startServer(rows[0].schema, env), startServer(rows[0].schema, env)]);
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => stopped(s.child)));
      await t?.close();
    });

    it(`a serial number installed through one counts on the other at once; one that ends sooner ends the other's calls within ${LICENCE_REFRESH_MS} ms`, async () => {
      const [a, b] = [servers[0].base, servers[1].base];
      const signIn = async (base: string, account: string, password: string) => {
        const reply = await send<{ token: string }>(base, { path: "/merchant/login", body: { account, password } });
        expect(reply.status, reply.raw).toBe(200);
        return { authorization: `Bearer ${reply.body.data.token}` };
      };
      const admin = await signIn(a, "admin", "admin123");
      const agent = await signIn(b, "agent_a", "demo123");
      const goods = async () =>
        (await send(b, { path: "/merchant/goods-list?page=1&limit=10", headers: agent })).status;
      expect(await goods()).toBe(402);

      const installation = (await send<{ installation: string }>(a, { path: "/admin/checksn", headers: admin })).body
        .data.installation;
      expect((await send(a, { path: "/admin/saveSecretKey", headers: admin, body: { secret_key: KEY } })).status).toBe(
        200,
      );
      const installed = await send(a, {
        path: "/admin/sn",
        headers: admin,
        body: { sn: serial(installation, "2031-06-30T23:59:59.000Z") },
      });
      expect(installed.status, installed.raw).toBe(200);
      // Ended, so read again at this very request: it counts.
      expect(await goods()).toBe(200);

      // A serial number ending in 2 s, through the first process; the second holds the end it read above.
      const ends = Date.now() + 2000;
      const sooner = await send(a, {
        path: "/admin/sn",
        headers: admin,
        body: { sn: serial(installation, new Date(ends).toISOString()) },
      });
      expect(sooner.status, sooner.raw).toBe(200);
      const installedAt = performance.now();
      // Ask until it refuses; the margin is for a busy machine, not for the server.
      let status = await goods();
      while (status === 200 && performance.now() - installedAt < LICENCE_REFRESH_MS + 5000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        status = await goods();
      }
      expect(status).toBe(402);
      expect(Date.now()).toBeGreaterThanOrEqual(ends);
      // The first process, which installed it, refuses too once it has ended.
      expect((await send(a, { path: "/merchant/goods-list?page=1&limit=10", headers: admin })).status).toBe(402);
    }, 90_000);
  },
);

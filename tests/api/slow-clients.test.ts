// Slow clients hold nothing the others need (issue 27): an upload or an import whose body trickles in
// holds no turn at the database and no transaction (on PGlite, the turns; on PostgreSQL, the pool's
// connections), and an export whose client stops reading holds no turn while it waits. Each test keeps
// the slow clients open until another call has answered: if they held what it needs, it never would.
import { connect, type AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { client, createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures } from "./fixtures.ts";
import { holdUpload, stallDownload, type HeldRequest } from "../support/trickle.ts";

let t: TestApp;
/** A second app on the same database with two API calls at work at once on PGlite (8 in production). */
let narrow: Awaited<ReturnType<typeof buildApp>>;
let base: string;
const tokens: Record<string, string> = {};
/** More slow clients than PGlite's turns (2 here) and PostgreSQL's pool (10). */
const SLOW = 12;
/** Where the second app's uploads arrive: a folder of its own (server/http/intake.ts). */
const folder = mkdtempSync(join(tmpdir(), "slow-clients-"));
const INCOMING = join(folder, "incoming");

beforeAll(async () => {
  t = await createTestApp();
  narrow = await buildApp({ db: t.db, atWork: 2, checkAnswers: true, uploadDir: join(folder, "uploads") });
  await narrow.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(narrow.server.address() as AddressInfo).port}`;
  for (const account of ["admin", "agent_a", "agent_b"]) tokens[account] = (await t.as(account)).token;
});
afterAll(async () => {
  await narrow?.close();
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

const as = (account: string): Client => client(narrow, tokens[account]);

/** The files arriving, or left behind, in the second app's incoming folder. */
const leftovers = async () => (await readdir(INCOMING).catch(() => [] as string[])).length;

async function whileHeld(held: HeldRequest[], check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } finally {
    for (const request of held) request.close();
  }
}

describe("slow uploads hold no turn and no transaction", () => {
  it("answers other calls while uploads trickle in, then leaves no file behind", async () => {
    const held = Array.from({ length: SLOW }, () =>
      holdUpload(base, tokens.agent_a, { announce: 1024 * 1024, send: 4096 }),
    );
    await whileHeld(held, async () => {
      // The files have started to arrive (receiveFile writes them as they come).
      await expect.poll(async () => await leftovers(), { timeout: 30_000 }).toBe(SLOW);
      const list = await as("agent_b").get<{ total: number }>("/merchant/goods-list?page=1&limit=10");
      expect(list.status).toBe(200);
      const write = await as("admin").post("/merchant/goods-cate-add", { name: "Slow-upload cate", sort: 1 });
      expect(write.status).toBe(200);
    });
    // Cut off, each upload's partial file is removed.
    await expect.poll(async () => await leftovers(), { timeout: 30_000 }).toBe(0);
  });

  it("answers other calls while device imports trickle in (checks and confirms alike)", async () => {
    const held = Array.from({ length: SLOW }, (_, i) =>
      holdUpload(base, tokens.agent_a, {
        path: i % 2 ? "/merchant/machine-import-confirm" : "/merchant/machine-import-check",
        announce: 2 * 1024 * 1024,
        send: 2048,
        filename: "devices.xlsx",
      }),
    );
    await whileHeld(held, async () => {
      await expect.poll(async () => await leftovers(), { timeout: 30_000 }).toBe(SLOW);
      expect((await as("agent_b").get("/merchant/machine-list?page=1&limit=10")).status).toBe(200);
      expect((await as("admin").get("/merchant/statistics-total")).status).toBe(200);
    });
    await expect.poll(async () => await leftovers(), { timeout: 30_000 }).toBe(0);
  });
});

describe("exports", () => {
  it("hold no turn while their client does not read, one at a time per caller, and give their place back", async () => {
    // An export far larger than what the sockets between here and the client buffer (a few MB on
    // loopback): 3,000 orders of 4 KB each (an order number no form would take; SQL takes it).
    const fx = new Fixtures(t);
    const order = await fx.insertRecord("order", "agent_a");
    const { rows: columns } = await t.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'order' and column_name not in ('id', 'order_no')`,
    );
    const list = columns.map((c) => `"${c.name}"`).join(", ");
    await t.db.query(
      `insert into "order" (order_no, ${list}) select repeat('x', 4000) || g, ${list}
         from "order", generate_series(1, 3000) as g where id = $1`,
      [order.id],
    );
    const stalled = [
      await stallDownload(base, "/merchant/order-export?format=csv", tokens.admin),
      await stallDownload(base, "/merchant/order-export?format=csv", tokens.agent_a),
    ];
    try {
      expect(stalled.map((s) => s.status)).toEqual([200, 200]);
      // Both places taken by exports whose clients read nothing: the other calls still answer.
      expect((await as("agent_b").get("/merchant/goods-list?page=1&limit=10")).status).toBe(200);
      expect((await as("agent_a").get("/merchant/order-list?page=1&limit=10")).status).toBe(200);
      // A caller's second export while its first runs is refused, in its language.
      const second = await client(narrow, tokens.agent_a, "zh").get("/merchant/order-export?format=csv");
      expect(second.status).toBe(429);
      expect(second.body.message).toBe("您的另一个导出仍在进行中，请等它完成后再试");
      // A third caller's export waits for a place (no answer yet), and its client goes away meanwhile.
      const waiting = connect(Number(new URL(base).port), "127.0.0.1");
      await new Promise((connected) => waiting.once("connect", connected));
      waiting.write(
        `GET /merchant/order-export?format=csv HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${tokens.agent_b}\r\n\r\n`,
      );
      expect((await as("agent_a").get("/merchant/goods-list?page=1&limit=1")).status).toBe(200);
      waiting.destroy();
    } finally {
      for (const { socket } of stalled) socket.destroy();
    }
    // Whoever went away, waiting or downloading, gave the place back: agent_b exports again.
    await expect
      .poll(async () => (await as("agent_b").get("/merchant/order-export?format=csv")).status, { timeout: 30_000 })
      .toBe(200);
    // Their clients gone, the places are free again: a new export runs to its end.
    await expect
      .poll(async () => (await as("agent_a").get("/merchant/order-export?format=csv&page=1")).status, {
        timeout: 30_000,
      })
      .toBe(200);
  }, 120_000);
});

// Sign-in throttling over real sockets from several loopback addresses: the limits hold under concurrency,
// they are per account and address and per address (so nobody elsewhere can lock the owner out), the
// lockout grows with each further failure, and guessing the old password when changing it counts too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/passwords.ts";
import { forgetIdleCounters, THROTTLE } from "../../server/domain/session/auth.ts";
import { createTestApp, listen, send, type Reply, type TestApp } from "./helper.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  // The admin's password at a realistic cost (the tests' hashes are cheap), so that concurrent attempts
  // overlap in the hash as they do in production, where one takes about 0.3 s.
  const cheap = process.env.SCRYPT_N;
  process.env.SCRYPT_N = String(2 ** 15);
  const slow = await hashPassword("admin123");
  process.env.SCRYPT_N = cheap;
  await t.db.query(`update "agent" set password = $1 where id = $2`, [slow, t.ids.admin]);
  base = await listen(t.app);
});
afterAll(() => t?.close());

const signIn = (account: string, password: string, from: string) =>
  send<{ token: string }>(base, { path: "/merchant/login", body: { account, password }, localAddress: from });

const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;

/** Moves an account-and-address (or address) counter's last attempt back, as if minutes had passed. */
async function minutesPass(minutes: number, account: string | undefined, address: string) {
  const key = account === undefined ? `i:${address}` : `a:${account}\n${address}`;
  await t.db.query(`update sys_login_throttle set last_at = last_at - make_interval(mins => $2) where key = $1`, [
    key,
    minutes,
  ]);
}

describe("sign-in throttling", () => {
  it(`20 wrong passwords at once from one address: exactly ${THROTTLE.perAccountAddress} are tried, the rest 429`, async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn("admin", `wrong-${i}`, "127.0.0.2")));
    expect(statuses(replies)).toEqual([
      ...Array<number>(THROTTLE.perAccountAddress).fill(401),
      ...Array<number>(20 - THROTTLE.perAccountAddress).fill(429),
    ]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ code: 429, message: expect.stringContaining("15") as string, data: null });
    expect(refused.headers["retry-after"]).toBe(String(15 * 60));
    const { rows } = await t.db.query<{ n: number }>(
      `select count(*)::int as n from sys_login_attempt where account = 'admin' and ip = '127.0.0.2'`,
    );
    expect(rows[0].n).toBe(THROTTLE.perAccountAddress);
  });

  it("the locked address cannot sign in even with the right password; the owner elsewhere still can", async () => {
    expect((await signIn("admin", "admin123", "127.0.0.2")).status).toBe(429);
    const owner = await signIn("admin", "admin123", "127.0.0.3");
    expect(owner.status).toBe(200);
    // The attacker's lock on one account does not touch the address's other accounts.
    expect((await signIn("agent_b", "demo123", "127.0.0.2")).status).toBe(200);
  });

  it(`${THROTTLE.perAddress} failures across accounts lock the address, for every account, and only it`, async () => {
    const n = THROTTLE.perAddress + 10;
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) => signIn(`someone_${i}`, "wrong-pass", "127.0.0.4")),
    );
    expect(count(replies, 401)).toBe(THROTTLE.perAddress);
    expect(count(replies, 429)).toBe(10);
    expect((await signIn("agent_b", "demo123", "127.0.0.4")).status).toBe(429);
    expect((await signIn("agent_b", "demo123", "127.0.0.5")).status).toBe(200);
  });

  it("the lockout grows: 15 minutes, then 30 after one more failure, then 60", async () => {
    const from = "127.0.0.6";
    for (let i = 0; i < THROTTLE.perAccountAddress; i++)
      expect((await signIn("agent_a1", "wrong-pass", from)).status).toBe(401);
    expect((await signIn("agent_a1", "demo123", from)).body.message).toMatch(/\b15\b/);
    await minutesPass(14, "agent_a1", from);
    expect((await signIn("agent_a1", "wrong-pass", from)).status).toBe(429);
    await minutesPass(2, "agent_a1", from); // 16 minutes after the last failure: one more try
    expect((await signIn("agent_a1", "wrong-pass", from)).status).toBe(401);
    const second = await signIn("agent_a1", "demo123", from);
    expect(second.status).toBe(429);
    expect(second.body.message).toMatch(/\b30\b/);
    await minutesPass(16, "agent_a1", from);
    expect((await signIn("agent_a1", "demo123", from)).status).toBe(429);
    await minutesPass(15, "agent_a1", from); // 31 minutes
    expect((await signIn("agent_a1", "wrong-pass", from)).status).toBe(401);
    expect((await signIn("agent_a1", "demo123", from)).body.message).toMatch(/\b60\b/);
    await minutesPass(61, "agent_a1", from);
    expect((await signIn("agent_a1", "demo123", from)).status).toBe(200);
  });

  it("a successful sign-in clears the account's count at that address", async () => {
    const from = "127.0.0.7";
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < THROTTLE.perAccountAddress - 1; i++)
        expect((await signIn("operator_a", "wrong-pass", from)).status).toBe(401);
      expect((await signIn("operator_a", "demo123", from)).status).toBe(200);
    }
  });
});

describe("the counters", () => {
  it("are forgotten after a day idle, so made-up accounts and addresses do not pile up", async () => {
    await t.db.query(
      `insert into sys_login_throttle (key, failures, last_at) values ('i:192.0.2.1', 3, now() - interval '25 hours'),
         ('i:192.0.2.2', 3, now() - interval '23 hours')`,
    );
    expect(await forgetIdleCounters(t.db)).toBeGreaterThanOrEqual(1);
    const { rows } = await t.db.query<{ key: string }>(
      `select key from sys_login_throttle where key like 'i:192.0.2.%' order by key`,
    );
    expect(rows.map((r) => r.key)).toEqual(["i:192.0.2.2"]);
  });
});

describe("changing the password", () => {
  it("guessing the old password is throttled like signing in, on the same counters", async () => {
    const from = "127.0.0.8";
    const session = await signIn("agent_b", "demo123", from);
    const headers = { authorization: `Bearer ${session.body.data.token}` };
    const modify = (old: string) =>
      send(base, {
        path: "/merchant/modify-password",
        headers,
        localAddress: from,
        body: { old_password: old, new_password: "next-pass-1", confirm_password: "next-pass-1" },
      });
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => modify(`guess-${i}`)));
    expect(count(guesses, 400)).toBe(THROTTLE.perAccountAddress);
    expect(count(guesses, 429)).toBe(10 - THROTTLE.perAccountAddress);
    expect((await modify("demo123")).status).toBe(429);
    expect((await signIn("agent_b", "demo123", from)).status).toBe(429);
    // The session itself is not ended by the guesses.
    expect((await send(base, { path: "/merchant/user-info", headers, localAddress: from })).status).toBe(200);
  });
});

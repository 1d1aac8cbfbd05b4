// The sessions a server instance trusts (server/domain/session/auth.ts), over a stand-in database that counts
// the token reads: one read per second of trust, one read for calls that come while it is under way,
// a fresh read after a write, and never past the token's expiry.
import { describe, expect, it } from "vitest";
import { Sessions, SESSION_TRUST_MS } from "../../server/domain/session/auth.ts";
import type { Queryable } from "../../server/db/db.ts";

function standIn(expiresAt = Date.now() + 86_400_000) {
  const db = {
    tokenReads: 0,
    async query<T>(sql: string): Promise<{ rows: T[] }> {
      await new Promise((resolve) => setImmediate(resolve));
      if (sql.includes("sys_token")) {
        db.tokenReads++;
        const row = { principal_kind: "agent", principal_id: 7, expires_at: new Date(expiresAt).toISOString() };
        return { rows: [{ ...row, expired: expiresAt <= Date.now(), revoked: false }] as T[] };
      }
      const agent = {
        id: 7,
        nickname: "A",
        account: "agent_a",
        agent_path: "/1/7/",
        pid: 1,
        permissions: ["goods.list"],
      };
      return { rows: [agent] as T[] };
    },
  };
  return db as Queryable & { tokenReads: number };
}

describe("Sessions", () => {
  it("reads a session once for calls that come together, and again when its second is up", async () => {
    const db = standIn();
    let now = 1_000;
    const sessions = new Sessions(db, { now: () => now });
    const calls = await Promise.all(Array.from({ length: 10 }, () => sessions.authenticate("Bearer abc")));
    expect(db.tokenReads).toBe(1);
    expect(calls.every((c) => c.principal.agentPath === "/1/7/")).toBe(true);
    now += SESSION_TRUST_MS - 1;
    await sessions.authenticate("Bearer abc");
    expect(db.tokenReads).toBe(1);
    now += 1;
    await sessions.authenticate("Bearer abc");
    expect(db.tokenReads).toBe(2);
  });

  it("reads again after a write, and does not keep a read that began before it", async () => {
    const db = standIn();
    const sessions = new Sessions(db, { now: () => 1_000 });
    const before = sessions.authenticate("Bearer abc");
    sessions.forget();
    // Begun after the write: not the read under way, a read of its own.
    const after = sessions.authenticate("Bearer abc");
    await Promise.all([before, after]);
    expect(db.tokenReads).toBe(2);
    await sessions.authenticate("Bearer abc");
    expect(db.tokenReads).toBe(2);
  });

  it("trusts a session no longer than its token lasts", async () => {
    const now = Date.now();
    const db = standIn(now + 200);
    const sessions = new Sessions(db, { now: () => now + 250 });
    await sessions.authenticate("Bearer abc");
    await sessions.authenticate("Bearer abc");
    expect(db.tokenReads).toBe(2);
  });
});

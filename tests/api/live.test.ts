// Live screens (issue 32): what the change stream tells each caller. Its JSON form answers at once what
// changed after a position, chosen as the stream chooses (server/entities/live.ts); the stream itself is
// read over a real connection. Scope: for every entity, records written for three owners are told to each
// principal exactly when that principal can read them through its own calls (the oracle is the ordinary
// detail/list call, not the hub's rules). On PGlite, and on PostgreSQL with DATABASE_URL.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { storedModels, modelOf } from "../../server/model/model.ts";
import type { LiveAnswer, LiveChange } from "../../server/entities/live.ts";
import { LIVE_RECORDS_NAMED } from "../../server/entities/live.ts";
import { PRESENCE_TTL_MS } from "../../server/entities/presence.ts";
import { openPostgres } from "../../server/db/db.ts";
import { buildApp } from "../../server/app.ts";
import { client, createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, has, type Owner } from "./fixtures.ts";

let t: TestApp;
let fx: Fixtures;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}, 60_000);
afterAll(() => t?.close());

const since = async (who: Client, after?: string) => {
  const reply = await who.get<LiveAnswer>(`/merchant/live-events${after ? `?after=${after}` : ""}`);
  expect(reply.status, reply.raw).toBe(200);
  return reply.body.data;
};

/** The hub hears a write once its notification arrives (on PostgreSQL through another connection). */
const heard = async (who: Client, after: string, done: (a: LiveAnswer) => boolean) => {
  let answer: LiveAnswer | undefined;
  await expect.poll(async () => done((answer = await since(who, after))), { timeout: 10_000, interval: 50 }).toBe(true);
  return answer!;
};

const idsOf = (changes: LiveChange[], entity: string) =>
  changes.filter((c) => c.entity === entity).flatMap((c) => c.records.map((r) => r.id));

describe("the JSON form", () => {
  it("answers the position now, with nothing changed, when asked without one", async () => {
    const answer = await since(await fx.client("agent_a"));
    expect(answer).toEqual({ cursor: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{32}$/), reset: false, changes: [] });
  });

  it("refuses a malformed position on its field, and answers reset for one it did not give", async () => {
    const agent = await fx.clientIn("agent_a", "th");
    const bad = await agent.get("/merchant/live-events?after=x%27--");
    expect(bad.status).toBe(400);
    expect((bad.body.data as { errors: { field: string; message: string }[] }).errors).toEqual([
      { field: "after", keyword: "pattern", message: expect.stringMatching(/[\u0E00-\u0E7F]/) },
    ]);
    const foreign = await since(agent, `00000000-${"0".repeat(32)}`);
    expect(foreign).toMatchObject({ reset: true, changes: [] });
    // A position of this instance's form that it did not give (the seal does not open).
    const { cursor } = await since(agent);
    const forged = `${cursor.slice(0, 9)}${"f".repeat(32)}`;
    expect(await since(agent, forged)).toMatchObject({ reset: true });
  });

  it("refuses a caller who is not signed in", async () => {
    const reply = await t.app.inject({ method: "GET", url: "/merchant/live-events" });
    expect(reply.statusCode).toBe(401);
  });
});

/** Whether the principal reads the record through its detail call, or else its list. */
async function reads(entity: string, principal: Owner | "operator_a", id: number): Promise<boolean> {
  if (await fx.read(entity, principal, id)) return true;
  if (!has(modelOf(entity), "list")) return false;
  try {
    return (await fx.listed(entity, principal, [id])).includes(id);
  } catch {
    return false; // not allowed to list
  }
}

describe("scope: a principal hears of exactly the records its own calls read", () => {
  const principals = ["admin", "agent_a", "agent_a1", "agent_b", "operator_a"] as const;
  const owners: Owner[] = ["agent_a", "agent_a1", "agent_b"];

  it("for every entity, written for three owners, added and then changed", async () => {
    const clients = Object.fromEntries(
      await Promise.all(principals.map(async (p) => [p, await fx.client(p)] as const)),
    ) as Record<(typeof principals)[number], Client>;
    const start = (await since(clients.admin)).cursor;
    const written = new Map<string, number[]>();
    for (const model of storedModels()) {
      if (model.singleton || (!has(model, "detail") && !has(model, "list"))) continue;
      // A user's own rows (saved views) are not streamed to anyone (server/entities/live.ts): not written here.
      if (model.owned) continue;
      const ids: number[] = [];
      for (const owner of model.scoped ? owners : (["agent_a"] as Owner[])) {
        const row = await fx.insertRecord(model.name, owner);
        ids.push(Number(row.id));
      }
      await t.db.query(`update "${model.table}" set version = version + 1 where id = any($1)`, [ids]);
      written.set(model.name, ids);
    }
    expect(written.size).toBeGreaterThan(30);
    const last = [...written].at(-1)!;
    // Every write heard: the admin is told of the last entity's last record.
    await heard(clients.admin, start, (a) => idsOf(a.changes, last[0]).includes(last[1].at(-1)!));
    const problems: string[] = [];
    for (const principal of principals) {
      const { changes, reset } = await since(clients[principal], start);
      expect(reset).toBe(false);
      for (const [entity, ids] of written) {
        const readable = new Set<number>();
        for (const id of ids) if (await reads(entity, principal, id)) readable.add(id);
        const told = {
          added: idsOf(
            changes.filter((c) => c.kind === "added"),
            entity,
          ),
          changed: idsOf(
            changes.filter((c) => c.kind === "changed"),
            entity,
          ),
        };
        for (const kind of ["added", "changed"] as const) {
          const heardIds = told[kind].filter((id) => ids.includes(id)).sort();
          const expected = [...readable].sort();
          if (JSON.stringify(heardIds) !== JSON.stringify(expected))
            problems.push(`${principal} ${entity} ${kind}: told ${heardIds.join(",")}, reads ${expected.join(",")}`);
        }
        // The versions told are the ones the records reached.
        for (const change of changes.filter((c) => c.entity === entity && c.kind === "changed"))
          for (const r of change.records) if (ids.includes(r.id)) expect(r.version).toBe(2);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it("keeps a caller's position where it was while only others' records change (it would count their writes)", async () => {
    const [agentA, agentB] = await Promise.all(["agent_a", "agent_b"].map((a) => fx.client(a)));
    const start = (await since(agentA)).cursor;
    const other = await fx.insertRecord("shop", "agent_b");
    await heard(agentB, (await since(agentB)).cursor, () => true);
    await heard(await fx.client("admin"), start, (a) => idsOf(a.changes, "shop").includes(Number(other.id)));
    expect(await since(agentA, start)).toEqual({ cursor: start, reset: false, changes: [] });
    const mine = await fx.insertRecord("shop", "agent_a");
    const moved = await heard(agentA, start, (a) => a.changes.length > 0);
    expect(moved.cursor).not.toBe(start);
    expect(idsOf(moved.changes, "shop")).toEqual([mine.id]);
    expect(await since(agentA, moved.cursor)).toEqual({ cursor: moved.cursor, reset: false, changes: [] });
  });

  it("tells no one but the platform admin of a large write, and an agent only of its own subtree's", async () => {
    const [admin, agentA, agentB, operator] = await Promise.all(
      ["admin", "agent_a", "agent_b", "operator_a"].map((a) => fx.client(a)),
    );
    const goods = await fx.insertRecord("goods", "agent_b");
    const starts = await Promise.all([admin, agentA, agentB, operator].map(async (c) => (await since(c)).cursor));
    await fx.copies("goods", goods.id, LIVE_RECORDS_NAMED + 1);
    const more = (a: LiveAnswer) => a.changes.some((c) => c.entity === "goods" && c.kind === "added" && c.more);
    const [adminSaw] = [await heard(admin, starts[0], more)];
    expect(adminSaw.changes.find((c) => c.entity === "goods")).toEqual({
      entity: "goods",
      kind: "added",
      records: [],
      more: true,
    });
    expect(more(await since(agentB, starts[2]))).toBe(true);
    expect((await since(agentA, starts[1])).changes.filter((c) => c.entity === "goods")).toEqual([]);
    expect((await since(operator, starts[3])).changes.filter((c) => c.entity === "goods")).toEqual([]);
  });

  it("tells a destroyed record to those who read it, by its id, and not to an operator", async () => {
    const [agentA, agentB, operator] = await Promise.all(["agent_a", "agent_b", "operator_a"].map((a) => fx.client(a)));
    const shop = await fx.insertRecord("shop", "agent_a");
    const starts = await Promise.all([agentA, agentB, operator].map(async (c) => (await since(c)).cursor));
    await t.db.query(`delete from "shop" where id = $1`, [shop.id]);
    const removed = await heard(agentA, starts[0], (a) => a.changes.some((c) => c.kind === "removed"));
    expect(removed.changes).toContainEqual({
      entity: "shop",
      kind: "removed",
      records: [{ id: shop.id, version: 1 }],
      more: false,
    });
    expect((await since(agentB, starts[1])).changes).toEqual([]);
    expect((await since(operator, starts[2])).changes.filter((c) => c.kind === "removed")).toEqual([]);
  });

  it("tells the owner before a move of the record that left its subtree", async () => {
    const [agentA, agentB] = await Promise.all(["agent_a", "agent_b"].map((a) => fx.client(a)));
    const before = (await since(agentA)).cursor;
    const shop = await fx.insertRecord("shop", "agent_a");
    // On PostgreSQL the insert is heard through another connection, maybe after a position taken at once.
    await heard(agentA, before, (a) => idsOf(a.changes, "shop").includes(Number(shop.id)));
    const starts = await Promise.all([agentA, agentB].map(async (c) => (await since(c)).cursor));
    const b = await fx.owner("agent_b");
    await t.db.query(`update "shop" set agent_id = $1, agent_path = $2, version = version + 1 where id = $3`, [
      b.id,
      b.path,
      shop.id,
    ]);
    const expected = { entity: "shop", kind: "changed", records: [{ id: shop.id, version: 2 }], more: false };
    expect((await heard(agentA, starts[0], (a) => a.changes.length > 0)).changes).toEqual([expected]);
    expect((await heard(agentB, starts[1], (a) => a.changes.length > 0)).changes).toEqual([expected]);
  });
});

/** Streams a test opened: closed after it, whatever it ended with (an open one would hold the server's close). */
const opened: (() => void)[] = [];
afterEach(() => {
  for (const close of opened.splice(0)) close();
});

/** Reads a stream's messages as they come: event, id and data of each. */
async function openStream(token: string, lastId?: string) {
  const abort = new AbortController();
  const response = await fetch(`${base}/merchant/live-events`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: "text/event-stream",
      ...(lastId ? { "last-event-id": lastId } : {}),
    },
    signal: abort.signal,
  });
  const messages: { event: string; id: string; data: unknown }[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += value;
        let end: number;
        while ((end = text.indexOf("\n\n")) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const field = (name: string) =>
            block
              .split("\n")
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const data = field("data");
          if (data !== undefined) messages.push({ event: field("event")!, id: field("id")!, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  const close = () => abort.abort();
  opened.push(close);
  return { response, messages, close };
}

const changesIn = (messages: { event: string; data: unknown }[]) =>
  messages.filter((m) => m.event === "change").flatMap((m) => (m.data as { changes: LiveChange[] }).changes);

describe("the stream", () => {
  it("sends an agent its subtree's writes as they commit, a burst as one message, and catches up after a drop", async () => {
    const agentA = await fx.client("agent_a");
    const stream = await openStream(agentA.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("content-encoding")).toBeNull();
    // The first message: the position, nothing changed.
    await expect.poll(() => stream.messages.length, { timeout: 10_000 }).toBe(1);
    expect(stream.messages[0]).toEqual({
      event: "change",
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{32}$/),
      data: { changes: [] },
    });

    const mine = await fx.insertRecord("shop", "agent_a");
    await fx.insertRecord("shop", "agent_b");
    await expect.poll(() => idsOf(changesIn(stream.messages), "shop"), { timeout: 10_000 }).toEqual([mine.id]);

    // Twenty writes committed together: one message naming each once.
    const before = stream.messages.length;
    const ids: number[] = [];
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) {
        const { rows } = await tx.query<{ id: number }>(
          `update "shop" set version = version + 1 where id = $1 returning id`,
          [mine.id],
        );
        ids.push(rows[0].id);
      }
      const { id, path } = await fx.owner("agent_a");
      const { rows } = await tx.query<{ id: number }>(
        `insert into "shop" (name, agent_id, agent_path) select 'Burst ' || g, $1, $2 from generate_series(1, 5) g returning id`,
        [id, path],
      );
      ids.push(...rows.map((r) => Number(r.id)));
    });
    await expect.poll(() => stream.messages.length, { timeout: 10_000 }).toBe(before + 1);
    const burst = (stream.messages.at(-1)!.data as { changes: LiveChange[] }).changes;
    expect(burst).toEqual([
      { entity: "shop", kind: "changed", records: [{ id: mine.id, version: 21 }], more: false },
      {
        entity: "shop",
        kind: "added",
        records: ids.slice(20).map((id) => ({ id, version: 1 })),
        more: false,
      },
    ]);

    // A drop: what changes meanwhile comes first when the stream is opened again from its last position.
    const lastId = stream.messages.at(-1)!.id;
    stream.close();
    const meanwhile = await fx.insertRecord("shop", "agent_a");
    await heard(agentA, lastId, (a) => idsOf(a.changes, "shop").includes(Number(meanwhile.id)));
    const again = await openStream(agentA.token, lastId);
    await expect.poll(() => again.messages.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(again.messages[0].event).toBe("change");
    expect(idsOf((again.messages[0].data as { changes: LiveChange[] }).changes, "shop")).toEqual([meanwhile.id]);
    again.close();

    // From a position it did not give: reset, read everything again.
    const stranger = await openStream(agentA.token, `00000000-${"0".repeat(32)}`);
    await expect.poll(() => stranger.messages.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(stranger.messages[0]).toMatchObject({ event: "reset", data: { reset: true } });
    stranger.close();
  });

  it("holds no turn at the database while open: other calls are answered beside many streams", async () => {
    const agentA = await fx.client("agent_a");
    const logged = vi.spyOn(console, "error");
    const streams = await Promise.all(Array.from({ length: 12 }, () => openStream(agentA.token)));
    try {
      // Each has its first message (the position); more may follow, of other tests' writes.
      await expect.poll(() => streams.every((s) => s.messages[0]?.event === "change"), { timeout: 10_000 }).toBe(true);
      expect(t.app.live.open).toBe(12);
      const list = await agentA.get<{ list: unknown[] }>(`/merchant/${modelOf("shop").x.calls.list}`);
      expect(list.status).toBe(200);
    } finally {
      for (const s of streams) s.close();
    }
    await expect.poll(() => t.app.live.open, { timeout: 10_000 }).toBe(0);
    // A stream's end is not taken for an answer that differs from its schema (the route checks answers here).
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.mock.calls.flat().filter((m) => String(m).includes("live-events"))).toEqual([]);
    logged.mockRestore();
  });
});

describe.runIf(process.env.DATABASE_URL)("two instances on one PostgreSQL", () => {
  it("tells a write made through one instance to the callers of the other, in scope", async () => {
    const { rows } = await t.db.query<{ schema: string }>("select current_schema() as schema");
    const db = await openPostgres(process.env.DATABASE_URL!, rows[0].schema);
    const other = await buildApp({ db });
    try {
      await other.ready();
      const [agentA, agentB] = await Promise.all(["agent_a", "agent_b"].map((a) => fx.client(a)));
      const onOther = (who: Client) => client(other, who.token);
      const [startA, startB] = await Promise.all([since(onOther(agentA)), since(onOther(agentB))]);
      // Written through the first instance's call.
      const added = await agentA.post<{ id: number }>(`/merchant/${modelOf("shop").x.calls.add}`, {
        name: "Through the first instance",
        phone: "0123456789",
        province: "P",
        city: "C",
        district: "D",
        address: "A",
        longitude: 104.9,
        latitude: 11.5,
      });
      expect(added.status, added.raw).toBe(200);
      const told = await heard(onOther(agentA), startA.cursor, (a) => a.changes.length > 0);
      expect(told.changes).toEqual([
        { entity: "shop", kind: "added", records: [{ id: added.body.data.id, version: 1 }], more: false },
      ]);
      expect((await since(onOther(agentB), startB.cursor)).changes).toEqual([]);
      // Who edits what is known to both: claimed through the first, the other answers it too.
      const shopId = added.body.data.id;
      const claimed = await agentA.post("/merchant/live-presence", { entity: "shop", id: shopId, editing: true });
      expect(claimed.status, claimed.raw).toBe(200);
      const agentAKey = `agent:${(await fx.owner("agent_a")).id}`;
      await expect
        .poll(() => other.presence.editors("shop", shopId), { timeout: 10_000 })
        .toEqual([{ key: agentAKey, name: "agent a" }]);
      const admin = onOther(await fx.client("admin"));
      const adminClaim = await admin.post<{ editors: unknown[] }>("/merchant/live-presence", {
        entity: "shop",
        id: shopId,
        editing: true,
      });
      expect(adminClaim.body.data.editors).toEqual([{ key: agentAKey, name: "agent a" }]);
    } finally {
      await other.close();
      await db.close();
    }
  });
});

describe("who is editing (presence)", () => {
  type Editors = { key: string; name: string }[];
  const claim = (who: Client, body: Record<string, unknown>) =>
    who.post<{ editors: Editors }>("/merchant/live-presence", body);
  const presenceIn = (messages: { event: string; data: unknown }[], id: number) =>
    messages
      .filter((m) => m.event === "presence" && (m.data as { id: number }).id === id)
      .map((m) => (m.data as { editors: Editors }).editors.map((e) => e.name));

  it("tells every caller who may read the record who edits it, itself left out, until they stop or lapse", async () => {
    const names = ["admin", "agent_a", "agent_a1", "agent_b", "operator_a"] as const;
    const clients = Object.fromEntries(
      await Promise.all(names.map(async (p) => [p, await fx.client(p)] as const)),
    ) as Record<(typeof names)[number], Client>;
    const machine = await fx.insertRecord("machine", "agent_a1");
    const id = Number(machine.id);
    const streams = Object.fromEntries(
      await Promise.all(names.map(async (p) => [p, await openStream(clients[p].token)] as const)),
    ) as Record<(typeof names)[number], Awaited<ReturnType<typeof openStream>>>;
    await expect.poll(() => names.every((p) => streams[p].messages.length > 0), { timeout: 10_000 }).toBe(true);
    // Who reads the device, by their own calls (the oracle): admin, agent_a and agent_a1 (its owner, which
    // may only list devices); the operator when the device is one of its own.
    const readers = new Set<string>();
    for (const p of names) if (await reads("machine", p, id)) readers.add(p);
    expect([...readers].filter((p) => p !== "operator_a").sort()).toEqual(["admin", "agent_a", "agent_a1"]);
    const keyOf = async (account: "admin" | "agent_a") => `agent:${(await fx.owner(account)).id}`;
    // The names are the accounts' nicknames (tests/api/helper.ts).
    const agentA = { key: await keyOf("agent_a"), name: "agent a" };
    const admin = { key: await keyOf("admin"), name: "admin" };

    // agent_a opens the device's form: no one else edits it; its readers hear that agent_a does.
    const first = await claim(clients.agent_a, { entity: "machine", id, editing: true });
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data).toEqual({ editors: [] });
    for (const p of ["admin", "agent_a1"] as const)
      await expect.poll(() => presenceIn(streams[p].messages, id), { timeout: 10_000 }).toEqual([["agent a"]]);
    // Its own stream is told that no one else does.
    await expect.poll(() => presenceIn(streams.agent_a.messages, id), { timeout: 10_000 }).toEqual([[]]);

    // The admin opens it too: told that agent_a edits it; agent_a hears of the admin, agent_a1 of both.
    const second = await claim(clients.admin, { entity: "machine", id, editing: true });
    expect(second.body.data).toEqual({ editors: [agentA] });
    await expect.poll(() => presenceIn(streams.agent_a.messages, id), { timeout: 10_000 }).toEqual([[], ["admin"]]);
    await expect
      .poll(() => presenceIn(streams.agent_a1.messages, id), { timeout: 10_000 })
      .toEqual([["agent a"], ["agent a", "admin"]]);
    // A renewal answers the same and tells nothing new.
    expect((await claim(clients.agent_a, { entity: "machine", id, editing: true })).body.data).toEqual({
      editors: [admin],
    });

    // agent_a closes its form: the admin is alone.
    await claim(clients.agent_a, { entity: "machine", id, editing: false });
    await expect
      .poll(() => presenceIn(streams.agent_a1.messages, id), { timeout: 10_000 })
      .toEqual([["agent a"], ["agent a", "admin"], ["admin"]]);
    // The admin's claim lapses when it is not renewed (its tab closed without a word).
    t.app.presence.sweep(Date.now() + PRESENCE_TTL_MS + 1);
    await expect
      .poll(() => presenceIn(streams.agent_a1.messages, id), { timeout: 10_000 })
      .toEqual([["agent a"], ["agent a", "admin"], ["admin"], []]);
    expect(t.app.presence.editors("machine", id)).toEqual([]);
    // The admin's stream, itself left out: agent_a; agent_a (the admin joined); none (agent_a left); none.
    expect(presenceIn(streams.admin.messages, id)).toEqual([["agent a"], ["agent a"], [], []]);

    // agent_b, who cannot read the device, heard nothing of it; the operator only if it reads it.
    expect(presenceIn(streams.agent_b.messages, id)).toEqual([]);
    expect(presenceIn(streams.operator_a.messages, id).length > 0).toBe(readers.has("operator_a"));
    // Presence moves no stream's position: its messages carry none.
    const ids = streams.agent_a1.messages.filter((m) => m.event === "presence").map((m) => m.id);
    expect(ids).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("refuses another agent's record, a record it may not change, and bad input", async () => {
    const [agentB, operator, agentA] = await Promise.all(["agent_b", "operator_a", "agent_a"].map((a) => fx.client(a)));
    const machine = await fx.insertRecord("machine", "agent_a");
    const id = Number(machine.id);
    // Another agent's record is not found, as its detail is not.
    expect((await claim(agentB, { entity: "machine", id, editing: true })).status).toBe(404);
    // The operator reads devices but may change none; nor may agent_a1, whose role only lists them.
    expect((await claim(operator, { entity: "machine", id, editing: true })).status).toBe(403);
    const own = await fx.insertRecord("machine", "agent_a1");
    const a1 = await fx.client("agent_a1");
    expect((await claim(a1, { entity: "machine", id: Number(own.id), editing: true })).status).toBe(403);
    // An unknown entity, one without an edit, a record that is not there.
    expect((await claim(agentA, { entity: "nothing", id, editing: true })).status).toBe(404);
    expect((await claim(agentA, { entity: "order", id: 1, editing: true })).status).toBe(404);
    expect((await claim(agentA, { entity: "machine", id: 99_999_999, editing: true })).status).toBe(404);
    // Malformed: each on its field.
    const bad = await claim(agentA, { entity: "Machine; drop", id: -1 });
    expect(bad.status).toBe(400);
    expect((bad.body.data as unknown as { errors: { field: string }[] }).errors.map((e) => e.field).sort()).toEqual([
      "editing",
      "entity",
      "id",
    ]);
    expect(t.app.presence.editors("machine", id)).toEqual([]);
    const none = await t.app.inject({
      method: "POST",
      url: "/merchant/live-presence",
      payload: { entity: "machine", id, editing: true },
    });
    expect(none.statusCode).toBe(401);
  });
});

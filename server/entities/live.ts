// Live screens (issue 32): what changed, told to each open console as it happens, only of the records its
// caller may read. The database tells this hub of every committed write (server/db/changes.ts; on
// PostgreSQL through LISTEN, so the writes of every instance; on PGlite in process). The hub numbers what
// it hears, keeps the last of it for a client that reconnects, and every COALESCE_MS sends each open
// stream the changes its caller may see, merged (a burst of writes is one message per stream, a large one
// names no rows). A change names an entity, ids and versions only: the console reads what it shows through
// the ordinary scoped calls.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Db } from "../db/db.ts";
import { changeChannel, type ChangeNotice } from "../db/changes.ts";
import { readRelation } from "../db/live.ts";
import { q } from "../core/sql.ts";
import { models, type EntityModel } from "../model/model.ts";
import { permissionOfCall } from "../../src/schema/permissions.ts";
import type { CallKind } from "../../src/schema/types.ts";
import { can, scopeOf, type Principal } from "./context.ts";
import { scopeClause } from "./repository.ts";

/** How long the hub gathers what it hears before telling the streams: a burst is one message each. */
export const COALESCE_MS = 150;
/** Records a change names one by one; past it, it says that many changed ("more"), and which entity. */
export const LIVE_RECORDS_NAMED = 50;
/** What the hub keeps for streams that reconnect: this many notices at most, for at most this long. */
export const HELD_NOTICES = 10_000;
export const HELD_MS = 5 * 60_000;

export type ChangeKind = "added" | "changed" | "removed";

/** One entity's changes of one kind, as a stream tells them. */
export interface LiveChange {
  entity: string;
  kind: ChangeKind;
  /** The records, by id and the version they reached; empty when `more`. */
  records: { id: number; version: number }[];
  /** More records changed than are named (a large write): every list of the entity reads again. */
  more: boolean;
}

/** What a client is told: the position to come back from, whether it must read everything again, the changes. */
export interface LiveAnswer {
  cursor: string;
  /** Some changes since the client's position are no longer known (too old, another instance, a lost connection). */
  reset: boolean;
  changes: LiveChange[];
}

const KINDS: Record<ChangeNotice["op"], ChangeKind> = { I: "added", U: "changed", D: "removed" };
/** The calls that read records (a picker's options, `all`, name titles only, and do not count). */
const READ_CALLS: CallKind[] = ["list", "detail", "get"];

interface Heard {
  seq: number;
  at: number;
  model: EntityModel;
  notice: ChangeNotice;
}

/** An open stream: whose it is, and how a message reaches it. */
export interface LiveStream {
  principal: Principal;
  send(message: string): void;
}

/** A principal's key: the streams of one account share the work of choosing what they may see. */
const keyOf = (p: Principal) => `${p.kind}:${p.id}:${[...p.permissions].length}:${p.agentPath}`;

/** Whether the principal may read the entity: any of its reading calls is allowed. */
function mayRead(principal: Principal, model: EntityModel): boolean {
  // A user's own rows (saved views) are not streamed: the stream tells rows apart by agent path, not owner.
  if (model.owned) return false;
  return READ_CALLS.some(
    (kind) => model.x.calls[kind] !== undefined && can(principal, permissionOfCall(model.name, kind)),
  );
}

/** An SSE message (text/event-stream). */
export const sseMessage = (event: string, id: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A position as clients hold it: this instance's mark and the number sealed (see LiveHub.seal). */
export const CURSOR = /^[0-9a-f]{8}-[0-9a-f]{32}$/;

export class LiveHub {
  /** Positions of another instance, or of this one before a restart, are not this hub's. */
  private readonly instance = randomBytes(4).toString("hex");
  /**
   * A position's number is sealed (AES of one block, this instance's key): how far apart two positions are
   * would count the writes in between, those of records the client may not see included.
   */
  private readonly key = randomBytes(16);
  private seq = 0;
  /** What was heard, oldest first, for reconnecting streams. */
  private held: Heard[] = [];
  /** Positions at or before this one are not complete (the listening connection was lost meanwhile). */
  private gapAt = 0;
  private pending: Heard[] = [];
  private readonly streams = new Set<LiveStream>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly byTable = new Map([...models.values()].map((m) => [m.table, m]));
  private stop: (() => Promise<void>) | undefined;

  constructor(private readonly db: Db) {}

  /** The database schema this hub's instance serves (its channels are named by it), once started. */
  schema = "";

  async start(): Promise<void> {
    const { rows } = await this.db.query<{ schema: string }>("select current_schema() as schema");
    this.schema = rows[0].schema;
    this.stop = await this.db.listen(
      changeChannel(this.schema),
      (payload) => this.heard(payload),
      () => this.lost(),
    );
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.stop?.();
    await this.flushing;
    this.streams.clear();
  }

  get cursor(): string {
    return this.seal(this.seq);
  }

  private seal(seq: number): string {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(BigInt(seq), 8);
    const cipher = createCipheriv("aes-128-ecb", this.key, null).setAutoPadding(false);
    return `${this.instance}-${Buffer.concat([cipher.update(block), cipher.final()]).toString("hex")}`;
  }

  /** The number of a position this instance gave, else undefined. */
  private unseal(cursor: string): number | undefined {
    if (!CURSOR.test(cursor) || !cursor.startsWith(`${this.instance}-`)) return undefined;
    const decipher = createDecipheriv("aes-128-ecb", this.key, null).setAutoPadding(false);
    const block = Buffer.concat([decipher.update(Buffer.from(cursor.slice(9), "hex")), decipher.final()]);
    if (block.readBigUInt64BE(0) !== 0n) return undefined;
    return Number(block.readBigUInt64BE(8));
  }

  /** Streams open now. */
  get open(): number {
    return this.streams.size;
  }

  private heard(payload: string): void {
    let notice: ChangeNotice;
    try {
      notice = JSON.parse(payload) as ChangeNotice;
    } catch {
      return;
    }
    const model = this.byTable.get(notice.t);
    if (!model) return;
    const heard: Heard = { seq: ++this.seq, at: Date.now(), model, notice };
    this.held.push(heard);
    const old = Date.now() - HELD_MS;
    let drop = Math.max(0, this.held.length - HELD_NOTICES);
    while (drop < this.held.length && this.held[drop].at < old) drop++;
    if (drop) this.held = this.held.slice(drop);
    if (!this.streams.size) return;
    this.pending.push(heard);
    this.timer ??= setTimeout(() => void this.flush(), COALESCE_MS);
  }

  /** The listening connection was lost and is back: what happened meanwhile is unknown; every stream reads again. */
  private lost(): void {
    this.gapAt = ++this.seq;
    this.held = [];
    this.pending = [];
    for (const stream of this.streams) stream.send(sseMessage("reset", this.cursor, { reset: true }));
  }

  /** A stream opened: it hears what changes from now on. Returns how to close it. */
  add(stream: LiveStream): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /**
   * What changed after a client's position, of what its caller may read; `reset` when that is not known in
   * full (a position this hub did not give, older than what it holds, or before a lost connection).
   */
  async since(principal: Principal, after: string | undefined): Promise<LiveAnswer> {
    if (after === undefined) return { cursor: this.cursor, reset: false, changes: [] };
    const seq = this.unseal(after);
    const first = this.held[0]?.seq ?? this.seq + 1;
    if (seq === undefined || seq > this.seq || seq < this.gapAt || seq < first - 1)
      return { cursor: this.cursor, reset: true, changes: [] };
    const { changes, last } = await this.visible(
      principal,
      this.held.filter((h) => h.seq > seq),
    );
    // The position moves on to the last change told: one that moved past changes the caller may not see
    // would tell that there were some.
    return { cursor: this.seal(Math.max(seq, last)), reset: false, changes };
  }

  /** Tells every stream what it may see of what was heard since the last time; one flush at a time. */
  private async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length || !this.streams.size) return;
    const cursor = this.cursor;
    const run = async () => {
      for (const streams of this.byPrincipal().values()) {
        let changes: LiveChange[];
        try {
          ({ changes } = await this.visible(streams[0].principal, batch));
        } catch {
          changes = [];
          for (const stream of streams) stream.send(sseMessage("reset", cursor, { reset: true }));
        }
        if (!changes.length) continue;
        const message = sseMessage("change", cursor, { changes });
        for (const stream of streams) stream.send(message);
      }
    };
    this.flushing = run().finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /**
   * Sends each stream whose caller may read the record (the rule a change of it is told by) the message made
   * for that caller; nothing to a caller the message leaves undefined.
   */
  async sendAbout(
    model: EntityModel,
    record: { id: number; version: number; path: string | null },
    message: (principal: Principal) => string | undefined,
  ): Promise<void> {
    const notice: ChangeNotice = { t: model.table, op: "U", r: [[record.id, record.version, record.path, null]] };
    const heard: Heard[] = [{ seq: 0, at: Date.now(), model, notice }];
    for (const streams of this.byPrincipal().values()) {
      const { changes } = await this.visible(streams[0].principal, heard);
      if (!changes.length) continue;
      const text = message(streams[0].principal);
      if (text !== undefined) for (const stream of streams) stream.send(text);
    }
  }

  /** The open streams, those of one principal together (they share the work of choosing what they see). */
  private byPrincipal(): Map<string, LiveStream[]> {
    const groups = new Map<string, LiveStream[]>();
    for (const stream of this.streams) {
      const key = keyOf(stream.principal);
      groups.set(key, [...(groups.get(key) ?? []), stream]);
    }
    return groups;
  }

  /**
   * Of what was heard, what the principal may read, merged by entity and kind. The platform admin reads
   * everything; an agent the rows its subtree owns (now or before an update moved them); an operator or an
   * outlet manager the rows its lists would show, asked of the database with the lists' own scope (a row
   * destroyed is gone, so never told to them, nor a large write, which names no rows).
   */
  async visible(principal: Principal, heard: Heard[]): Promise<{ changes: LiveChange[]; last: number }> {
    const scope = scopeOf(principal);
    const narrow = scope.operatorId !== undefined || scope.managerId !== undefined;
    const merged = new Map<string, LiveChange & { seen: Map<number, number> }>();
    const asked = new Map<EntityModel, Set<number>>();
    /** The last of what was heard that the principal is told. */
    let last = 0;
    const take = (seq: number, model: EntityModel, kind: ChangeKind, rows: [number, number][] | "more") => {
      last = Math.max(last, seq);
      const key = `${model.name}:${kind}`;
      let change = merged.get(key);
      if (!change) merged.set(key, (change = { entity: model.name, kind, records: [], more: false, seen: new Map() }));
      if (rows === "more") change.more = true;
      else for (const [id, version] of rows) change.seen.set(id, Math.max(version, change.seen.get(id) ?? 0));
    };
    const mine = (path: string | null) => scope.path === undefined || path === null || path.startsWith(scope.path);
    const pendingRows: { seq: number; model: EntityModel; kind: ChangeKind; rows: [number, number][] }[] = [];
    for (const { seq, model, notice } of heard) {
      if (!mayRead(principal, model)) continue;
      const kind = KINDS[notice.op];
      if (notice.r) {
        const rows = notice.r
          .filter(([, , path, before]) => !model.scoped || mine(path) || (before !== null && mine(before)))
          .map(([id, version]): [number, number] => [id, version]);
        if (!rows.length) continue;
        if (!narrow) take(seq, model, kind, rows);
        else if (kind !== "removed") {
          pendingRows.push({ seq, model, kind, rows });
          const ids = asked.get(model) ?? new Set();
          for (const [id] of rows) ids.add(id);
          asked.set(model, ids);
        }
      } else if (!narrow && (!model.scoped || (notice.p ?? []).some((path) => mine(path)) || principal.isAdmin)) {
        take(seq, model, kind, "more");
      }
    }
    // An operator's or outlet manager's rows: those its lists would show now, one statement per entity.
    for (const [model, ids] of asked) {
      const clause = scopeClause(model, scope, 1);
      const { rows } = await this.db.query<{ id: number }>(
        `select id from ${q(readRelation(model))} where id = any($1)${clause.sql}`,
        [[...ids], ...clause.values],
      );
      const seen = new Set(rows.map((r) => Number(r.id)));
      for (const { seq, model: m, kind, rows: changed } of pendingRows)
        if (m === model) {
          const shown = changed.filter(([id]) => seen.has(id));
          if (shown.length) take(seq, model, kind, shown);
        }
    }
    const changes = [...merged.values()].map(({ seen, ...change }) => {
      const more = change.more || seen.size > LIVE_RECORDS_NAMED;
      return {
        ...change,
        more,
        records: more ? [] : [...seen].map(([id, version]) => ({ id, version })).sort((a, b) => a.id - b.id),
      };
    });
    return { changes, last };
  }
}

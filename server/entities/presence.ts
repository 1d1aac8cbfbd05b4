// Who is editing what (issue 32: "also being edited by agent_a1"). A console with an edit form open says so
// every PRESENCE_BEAT_MS (the live-presence call), and that it stopped when the form closes; a claim not
// renewed lapses after PRESENCE_TTL_MS (a tab closed, a phone gone). Claims travel through the database
// (NOTIFY on the schema's presence channel), so every instance on one PostgreSQL knows them and tells its
// own streams; on PGlite in process, the same way. Each stream is told the editors of the records its
// caller may read, the same rule as a change (LiveHub.sendAbout), itself left out.
import type { Db, Queryable } from "../db/db.ts";
import { models, type EntityModel } from "../model/model.ts";
import type { Principal } from "./context.ts";
import type { LiveHub } from "./live.ts";

/** How often an open edit form renews its claim. */
export const PRESENCE_BEAT_MS = 30_000;
/** A claim not renewed within this lapses: two beats missed and a little more. */
export const PRESENCE_TTL_MS = 70_000;
/** How often lapsed claims are swept. */
const SWEEP_MS = 5_000;

/** One editor of a record, as streams and answers name it. */
export interface Editor {
  /** The account: its kind and id (a console leaves its own out). */
  key: string;
  name: string;
}

/** What a claim carries through NOTIFY (short names: a notice is at most 8,000 bytes). */
interface Claim {
  /** entity */
  e: string;
  /** record id, version, owner's agent path (null: the table has no owners) */
  i: number;
  v: number;
  p: string | null;
  /** the editor */
  k: string;
  n: string;
  /** editing (false: stopped) */
  x: boolean;
}

interface Held {
  model: EntityModel;
  id: number;
  version: number;
  path: string | null;
  editors: Map<string, Editor & { until: number }>;
}

export const presenceChannel = (schema: string) => `sys_presence_${schema}`;
export const editorKey = (principal: Principal) => `${principal.kind}:${principal.id}`;

/** What a stream hears of a record's editors. */
export interface PresenceNews {
  entity: string;
  id: number;
  editors: Editor[];
}

export class PresenceBoard {
  private readonly held = new Map<string, Held>();
  private channel = "";
  private stop: (() => Promise<void>) | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  /** One telling at a time, in the order the changes were heard: a stream never ends on an older list. */
  private telling: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
  ) {}

  /** Listens on the schema's presence channel: the hub's schema, so the hub is started first. */
  async start(): Promise<void> {
    if (!this.hub.schema) throw new Error("the live hub is started before the presence board");
    this.channel = presenceChannel(this.hub.schema);
    // A lost connection forgets nothing here: claims lapse by themselves, and are renewed within a beat.
    this.stop = await this.db.listen(
      this.channel,
      (payload) => this.heard(payload),
      () => undefined,
    );
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.stop?.();
    await this.telling;
    this.held.clear();
  }

  /**
   * The principal's claim on a record it may read (the caller checked), told to every instance once the
   * call's transaction commits (`sql`: the call's own); answers the record's other editors as this instance
   * knows them.
   */
  async claim(
    sql: Queryable,
    principal: Principal,
    model: EntityModel,
    record: { id: number; version: number; path: string | null },
    editing: boolean,
  ): Promise<Editor[]> {
    const claim: Claim = {
      e: model.name,
      i: record.id,
      v: record.version,
      p: record.path,
      k: editorKey(principal),
      n: principal.name || principal.account,
      x: editing,
    };
    await sql.query("select pg_notify($1, $2)", [this.channel, JSON.stringify(claim)]);
    return this.editors(model.name, record.id).filter((e) => e.key !== claim.k);
  }

  /** The record's editors now. */
  editors(entity: string, id: number): Editor[] {
    const held = this.held.get(`${entity}:${id}`);
    return held ? [...held.editors.values()].map(({ key, name }) => ({ key, name })) : [];
  }

  private heard(payload: string): void {
    let claim: Claim;
    try {
      claim = JSON.parse(payload) as Claim;
    } catch {
      return;
    }
    const model = models.get(claim.e);
    if (!model || !Number.isInteger(claim.i)) return;
    const key = `${claim.e}:${claim.i}`;
    let held = this.held.get(key);
    if (!held) {
      if (!claim.x) return;
      held = { model, id: claim.i, version: claim.v, path: claim.p, editors: new Map() };
      this.held.set(key, held);
    }
    held.version = Math.max(held.version, claim.v);
    held.path = claim.p;
    const was = held.editors.has(claim.k);
    if (claim.x) held.editors.set(claim.k, { key: claim.k, name: claim.n, until: Date.now() + PRESENCE_TTL_MS });
    else held.editors.delete(claim.k);
    // A renewal changes nothing the streams know.
    if (was !== claim.x) void this.tell(held);
  }

  /** Lets the claims lapsed by `now` go, and tells it (public for the tests, which cannot wait 70 s). */
  sweep(now = Date.now()): void {
    for (const held of this.held.values()) {
      let lapsed = false;
      for (const [key, editor] of held.editors)
        if (editor.until < now) {
          held.editors.delete(key);
          lapsed = true;
        }
      if (lapsed) void this.tell(held);
    }
  }

  /** Tells the streams that may read the record who edits it now (each without its own account). */
  private tell(held: Held): Promise<void> {
    const entity = held.model.name;
    if (!held.editors.size) this.held.delete(`${entity}:${held.id}`);
    const editors = this.editors(entity, held.id);
    const record = { id: held.id, version: held.version, path: held.path };
    this.telling = this.telling.then(() =>
      this.hub.sendAbout(held.model, record, (principal) => {
        const news: PresenceNews = {
          entity,
          id: held.id,
          editors: editors.filter((e) => e.key !== editorKey(principal)),
        };
        // No position: a stream's position is where its changes stand, which this does not move.
        return `event: presence\ndata: ${JSON.stringify(news)}\n\n`;
      }),
    );
    // A telling that failed (the database, for an operator's scope) does not stop the next ones.
    this.telling = this.telling.catch(() => undefined);
    return this.telling;
  }
}

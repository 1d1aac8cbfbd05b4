// What domain modules (server/domain/<area>/) add to the generic engine, gathered by the composition
// root and handed to the engine through the context: no module-global registry.
//   hooks    before/after an entity's writes (an agent's place in the tree, unique accounts, ...)
//   effects  a transition's side effect, run in the transaction of its state change (money moving
//            when a withdrawal is refused, a review crediting income, ...)
import type { Queryable } from "../db/db.ts";
import type { Transition } from "../../src/schema/types.ts";
import type { Ctx, TxCtx } from "./context.ts";
import type { Row } from "./repository.ts";

export interface EntityHooks {
  /**
   * Before an insert (existing undefined) or an update (values = the changed columns): may set derived
   * or owner columns on `values`, or throw an HttpError.
   */
  beforeWrite?(ctx: Ctx, tx: Queryable, values: Row, existing?: Row): Promise<void>;
  /** After an insert: may complete the row (e.g. a path that needs the new id) and return it. */
  afterInsert?(ctx: Ctx, tx: Queryable, row: Row): Promise<Row>;
  /**
   * After an insert or an update, in its transaction, with the stored row as written (and the row before,
   * for an update): writes that follow from the record (copies synced to subordinates).
   */
  afterWrite?(ctx: Ctx, tx: Queryable, row: Row, existing?: Row): Promise<void>;
  /**
   * Fills the entity's derived fields (x-store: derived) on rows about to be shown: a page of a list, one
   * detail. One call per page, so it can work them out in one query.
   */
  derive?(ctx: Ctx, rows: Row[]): Promise<void>;
  /** Before ids are moved to the recycle bin, restored or destroyed: may refuse with an HttpError. */
  beforeBulk?(ctx: TxCtx, op: "delete" | "recover" | "destroy", ids: number[]): Promise<void>;
}

export interface TransitionChange {
  transition: Transition;
  /** The record before and after the state change (stored rows). */
  before: Row;
  after: Row;
  /** The transition's validated input. */
  input: Row;
}

/** Runs inside the state change's transaction; may write, and may return the record to answer instead. */
export type TransitionEffect = (ctx: TxCtx, change: TransitionChange) => Promise<Row | void>;

export interface Domain {
  hooks: ReadonlyMap<string, EntityHooks>;
  /** By "<entity>.<action>". */
  effects: ReadonlyMap<string, TransitionEffect>;
}

export const EMPTY_DOMAIN: Domain = { hooks: new Map(), effects: new Map() };

// Entity hooks: the seam where domain modules (server/domain) add what plain CRUD cannot know, such
// as an agent's place in the tree. The engine calls them inside the write's transaction.
import type { Queryable } from "../db/db.ts";
import type { Ctx } from "./context.ts";
import type { Row } from "./repository.ts";

export interface EntityHooks {
  /**
   * Before an insert (existing undefined) or an update (values = the changed columns): may set derived
   * or owner columns on `values`, or throw an HttpError.
   */
  beforeWrite?(ctx: Ctx, tx: Queryable, values: Row, existing?: Row): Promise<void>;
  /** After an insert: may complete the row (e.g. a path that needs the new id) and return it. */
  afterInsert?(ctx: Ctx, tx: Queryable, row: Row): Promise<Row>;
}

const registry = new Map<string, EntityHooks>();

export function registerHooks(entity: string, hooks: EntityHooks): void {
  registry.set(entity, { ...registry.get(entity), ...hooks });
}

export const hooksOf = (entity: string): EntityHooks => registry.get(entity) ?? {};

// Who is calling, in which language, and in which transaction: every engine operation and every
// operation handler takes this context. Inside a transaction, ctx.tx is the one to query: the engine's
// own operations join it, so a handler can compose several of them atomically.
import type { Db, Queryable } from "../db/db.ts";
import type { Language } from "../../src/schema/constants.ts";
import { forbidden } from "../core/errors.ts";
import type { Domain } from "./domain.ts";
import type { Scope } from "./repository.ts";
import type { EntityModel } from "../model/model.ts";
import type { Turn } from "../core/gate.ts";

export interface Principal {
  /** An agent (the platform admin too), an operator, or an outlet manager (x-entity.signIn of its schema). */
  kind: "agent" | "operator" | "manager";
  /** agent id, operator id, or outlet manager (shop_manager) id */
  id: number;
  /** The agent whose data this principal sees (an operator's or an outlet manager's owning agent). */
  agentId: number;
  agentPath: string;
  /** The platform admin (the root of the agent tree): every permission, no scope. */
  isAdmin: boolean;
  permissions: Set<string>;
  name: string;
  account: string;
}

export interface Ctx {
  db: Db;
  /** The open transaction, when the call runs in one. */
  tx?: Queryable;
  principal: Principal;
  lng: Language;
  tokenHash?: string;
  /** What the domain modules add to the engine: entity hooks and transition side effects. */
  domain: Domain;
  /**
   * The call's turn at the database (on PGlite a few calls are at work at once, server/core/gate.ts):
   * held while its handler runs; a call that waits on its client meanwhile (an export being read, a
   * file arriving) leaves it and takes it again around its statements.
   */
  turn?: Turn;
}

/** A context inside a transaction: what transition effects, bulk hooks and transactional calls' handlers get. */
export type TxCtx = Ctx & { tx: Queryable };

/** Where to read and write: the open transaction, or the database. */
export const sqlOf = (ctx: Ctx): Queryable => ctx.tx ?? ctx.db;

/** Runs fn in the context's transaction, opening one when there is none: all of it commits or none. */
export function inTransaction<T>(ctx: Ctx, fn: (ctx: TxCtx) => Promise<T>): Promise<T> {
  if (ctx.tx) return fn(ctx as TxCtx);
  return ctx.db.transaction((tx) => fn({ ...ctx, tx }));
}

export function scopeOf(principal: Principal): Scope {
  if (principal.isAdmin) return {};
  if (principal.kind === "operator") return { path: principal.agentPath, operatorId: principal.id };
  if (principal.kind === "manager") return { path: principal.agentPath, managerId: principal.id };
  return { path: principal.agentPath };
}

/**
 * The caller's scope on an entity: on an owned one (x-entity.scope "owner") its rows by their owner, for a
 * write only the caller's own; on any other exactly scopeOf.
 */
export function scopeOn(model: EntityModel, principal: Principal, write = false): Scope {
  const scope = scopeOf(principal);
  if (!model.owned) return scope;
  return { ...scope, owner: { kind: principal.kind, id: principal.id, agentPath: principal.agentPath, write } };
}

export function can(principal: Principal, permission: string): boolean {
  return principal.isAdmin || principal.permissions.has(permission);
}

export function requirePermission(ctx: Ctx, permission: string): void {
  if (!can(ctx.principal, permission)) throw forbidden();
}

// Who is calling and in which language: every engine operation takes this context.
import type { Db } from "../db/db.ts";
import type { Language } from "../http/i18n.ts";
import { forbidden } from "../http/errors.ts";
import type { Scope } from "./repository.ts";

export interface Principal {
  kind: "agent" | "operator";
  /** agent id, or operator id */
  id: number;
  /** The agent whose data this principal sees (an operator's owning agent). */
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
  principal: Principal;
  lng: Language;
  tokenHash?: string;
}

export function scopeOf(principal: Principal): Scope {
  if (principal.isAdmin) return {};
  if (principal.kind === "operator") return { path: principal.agentPath, operatorId: principal.id };
  return { path: principal.agentPath };
}

export function can(principal: Principal, permission: string): boolean {
  return principal.isAdmin || principal.permissions.has(permission);
}

export function requirePermission(ctx: Ctx, permission: string): void {
  if (!can(ctx.principal, permission)) throw forbidden();
}

// An agent's place in the role hierarchy, one rule for every agent made, whoever makes it (the platform
// admin included): its role is the next level down from its superior's role (a role's level is the depth
// of the agents it is for: the platform admin's role is the top, level 1 in the demo seed, its direct
// agents' role level 2, theirs level 3), the role grants nothing its superior's role does not (its
// permissions a subset of the superior's role's), and its parent role is its superior's role (set by the
// server). The role pickers read the same rule (manage-role-down with force_down=1 offers the roles of the
// next level down from the caller's own, the superior the add wizard starts with). Role, parent role and
// superior never change after creation (x-immutable), so the rule is checked when an agent is made and
// when a role that agents hold is edited (roleEditRefusal); agents made before it are left as they are.
import { operationSchemas } from "../../../src/generated/operations.ts";
import { entityNameKey, actionKey, operationKeyBase } from "../../../src/schema/keys.ts";
import { nextLevelDown, operationOfPermission } from "../../../src/schema/permissions.ts";
import type { Queryable } from "../../db/db.ts";
import type { Ctx } from "../../entities/context.ts";
import type { Row } from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { HttpError, type FieldError } from "../../core/errors.ts";
import { hasTranslation, translate, type Language } from "../../core/i18n.ts";
import { neighbourRoles, placeOf, rolePermissions, roleLevel } from "./agent-store.ts";

export { placeOf, type Place } from "./agent-store.ts";

/** Whether a role of `level` ranks strictly below a role of `above` (a greater level number is lower). */
export const ranksBelow = (level: number, above: number): boolean => level > above;

export { nextLevelDown };

/** The permissions of `granted` that `allowed` lacks, in the order granted. */
export const beyond = (granted: readonly string[], allowed: readonly string[]): string[] => {
  const has = new Set(allowed);
  return granted.filter((p) => !has.has(p));
};

/** The label of a permission key an operation declares (the role editor shows it); entity keys have theirs. */
export const OPERATION_PERMISSION_LABELS = new Map(
  Object.values(operationSchemas)
    .filter((o) => o["x-operation"].permission.includes("."))
    .map((o) => [o["x-operation"].permission, `${operationKeyBase(o)}name`]),
);

/** A permission as the role editor names it: the entity's name and the operation's, in the language. */
export function permissionLabel(lng: Language, key: string): string {
  const entity = key.slice(0, key.indexOf("."));
  const op = operationOfPermission(key);
  // As the role editor's list reads it: the common operation names first.
  const opKey = hasTranslation(`permissions:${op}`)
    ? `permissions:${op}`
    : (OPERATION_PERMISSION_LABELS.get(key) ?? actionKey(entity, op));
  return `${translate(lng, entityNameKey(entity))}: ${translate(lng, opKey)}`;
}

/**
 * The errors of a new agent's role and parent role against its superior's place (the engine has checked
 * that the superior and the roles exist and are the caller's to use). The parent role is set to the
 * superior's role; one sent that differs is refused. `skip` names fields already refused, which get no
 * second error.
 */
export async function placeErrors(ctx: Ctx, tx: Queryable, values: Row, skip: string[] = []): Promise<FieldError[]> {
  const superior = await placeOf(tx, values.pid as number);
  const level = await roleLevel(tx, values.role_id);
  const params = { role: superior?.role ?? "—", level: superior?.level == null ? "—" : Number(superior.level) + 1 };
  const errors: FieldError[] = [];
  if (!skip.includes("role_id")) {
    if (level === undefined || superior?.level == null || !nextLevelDown(Number(level), Number(superior.level)))
      errors.push(fieldMessage("role_id", "roleNotBelowSuperior", ctx.lng, params));
    else {
      const granted = (await rolePermissions(tx, values.role_id))?.permissions ?? [];
      const extra = beyond(granted, superior.permissions ?? [])[0];
      if (extra)
        errors.push(
          fieldMessage("role_id", "roleBeyondSuperior", ctx.lng, {
            role: superior.role,
            permission: permissionLabel(ctx.lng, extra),
          }),
        );
    }
  }
  if (values.parent_role_id === undefined || values.parent_role_id === null)
    values.parent_role_id = superior?.role_id ?? null;
  else if (
    !skip.includes("parent_role_id") &&
    (superior?.role_id == null || Number(values.parent_role_id) !== superior.role_id)
  )
    errors.push(fieldMessage("parent_role_id", "parentRoleNotSuperiors", ctx.lng, params));
  return errors;
}

/**
 * Editing a role that agents hold keeps every one of them in its place (409 naming what is in the way):
 * no permission added that the role of a holder's superior lacks, none taken away that the role of a
 * holder's subordinate still grants (take it from that role first), and no new level that no longer
 * sits one below the superiors' roles or one above the subordinates'. Only what the edit changes is
 * looked at: agents made before the rule do not block an unrelated edit.
 */
export async function roleEditRefusal(ctx: Ctx, tx: Queryable, values: Row, existing: Row): Promise<void> {
  const around = await neighbourRoles(tx, existing.id);
  if (around.length === 0) return;
  const name = (values.name ?? existing.name) as string;
  const before = (existing.permissions as string[] | null) ?? [];
  const after = (values.permissions as string[] | undefined) ?? before;
  const added = beyond(after, before);
  const removed = beyond(before, after);
  for (const other of around) {
    const lost =
      other.side === "above" ? beyond(added, other.permissions)[0] : removed.find((p) => other.permissions.includes(p));
    if (!lost) continue;
    if (other.side === "above")
      throw new HttpError(409, "roleEditBeyondSuperior", {
        role: name,
        other: other.name,
        permission: permissionLabel(ctx.lng, lost),
      });
    throw new HttpError(409, "roleEditBelowSubordinate", {
      role: name,
      other: other.name,
      permission: permissionLabel(ctx.lng, lost),
    });
  }
  const level = values.level === undefined ? Number(existing.level) : Number(values.level);
  if (level === Number(existing.level)) return;
  const misfit = around.find((other) =>
    other.side === "above" ? !nextLevelDown(level, other.level) : !nextLevelDown(other.level, level),
  );
  if (misfit) throw new HttpError(409, "roleLevelInUse", { role: name, level: Number(existing.level) });
}

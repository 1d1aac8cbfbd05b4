// An agent's place in the role hierarchy, one rule for every agent made, whoever makes it (the platform
// admin included): its role ranks strictly below its superior's role, and its parent role is its
// superior's role. A role's level is its rank: a greater number is lower (the platform admin's role is
// the top, level 1 in the demo seed), as the role pickers read it (manage-role-down with force_down=1 offers the
// roles ranking below the caller's own, the superior the add wizard starts with). Role, parent role and
// superior never change after creation (x-immutable), so the rule is checked when an agent is made;
// agents made before it are left as they are (a recovered agent comes back as it was made).
import type { Queryable } from "../../db/db.ts";
import type { Ctx } from "../../entities/context.ts";
import type { Row } from "../../entities/repository.ts";
import { fieldMessage } from "../../entities/validation.ts";
import type { FieldError } from "../../core/errors.ts";
import { placeOf, roleLevel } from "./agent-store.ts";

export { placeOf, type Place } from "./agent-store.ts";

/** Whether a role of `level` ranks strictly below a role of `above` (a greater level number is lower). */
export const ranksBelow = (level: number, above: number): boolean => level > above;

/**
 * The errors of a new agent's role and parent role against its superior's place (the engine has checked
 * that the superior and the roles exist and are the caller's to use). A parent role left out is set to the
 * superior's role. `skip` names fields already refused, which get no second error.
 */
export async function placeErrors(ctx: Ctx, tx: Queryable, values: Row, skip: string[] = []): Promise<FieldError[]> {
  const superior = await placeOf(tx, values.pid as number);
  const level = await roleLevel(tx, values.role_id);
  const params = { role: superior?.role ?? "—" };
  const errors: FieldError[] = [];
  if (
    !skip.includes("role_id") &&
    (level === undefined || superior?.level == null || !ranksBelow(Number(level), Number(superior.level)))
  )
    errors.push(fieldMessage("role_id", "roleNotBelowSuperior", ctx.lng, params));
  if (values.parent_role_id === undefined || values.parent_role_id === null)
    values.parent_role_id = superior?.role_id ?? null;
  else if (
    !skip.includes("parent_role_id") &&
    (superior?.role_id == null || Number(values.parent_role_id) !== superior.role_id)
  )
    errors.push(fieldMessage("parent_role_id", "parentRoleNotSuperiors", ctx.lng, params));
  return errors;
}

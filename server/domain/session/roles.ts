// The role editor's permission list and the agent form's role pickers (SPEC section 7, auth): every
// permission key with its label, and the roles a caller may grant or the ranks above its own.
import { operationOfPermission } from "../../../src/schema/permissions.ts";
import { can, sqlOf, type Ctx } from "../../entities/context.ts";
import { nextLevelDown, OPERATION_PERMISSION_LABELS, ranksBelow } from "../accounts/place.ts";
import type { Handlers } from "../area.ts";
import { allPermissions } from "./auth.ts";
import * as store from "./session-store.ts";

export const roleHandlers: Handlers = {
  async "manage-role-permission"() {
    return allPermissions().map((key) => ({
      key,
      entity: key.split(".")[0],
      operation: operationOfPermission(key),
      ...(OPERATION_PERMISSION_LABELS.has(key) ? { label: OPERATION_PERMISSION_LABELS.get(key) } : {}),
    }));
  },

  // Role pickers of the agent form. down: the roles the caller may grant (all their permissions are the
  // caller's; force_down=1 only those of the next level down from the caller's own: the roles of its direct agents). up: the ranks above the caller's own.
  async "manage-role-down"({ ctx, input }) {
    return rolePicker(ctx, "down", input.force_down === 1);
  },
  async "manage-role-up"({ ctx }) {
    return rolePicker(ctx, "up", false);
  },
};

async function rolePicker(ctx: Ctx, direction: "up" | "down", forceDown: boolean) {
  const db = sqlOf(ctx);
  const rows = await store.roles(db);
  const own =
    ctx.principal.kind === "agent" && (!ctx.principal.isAdmin || forceDown)
      ? await store.ownRole(db, ctx.principal.id)
      : undefined;
  // One rule of rank with the server's own check of a new agent's place (accounts/place.ts).
  const picked = rows.filter((role) =>
    direction === "up"
      ? ctx.principal.isAdmin || (own !== undefined && ranksBelow(own.level, role.level))
      : (role.permissions ?? []).every((p) => can(ctx.principal, p)) &&
        // force_down: the next level down from the caller's own, the level of its direct agents.
        !(forceDown && (own === undefined || !nextLevelDown(role.level, own.level))),
  );
  return picked.map((role) => ({ id: role.id, title: role.name, level: role.level }));
}

// Saved views (schemas/saved-view.json): each user's own, read and written by the engine under the owner
// scope (server/entities/repository.ts). What the schema cannot say is here: whether a view is the
// caller's own (a shared one is read-only to the agents below its owner), who may share one (an agent: an
// operator or an outlet manager has no one below to share with, and is told so rather than ignored), and one
// default per list and user.
import { badRequest } from "../../core/errors.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { defineArea } from "../area.ts";

const savedViewHooks: EntityHooks = {
  async derive(ctx, rows) {
    for (const row of rows)
      row.mine = row.owner_kind === ctx.principal.kind && Number(row.owner_id) === ctx.principal.id;
  },
  // On an update `values` holds only what changes, so a view kept unshared passes.
  async beforeWrite(ctx, _tx, values) {
    if (values.shared === true && ctx.principal.kind !== "agent")
      throw badRequest([fieldMessage("shared", "viewShareAgentsOnly", ctx.lng)]);
  },
  // A view made the default stops any other of the user's views of that list being it.
  async afterWrite(_ctx, tx, row) {
    if (row.is_default !== true) return;
    await tx.query(
      `update saved_view set is_default = false, version = version + 1, updated_at = now()
        where owner_kind = $1 and owner_id = $2 and list = $3 and id <> $4 and is_default`,
      [row.owner_kind, row.owner_id, row.list, row.id],
    );
  },
};

export const views = defineArea({ name: "views", hooks: { saved_view: savedViewHooks }, handlers: {} });

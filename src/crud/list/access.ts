// What the user may do on a list, from the screen's permissions and the entity's declaration: each
// button, column and checkbox of the list is shown from this one answer.
import { usableOperations } from "../action-sources.tsx";
import { allowed } from "../../app/providers/access-control.ts";
import { importPermission } from "../../schema/imports.ts";
import type { ScreenContext } from "../resource.ts";

export function listAccess(screen: ScreenContext, recycle: boolean) {
  const { view, resource } = screen;
  const toolbar = recycle ? [] : usableOperations(view.name, "toolbar");
  const bulk = recycle ? [] : usableOperations(view.name, "bulk");
  const rowOperations = !recycle && usableOperations(view.name, "row").length > 0;
  const show = !recycle && screen.can("detail") && !!resource.show;
  const edit = !recycle && screen.can("update") && !!resource.edit;
  const remove = recycle ? screen.can("destroy") : screen.can("delete");
  const restore = recycle && screen.can("recover");
  return {
    show,
    edit,
    remove,
    restore,
    // Entities without a recycle bin (categories, banners, ...) delete for good: the words say so.
    permanent: recycle || !view.x.recycle,
    add: !recycle && screen.can("add") && !!resource.create,
    export: !recycle && screen.can("export"),
    /** The entity declares an import (x-import) and the user may import. */
    import: !recycle && !!view.schema["x-import"] && allowed(importPermission(view.name)),
    toolbar,
    bulk,
    rowOperations,
    /** Rows can be selected: for a bulk command or a bulk operation. */
    select: remove || restore || bulk.length > 0,
    /** Rows have an action column. */
    rowActions: show || edit || remove || restore || view.states.size > 0 || rowOperations,
  };
}

export type ListAccess = ReturnType<typeof listAccess>;

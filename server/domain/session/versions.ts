// The version check of the console's shell (SPEC section 7, common): the installed version against the
// newest one published (version-list), and the upgrade to it.
import { HttpError } from "../../core/errors.ts";
import { sqlOf, type Ctx } from "../../entities/context.ts";
import type { Handlers } from "../area.ts";
import * as store from "./session-store.ts";

/** The installed version and the newest one published (version-list), as SPEC's version check wants. */
async function versions(ctx: Ctx) {
  const db = sqlOf(ctx);
  const latest = await store.latestVersion(db);
  const installed = (await store.installedVersion(db)) ?? latest;
  return { latest, installed };
}

export const versionHandlers: Handlers = {
  async "version-check"({ ctx }) {
    const { latest, installed } = await versions(ctx);
    return {
      version: installed ?? "0.0.0",
      digits: (installed ?? "0.0.0").split(".").map(Number),
      latest: latest ?? null,
      can_update: latest && installed !== latest ? 1 : 0,
    };
  },

  async "version-upgrade"({ ctx }) {
    const { latest } = await versions(ctx);
    if (!latest) throw new HttpError(409, "stateConflict");
    await store.setInstalledVersion(sqlOf(ctx), latest);
    return { version: latest };
  },
};

// The version check of the console's shell (SPEC section 7, common): the installed version against the
// newest one published (version-list), and the upgrade to it.
import { HttpError } from "../../core/errors.ts";
import { q } from "../../core/sql.ts";
import { sqlOf, type Ctx } from "../../entities/context.ts";
import type { Handlers } from "../area.ts";

/** The installed version and the newest one published (version-list), as SPEC's version check wants. */
async function versions(ctx: Ctx) {
  const db = sqlOf(ctx);
  const latest = (
    await db.query<{ version_number: string }>(`select version_number from ${q("version")} order by id desc limit 1`)
  ).rows[0]?.version_number;
  const installed =
    (await db.query<{ value: string }>(`select value from sys_state where key = 'installed_version'`)).rows[0]?.value ??
    latest;
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
    await sqlOf(ctx).query(
      `insert into sys_state (key, value) values ('installed_version', $1) on conflict (key) do update set value = excluded.value`,
      [JSON.stringify(latest)],
    );
    return { version: latest };
  },
};

// What the system settings say that the server's own words need, read where they are used.
import { q } from "../core/sql.ts";
import type { Queryable } from "./db.ts";

/** The business's currency (ISO 4217) as the settings have it; undefined before it is set. */
export async function currencyOf(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ currency: string | null }>(
    `select currency from ${q("system_setting")} where singleton_key = 'global'`,
  );
  return rows[0]?.currency ?? undefined;
}

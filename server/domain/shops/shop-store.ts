// The outlet calls' statements (issue 28, step 4: a handler reads validate → store → answer): an outlet's
// WIFI batch and counts, and the work-order entries by type. A batch is added by one statement whose
// unique index (shop_id, ssid) decides which names are taken, so two batches at once cannot both add one.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** Adds an outlet's WIFI entries by name, enabled, owned by the agent given; answers those added (a name taken is not). */
export async function addWifi(
  tx: Queryable,
  shopId: number,
  names: string[],
  password: string | null,
  owner: { agentId: number; agentPath: string },
): Promise<{ id: number; ssid: string }[]> {
  const { rows } = await tx.query<{ id: number; ssid: string }>(
    `insert into ${q("wifi")} (shop_id, ssid, password, status, agent_id, agent_path)
         select $1, name, $3, 1, $4, $5 from unnest($2::text[]) as name
         on conflict (shop_id, ssid) do nothing returning id, ssid`,
    [shopId, names, password, owner.agentId, owner.agentPath],
  );
  return rows;
}

/** An outlet's WIFI entries in scope: how many, how many enabled, and which of the names are taken (null: none). */
export async function wifiCounts(
  db: Queryable,
  scope: Scope,
  shopId: number,
  names: string[],
): Promise<{ entries: number; enabled: number; taken: string[] | null }> {
  const where = scopeClause(modelOf("wifi"), scope, 1);
  const { rows } = await db.query<{ entries: number; enabled: number; taken: string[] | null }>(
    `select count(*)::int as entries, (count(*) filter (where status = 1))::int as enabled,
                array_agg(ssid order by ssid) filter (where ssid = any($${where.values.length + 2}::text[])) as taken
           from ${q("wifi")} where shop_id = $1${where.sql}`,
    [shopId, ...where.values, names],
  );
  return rows[0];
}

/** How many enabled work-order entries each type has; a type with none is absent. */
export async function enabledEntriesByType(db: Queryable): Promise<{ type: string; entries: number }[]> {
  const { rows } = await db.query<{ type: string; entries: number }>(
    `select type, count(*)::int as entries from ${q("service_entry")}
          where status = 1 group by type`,
  );
  return rows;
}

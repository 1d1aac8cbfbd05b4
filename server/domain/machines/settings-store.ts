// The statements of the settings calls and the QR codes beyond a device's own row (issue 28, step 4: a
// handler reads validate → store → answer): the enabled plugins, the pages an agent may give a device of
// a kind, and the system settings' full domain. Each reads only; none checks the caller's scope (the
// handler has checked the device, and these rows are the platform's or the caller's agent's own).
import type { EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { modelOf } from "../../model/model.ts";

/** An enabled plugin as the plugin settings offer it. */
export type OfferedPlugin = Pick<EntityRecord<"plugin">, "id" | "code" | "name">;

/** The enabled plugins, in their order (at most 200). */
export async function enabledPlugins(sql: Queryable): Promise<OfferedPlugin[]> {
  const { rows } = await sql.query<OfferedPlugin>(
    `select id, code, name from ${q("plugin")} where status = 1 order by sort, id limit 200`,
  );
  return rows;
}

/**
 * The agent's live pages by name (at most 500), for a device of `kind` when given: a sales page names a
 * channel plan, a charging page a charging plan; other kinds take any page.
 */
export async function pagesOf(
  sql: Queryable,
  agentId: number,
  kind?: string,
): Promise<{ id: number; title: string }[]> {
  const conditions = [`deleted_at is null`, `agent_id = $1`];
  if (kind === "vending") conditions.push(`channel_plan_id is not null`);
  if (kind === "charging_cable" || kind === "charging_pile") conditions.push(`charge_plan_id is not null`);
  const { rows } = await sql.query<{ id: number; title: string }>(
    `select id, name as title from ${q("page")} where ${conditions.join(" and ")} order by name, id limit 500`,
    [agentId],
  );
  return rows;
}

/** The full domain of the system settings (null when not set). */
export async function fullDomain(sql: Queryable): Promise<string | null> {
  const setting = modelOf("system_setting");
  const { rows } = await sql.query<{ full_domain: string | null }>(
    `select full_domain from ${q(setting.table)} where singleton_key = 'global'`,
  );
  return rows[0]?.full_domain ?? null;
}

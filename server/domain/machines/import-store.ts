// The statements of the device import (issue 28, step 4: a handler reads validate → store → answer) of
// its own: the names the template's sample uses and the live devices a file may repeat. Those every
// import shares (related records by name, the confirm's lock and writes) are server/entities/import/store.ts.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A live device a file's row may repeat: its codes and the values an import sets. */
export interface LiveDevice {
  id: number;
  mac_name: string;
  mac_id: string;
  kind: string;
  model_id: number;
  spec_id: number;
  protocol_id: number;
  shop_id: number | null;
  agent_path: string;
}

/** The first name of an entity's rows ("" when none): of the live ones in the scope when a scope is given. */
export async function firstName(sql: Queryable, entity: string, scope?: Scope): Promise<string> {
  const table = modelOf(entity).table;
  const where = scope ? scopeClause(modelOf(entity), scope, 0) : undefined;
  const extra = where ? ` and deleted_at is null${where.sql}` : "";
  const values = where ? where.values : [];
  return (
    (await sql.query<{ name: string }>(`select name from ${q(table)} where true${extra} order by id limit 1`, values))
      .rows[0]?.name ?? ""
  );
}

/** The live devices, everyone's, with one of the device codes or hardware codes. */
export async function liveDevices(sql: Queryable, macNames: string[], macIds: string[]): Promise<LiveDevice[]> {
  const { rows } = await sql.query<LiveDevice>(
    `select id, mac_name, mac_id, kind, model_id, spec_id, protocol_id, shop_id, agent_path from ${q(modelOf("machine").table)}
      where deleted_at is null and (mac_name = any($1) or mac_id = any($2))`,
    [macNames, macIds],
  );
  return rows;
}

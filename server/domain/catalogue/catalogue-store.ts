// The catalogue's statements (issue 28, step 4: a handler reads validate → store → answer): the agents a
// sync reaches, the goods copies and the categories they take, and the channel-plan copies. Every one runs
// in the caller's transaction; a copy is made or brought up to date by one upsert on (agent_id, source_id),
// so two syncs at once never make two copies for one agent.
import type { EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** What a goods copy takes from its original on every change (cate_id is mapped, cost_price is down_price). */
export const GOODS_SYNCED = [
  "title",
  "pic_url",
  "detail_url",
  "carousel_url",
  "open_spec",
  "spec_name",
  "spec_attributes",
  "spec_price",
  "spec_pic",
  "desc_spec_price",
  "description",
] as const;

/** An agent a sync may reach: its id, its place in the tree and its title. */
export interface Agent {
  id: number;
  agent_path: string;
  title: string;
}

/** A goods original as its sync reads it: whose it is and to whom it goes. */
export type GoodsOriginal = Pick<EntityRecord<"goods">, "open_sync_subor" | "sync_user" | "cate_id"> & {
  agent_path: string;
};

/** A channel plan as stored, with its owner. */
export type StoredPlan = EntityRecord<"channel_plan"> & { agent_id: number; agent_path: string };

/** A copy an upsert made or brought up to date: created when it is new. */
export interface CopyWritten {
  id: number;
  created: boolean;
}

/** The agents of the list that are not deleted, by id, each with its title. */
export async function agentsById(tx: Queryable, list: number[]): Promise<Agent[]> {
  if (!list.length) return [];
  const { rows } = await tx.query<Agent>(
    `select id, agent_path, ${q(modelOf("agent").x.titleField ?? "id")}::text as title
       from ${q("agent")} where id = any($1::bigint[]) and deleted_at is null order by id`,
    [list],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The agent's category named like the original's, made (top level) when it has none. */
export async function categoryFor(tx: Queryable, cateId: number, agent: Agent): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `with src as (select name, pic, sort from ${q("goods_category")} where id = $1),
          found as (select c.id from ${q("goods_category")} c, src where c.agent_id = $2 and c.name = src.name
                     order by c.id limit 1),
          made as (insert into ${q("goods_category")} (name, pic, sort, agent_id, agent_path)
                   select name, pic, sort, $2, $3 from src where not exists (select 1 from found) returning id)
     select id from found union all select id from made`,
    [cateId, agent.id, agent.agent_path],
  );
  return Number(rows[0].id);
}

/** A goods original not deleted, as its sync reads it. */
export async function goodsOriginal(tx: Queryable, goodsId: number): Promise<GoodsOriginal | undefined> {
  const { rows } = await tx.query<GoodsOriginal>(
    `select agent_path, open_sync_subor, sync_user, cate_id from ${q("goods")} where id = $1 and deleted_at is null`,
    [goodsId],
  );
  return rows[0];
}

/** Copies of the original whose agent is not among those kept become that agent's own goods; answers their ids. */
export async function detachCopies(tx: Queryable, goodsId: number, keptAgentIds: number[]): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `update ${q("goods")} set source_id = null, version = version + 1, updated_at = now()
      where source_id = $1 and deleted_at is null and not (agent_id = any($2::bigint[])) returning id`,
    [goodsId, keptAgentIds],
  );
  return rows.map((row) => Number(row.id));
}

/**
 * Makes the agent's copy of a goods original, or brings it in line: the synced fields, the category given
 * and the original's wholesale price as its cost (a new copy starts with no stock and sync off).
 */
export async function upsertGoodsCopy(
  tx: Queryable,
  goodsId: number,
  cateId: number,
  agent: Agent,
): Promise<CopyWritten & { open_sync_subor: number }> {
  const cols = GOODS_SYNCED.map(q).join(", ");
  const { rows } = await tx.query<CopyWritten & { open_sync_subor: number }>(
    `insert into ${q("goods")} as g (${cols}, cate_id, cost_price, unit_price, down_price, stock, stock_warning,
                                  open_sync_subor, source_id, agent_id, agent_path)
     select ${cols}, $2, down_price, unit_price, down_price, 0, stock_warning, 0, id, $3, $4
       from ${q("goods")} where id = $1
     on conflict (agent_id, source_id) where deleted_at is null do update
        set ${GOODS_SYNCED.map((c) => `${q(c)} = excluded.${q(c)}`).join(", ")}, cate_id = excluded.cate_id,
            cost_price = excluded.cost_price, version = g.version + 1, updated_at = now()
     returning id, (xmax = 0) as created, open_sync_subor`,
    [goodsId, cateId, agent.id, agent.agent_path],
  );
  return rows[0];
}

/** A channel plan in scope, not deleted, locked against changes (its copies are made from it). */
export async function lockPlan(tx: Queryable, scope: Scope, id: number): Promise<StoredPlan | undefined> {
  const where = scopeClause(modelOf("channel_plan"), scope, 1);
  const { rows } = await tx.query<StoredPlan>(
    `select * from ${q("channel_plan")} where id = $1 and deleted_at is null${where.sql} for no key update`,
    [id, ...where.values],
  );
  return rows[0];
}

/** The agents' copies of the goods originals, locked so that they stay while a plan names them. */
export async function lockGoodsCopies(
  tx: Queryable,
  agentIds: number[],
  goodsIds: number[],
): Promise<{ agent_id: number; source_id: number; id: number }[]> {
  const { rows } = await tx.query<{ agent_id: number; source_id: number; id: number }>(
    `select agent_id, source_id, id from ${q("goods")}
      where agent_id = any($1::bigint[]) and source_id = any($2::bigint[]) and deleted_at is null
      for key share`,
    [agentIds, goodsIds],
  );
  return rows;
}

/** Makes the agent's copy of a channel plan with the lanes given, or brings its name, model and lanes in line. */
export async function upsertPlanCopy(
  tx: Queryable,
  plan: StoredPlan,
  channels: unknown[],
  agent: Agent,
): Promise<CopyWritten> {
  const { rows } = await tx.query<CopyWritten>(
    `insert into ${q("channel_plan")} as p (name, model_id, channels, sort, remark, source_id, agent_id, agent_path)
     values ($1, $2, $3::jsonb, $4, $5, $6, $7, $8)
     on conflict (agent_id, source_id) where deleted_at is null do update
        set name = excluded.name, model_id = excluded.model_id, channels = excluded.channels,
            version = p.version + 1, updated_at = now()
     returning id, (xmax = 0) as created`,
    [
      plan.name,
      plan.model_id,
      JSON.stringify(channels),
      plan.sort ?? 0,
      plan.remark ?? null,
      plan.id,
      agent.id,
      agent.agent_path,
    ],
  );
  return rows[0];
}

/** The goods' titles by id. */
export async function goodsTitles(tx: Queryable, list: number[]): Promise<Map<number, string>> {
  const { rows } = await tx.query<{ id: number; title: string }>(
    `select id, title from ${q("goods")} where id = any($1::bigint[])`,
    [list],
  );
  return new Map(rows.map((r) => [Number(r.id), r.title]));
}

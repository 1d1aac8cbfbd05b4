// The catalogue a superior shares with its subordinates (SPEC §10: "a superior may sync plans and goods to
// subordinates"), and the channel-plan calls beyond CRUD.
//
// Goods: an original with open_sync_subor on reaches each agent of sync_user (who must be below its
// owner) as that agent's own copy (source_id = the original). The copy follows the original on every
// later change, in the same transaction; its category is the agent's category of the same name (made
// when missing); its cost is the original's wholesale price (down_price). The agent sets its own retail
// and wholesale prices, stock and sync, and cannot change what follows the original. An agent dropped
// from sync_user (or sync turned off) keeps its copy as goods of its own (source_id cleared): its lanes
// and orders still name it. A copy that is itself synced further passes the change on down the tree.
//
// Channel plans: channel-plan-sync copies a plan to chosen agents below its owner (or brings their copy up
// to date), each lane naming that agent's copy of the lane's goods; a lane whose goods the agent has no
// copy of refuses the whole sync, naming them. channel-plan-my lists the caller's own plans (copies
// included); channel-machine-list the devices a plan lays out.
import type { Queryable } from "../../db/db.ts";
import { entityKeyBase, fieldLabelKey } from "../../../src/schema/keys.ts";
import { q } from "../../core/sql.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { listRecords } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import { scopeClause, type ListQuery, type Row } from "../../entities/repository.ts";
import { badRequest, HttpError, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { defineArea } from "../area.ts";

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
const GOODS_LOCKED = new Set<string>([...GOODS_SYNCED, "cate_id", "cost_price"]);
/** What a channel-plan copy takes from its original (lanes mapped to the agent's goods copies). */
const PLAN_LOCKED = new Set(["name", "model_id", "channels"]);

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

interface Agent {
  id: number;
  agent_path: string;
  title: string;
}

async function agentsById(tx: Queryable, list: number[]): Promise<Agent[]> {
  if (!list.length) return [];
  const { rows } = await tx.query<Agent>(
    `select id, agent_path, ${q(modelOf("agent").x.titleField ?? "id")}::text as title
       from ${q("agent")} where id = any($1::bigint[]) and deleted_at is null order by id`,
    [list],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

const below = (agent: Agent, ownerPath: string) =>
  agent.agent_path.startsWith(ownerPath) && agent.agent_path !== ownerPath;

/** A field error on the agents field when any agent is not below the owner. */
async function refuseNotBelow(tx: Queryable, ctx: Ctx, field: string, list: number[], ownerPath: string) {
  const wrong = (await agentsById(tx, list)).filter((a) => !below(a, ownerPath));
  if (wrong.length)
    throw badRequest([
      {
        field,
        keyword: "x-sync",
        message: translate(ctx.lng, "errors:syncNotBelow", { agents: wrong.map((a) => a.title).join(", ") }),
      },
    ]);
}

/** A 409 naming the fields a copy cannot change (translated labels). */
function refuseLocked(ctx: Ctx, entity: string, changed: string[]): never {
  const labels = changed.map((f) => translate(ctx.lng, fieldLabelKey(entityKeyBase(entity), f)));
  throw new HttpError(409, "syncedFromSuperior", { fields: labels.join(", ") });
}

/** The agent's category named like the original's, made (top level) when it has none. */
async function categoryFor(tx: Queryable, cateId: number, agent: Agent): Promise<number> {
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

/** Brings every copy of a goods original in line with it (and their copies, down the tree). */
export async function syncGoods(tx: Queryable, ctx: Ctx, goodsId: number): Promise<void> {
  const { rows } = await tx.query<{ agent_path: string; open_sync_subor: number; sync_user: unknown; cate_id: number }>(
    `select agent_path, open_sync_subor, sync_user, cate_id from ${q("goods")} where id = $1 and deleted_at is null`,
    [goodsId],
  );
  const original = rows[0];
  const wanted = original && original.open_sync_subor === 1 ? ids(original.sync_user) : [];
  const targets = (await agentsById(tx, wanted)).filter((a) => below(a, original.agent_path));
  // Agents no longer synced keep their copy as their own goods.
  const detached = await tx.query<{ id: number }>(
    `update ${q("goods")} set source_id = null, version = version + 1, updated_at = now()
      where source_id = $1 and deleted_at is null and not (agent_id = any($2::bigint[])) returning id`,
    [goodsId, targets.map((a) => a.id)],
  );
  for (const row of detached.rows) await audit(tx, ctx, "goods", Number(row.id), "update", { source_id: null });
  if (!original) return;
  const cols = GOODS_SYNCED.map(q).join(", ");
  for (const agent of targets) {
    const cateId = await categoryFor(tx, original.cate_id, agent);
    const { rows: copies } = await tx.query<{ id: number; created: boolean; open_sync_subor: number }>(
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
    const copy = copies[0];
    await audit(tx, ctx, "goods", Number(copy.id), copy.created ? "create" : "update", { source_id: goodsId });
    if (copy.open_sync_subor === 1) await syncGoods(tx, ctx, Number(copy.id));
  }
}

const goodsHooks: EntityHooks = {
  async beforeWrite(ctx, tx, values, existing) {
    if (existing?.source_id) {
      const locked = Object.keys(values).filter((f) => GOODS_LOCKED.has(f));
      if (locked.length) refuseLocked(ctx, "goods", locked);
    }
    if ("sync_user" in values || "open_sync_subor" in values) {
      const on = (values.open_sync_subor ?? existing?.open_sync_subor) === 1;
      const list = ids(values.sync_user ?? existing?.sync_user);
      if (on) await refuseNotBelow(tx, ctx, "sync_user", list, String(existing?.agent_path ?? values.agent_path));
    }
  },
  async afterWrite(ctx, tx, row, existing) {
    // Goods with sync on (or just turned off) bring their copies in line; other goods have none to touch.
    if (row.open_sync_subor === 1 || existing?.open_sync_subor === 1) await syncGoods(tx, ctx, Number(row.id));
  },
};

const planHooks: EntityHooks = {
  async beforeWrite(ctx, _tx, values, existing) {
    if (!existing?.source_id) return;
    const locked = Object.keys(values).filter((f) => PLAN_LOCKED.has(f));
    if (locked.length) refuseLocked(ctx, "channel_plan", locked);
  },
};

const ownOnly = (ctx: Ctx, list: ListQuery): ListQuery => ({
  ...list,
  where: [...list.where, { field: "agent_id", op: "eq", value: ctx.principal.agentId }],
});

export const catalogue = defineArea({
  name: "catalogue",
  hooks: { goods: goodsHooks, channel_plan: planHooks },
  handlers: {
    "channel-plan-my": ({ ctx, list }) => listRecords(ctx, modelOf("channel_plan"), ownOnly(ctx, list), false),

    "channel-machine-list": ({ ctx, input, list }) =>
      listRecords(
        ctx,
        modelOf("machine"),
        { ...list, where: [...list.where, { field: "channel_plan_id", op: "eq", value: input.channel_plan_id }] },
        false,
      ),

    async "channel-plan-sync"({ ctx, input }) {
      const tx = ctx.tx;
      const scope = scopeClause(modelOf("channel_plan"), scopeOf(ctx.principal), 1);
      const { rows } = await tx.query<Row & { agent_path: string; channels: { goods_id: number }[]; name: string }>(
        `select * from ${q("channel_plan")} where id = $1 and deleted_at is null${scope.sql} for no key update`,
        [input.id, ...scope.values],
      );
      const plan = rows[0];
      if (!plan) throw notFound();
      await refuseNotBelow(tx, ctx, "agent_ids", input.agent_ids, plan.agent_path);
      const targets = await agentsById(tx, input.agent_ids);
      const goodsIds = [...new Set(plan.channels.map((c) => Number(c.goods_id)))];
      // Each agent's copies of the lanes' goods, locked so that they stay while the plan names them.
      const { rows: copies } = await tx.query<{ agent_id: number; source_id: number; id: number }>(
        `select agent_id, source_id, id from ${q("goods")}
          where agent_id = any($1::bigint[]) and source_id = any($2::bigint[]) and deleted_at is null
          for key share`,
        [targets.map((a) => a.id), goodsIds],
      );
      const copyOf = new Map(copies.map((c) => [`${c.agent_id}:${c.source_id}`, Number(c.id)]));
      const missing: string[] = [];
      const titles = await goodsTitles(tx, goodsIds);
      for (const agent of targets) {
        const lacking = goodsIds.filter((g) => !copyOf.has(`${agent.id}:${g}`));
        if (lacking.length) missing.push(`${agent.title}: ${lacking.map((g) => titles.get(g)).join(", ")}`);
      }
      if (missing.length) throw new HttpError(409, "goodsNotSynced", { missing: missing.join("; ") });
      for (const agent of targets) {
        const channels = plan.channels.map((c) => ({ ...c, goods_id: copyOf.get(`${agent.id}:${c.goods_id}`) }));
        const { rows: made } = await tx.query<{ id: number; created: boolean }>(
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
        await audit(tx, ctx, "channel_plan", Number(made[0].id), made[0].created ? "create" : "update", {
          source_id: plan.id,
        });
      }
      return { count: targets.length };
    },
  },
});

async function goodsTitles(tx: Queryable, list: number[]): Promise<Map<number, string>> {
  const { rows } = await tx.query<{ id: number; title: string }>(
    `select id, title from ${q("goods")} where id = any($1::bigint[])`,
    [list],
  );
  return new Map(rows.map((r) => [Number(r.id), r.title]));
}

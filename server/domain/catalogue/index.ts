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
import { scopeOf, type Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { listRecords } from "../../entities/engine.ts";
import { audit } from "../../entities/audit.ts";
import { modelOf } from "../../model/model.ts";
import type { ListQuery } from "../../entities/repository.ts";
import { badRequest, HttpError, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { defineArea } from "../area.ts";
import * as store from "./catalogue-store.ts";
import { GOODS_SYNCED, type Agent } from "./catalogue-store.ts";

export { GOODS_SYNCED };
const GOODS_LOCKED = new Set<string>([...GOODS_SYNCED, "cate_id", "cost_price"]);
/** What a channel-plan copy takes from its original (lanes mapped to the agent's goods copies). */
const PLAN_LOCKED = new Set(["name", "model_id", "channels"]);

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

const below = (agent: Agent, ownerPath: string) =>
  agent.agent_path.startsWith(ownerPath) && agent.agent_path !== ownerPath;

/** A field error on the agents field when any agent is not below the owner. */
async function refuseNotBelow(tx: Queryable, ctx: Ctx, field: string, list: number[], ownerPath: string) {
  const wrong = (await store.agentsById(tx, list)).filter((a) => !below(a, ownerPath));
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

/** Brings every copy of a goods original in line with it (and their copies, down the tree). */
export async function syncGoods(tx: Queryable, ctx: Ctx, goodsId: number): Promise<void> {
  const original = await store.goodsOriginal(tx, goodsId);
  const wanted = original && original.open_sync_subor === 1 ? ids(original.sync_user) : [];
  const targets = original ? (await store.agentsById(tx, wanted)).filter((a) => below(a, original.agent_path)) : [];
  // Agents no longer synced keep their copy as their own goods.
  const detached = await store.detachCopies(
    tx,
    goodsId,
    targets.map((a) => a.id),
  );
  for (const id of detached) await audit(tx, ctx, "goods", id, "update", { source_id: null });
  if (!original) return;
  for (const agent of targets) {
    const cateId = await store.categoryFor(tx, original.cate_id, agent);
    const copy = await store.upsertGoodsCopy(tx, goodsId, cateId, agent);
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
      const plan = await store.lockPlan(tx, scopeOf(ctx.principal), input.id);
      if (!plan) throw notFound();
      await refuseNotBelow(tx, ctx, "agent_ids", input.agent_ids, plan.agent_path);
      const targets = await store.agentsById(tx, input.agent_ids);
      const goodsIds = [...new Set(plan.channels.map((c) => Number(c.goods_id)))];
      // Each agent's copies of the lanes' goods, locked so that they stay while the plan names them.
      const copies = await store.lockGoodsCopies(
        tx,
        targets.map((a) => a.id),
        goodsIds,
      );
      const copyOf = new Map(copies.map((c) => [`${c.agent_id}:${c.source_id}`, Number(c.id)]));
      const missing: string[] = [];
      const titles = await store.goodsTitles(tx, goodsIds);
      for (const agent of targets) {
        const lacking = goodsIds.filter((g) => !copyOf.has(`${agent.id}:${g}`));
        if (lacking.length) missing.push(`${agent.title}: ${lacking.map((g) => titles.get(g)).join(", ")}`);
      }
      if (missing.length) throw new HttpError(409, "goodsNotSynced", { missing: missing.join("; ") });
      for (const agent of targets) {
        const channels = plan.channels.map((c) => ({ ...c, goods_id: copyOf.get(`${agent.id}:${c.goods_id}`) }));
        const made = await store.upsertPlanCopy(tx, plan, channels, agent);
        await audit(tx, ctx, "channel_plan", Number(made.id), made.created ? "create" : "update", {
          source_id: plan.id,
        });
      }
      return { count: targets.length };
    },
  },
});

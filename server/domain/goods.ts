// Goods calls beyond CRUD. goods-down: the goods of the agents below the caller (SPEC §2 "subordinate
// goods"), with the goods list's paging, sort and filters; the caller's own goods are left out.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { requirePermission, type Ctx } from "../entities/context.ts";
import { listRecords } from "../entities/engine.ts";
import { modelOf } from "../entities/model.ts";
import { parseListQuery } from "../entities/query.ts";
import { ok } from "../entities/routes.ts";

export function registerGoodsRoutes(app: FastifyInstance, ctxOf: (request: FastifyRequest) => Ctx): void {
  app.get("/merchant/goods-down", async (request) => {
    const ctx = ctxOf(request);
    requirePermission(ctx, "goods.list");
    const model = modelOf("goods");
    const query = parseListQuery(model, (request.query ?? {}) as Record<string, unknown>, ctx.lng);
    return ok(await listRecords(ctx, model, query, false, { below: ctx.principal.agentPath }));
  });
}

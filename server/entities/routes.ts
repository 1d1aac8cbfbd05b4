// Registers every entity's calls (x-entity.calls) and transitions (x-states) as routes: one loop,
// no per-entity code. Domain modules add the calls that are more than CRUD.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { CallKind } from "../../src/schema/types.ts";
import { permissionOfCall } from "../../codegen/permissions.ts";
import { requirePermission, type Ctx } from "./context.ts";
import * as engine from "./engine.ts";
import { models, type EntityModel } from "./model.ts";
import { oneId, parseIds, parseListQuery } from "./query.ts";
import { exportCsv } from "./export.ts";

type Handler = (ctx: Ctx, request: FastifyRequest, model: EntityModel) => Promise<unknown>;

const METHOD: Record<CallKind, "GET" | "POST" | "DELETE"> = {
  list: "GET",
  detail: "GET",
  all: "GET",
  add: "POST",
  update: "POST",
  delete: "DELETE",
  recycleList: "GET",
  recover: "POST",
  destroy: "DELETE",
  export: "GET",
  get: "GET",
  set: "POST",
};

const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
/** Deletes take ids in the query; a few SPEC calls send them in a body. */
const idsOf = (request: FastifyRequest, ctx: Ctx) => parseIds(queryOf(request).id ?? bodyOf(request).id, ctx.lng);

const HANDLERS: Record<CallKind, Handler> = {
  list: (ctx, r, m) => engine.listRecords(ctx, m, parseListQuery(m, queryOf(r), ctx.lng), false),
  recycleList: (ctx, r, m) => engine.listRecords(ctx, m, parseListQuery(m, queryOf(r), ctx.lng), true),
  detail: (ctx, r, m) => engine.detail(ctx, m, oneId(queryOf(r).id, ctx.lng)),
  all: (ctx, r, m) => {
    const { q: search, id } = queryOf(r);
    return engine.pick(ctx, m, {
      search: typeof search === "string" && search ? search : undefined,
      ids: id === undefined ? undefined : parseIds(id, ctx.lng),
    });
  },
  add: (ctx, r, m) => engine.add(ctx, m, r.body),
  update: (ctx, r, m) => engine.update(ctx, m, r.body),
  delete: (ctx, r, m) => engine.bulk(ctx, m, "delete", idsOf(r, ctx)),
  recover: (ctx, r, m) => engine.bulk(ctx, m, "recover", parseIds(bodyOf(r).id, ctx.lng)),
  destroy: (ctx, r, m) => engine.bulk(ctx, m, "destroy", idsOf(r, ctx)),
  export: async () => undefined, // answered with a file below
  get: (ctx, _r, m) => engine.getSingleton(ctx, m),
  set: (ctx, r, m) => engine.setSingleton(ctx, m, r.body),
};

export const ok = (data: unknown) => ({ code: 200, message: "ok", data });

export function registerEntityRoutes(app: FastifyInstance, ctxOf: (request: FastifyRequest) => Ctx): void {
  for (const model of models.values()) {
    if (model.x.storage === "input") continue; // commands: their domain modules serve them
    const base = model.x.basePath ?? "/merchant";
    for (const [kind, call] of Object.entries(model.x.calls) as [CallKind, string][]) {
      const permission = permissionOfCall(model.name, kind);
      app.route({
        method: METHOD[kind],
        url: `${base}/${call}`,
        handler: async (request, reply) => {
          const ctx = ctxOf(request);
          requirePermission(ctx, permission);
          if (kind === "export") {
            const file = await exportCsv(
              ctx,
              model,
              parseListQuery(model, { ...queryOf(request), page: "1", limit: "1" }, ctx.lng),
            );
            return reply
              .header("content-type", "text/csv; charset=utf-8")
              .header(
                "content-disposition",
                `attachment; filename="${model.name}-${new Date().toISOString().slice(0, 10)}.csv"`,
              )
              .send(file);
          }
          return ok(await HANDLERS[kind](ctx, request, model));
        },
      });
    }
    const calls = new Set([...model.stateFields.values()].flat().map((t) => t.call));
    for (const call of calls) {
      app.post(`${base}/${call}`, async (request) =>
        ok(await engine.runTransition(ctxOf(request), model, call, request.body)),
      );
    }
  }
}

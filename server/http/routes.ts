// The one route loop: every call the server answers is declared, and nothing else is served. Entity
// calls come from x-entity and x-states (the generic engine answers them), operations from
// schemas/operations/ (their area's handler answers them). Each route carries who may call it in its
// config; the authentication hook reads that from the matched route, never from the URL text.
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { operationSchemas, type OperationCall } from "../../src/generated/operations.ts";
import { accessOfCall } from "../../src/schema/permissions.ts";
import { resolveDefs } from "../../src/schema/refs.ts";
import type { CallKind, JsonSchemaOperation, OperationAccess } from "../../src/schema/types.ts";
import { defsSchema } from "../../src/generated/schemas.ts";
import type { Area, FileIntake, FileLimit, Handler, ReceivedFile } from "../domain/area.ts";
import { inTransaction, sqlOf, type Ctx } from "../entities/context.ts";
import * as engine from "../entities/engine.ts";
import { checkRelations } from "../entities/engine.ts";
import { sendExport } from "../entities/export.ts";
import { models, modelOf, type EntityModel } from "../model/model.ts";
import { oneId, parseIds, parseListQuery } from "../entities/query.ts";
import type { ListQuery } from "../entities/repository.ts";
import { answerValidator, assertValid, operationLabels, operationValidator } from "../entities/validation.ts";
import { badRequest } from "../core/errors.ts";
import { translate } from "../core/i18n.ts";
import { ok } from "../core/envelope.ts";
import { receiveFile } from "./intake.ts";
import { idempotent } from "./idempotency.ts";
import { honoursKey } from "../../src/schema/idempotency.ts";
import { rm } from "node:fs/promises";
import { runsInTransaction } from "../../src/schema/transaction.ts";

export type Method = "GET" | "POST" | "DELETE";

/** A call the server answers: what the OpenAPI document must list, and the route loop registers. */
export interface DeclaredCall {
  method: Method;
  url: string;
  access: OperationAccess;
  source: "entity" | "transition" | "operation";
  /** A write sent again with its Idempotency-Key is answered as before (server/http/idempotency.ts). */
  keyed: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route: public, signed-in, or the holders of a permission key. Static files have none. */
    access?: OperationAccess;
    /** The call takes a file: it takes its turn at the database itself, once the file has arrived. */
    file?: boolean;
  }
}

const METHOD: Record<CallKind, Method> = {
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

export const urlOf = (base: string | undefined, call: string) => `${base ?? "/merchant"}/${call}`;

/** Every call of the entities and operations, as the route loop registers them. */
export function declaredCalls(): DeclaredCall[] {
  const calls: DeclaredCall[] = [];
  for (const model of models.values()) {
    for (const [kind, call] of Object.entries(model.x.calls) as [CallKind, string][])
      calls.push({
        method: METHOD[kind],
        url: urlOf(model.x.basePath, call),
        access: accessOfCall(model.schema, kind),
        source: "entity",
        keyed: METHOD[kind] !== "GET",
      });
    // Transitions of one entity may share a call; the action in the body tells them apart, and the
    // engine checks that action's permission.
    for (const call of new Set([...model.stateFields.values()].flat().map((t) => t.call)))
      calls.push({
        method: "POST",
        url: urlOf(model.x.basePath, call),
        access: "signed-in",
        source: "transition",
        keyed: true,
      });
  }
  for (const operation of Object.values(operationSchemas)) {
    const x = operation["x-operation"];
    calls.push({
      method: x.method,
      url: urlOf(x.basePath, operation.$id),
      access: x.permission,
      source: "operation",
      keyed: honoursKey(x),
    });
  }
  return calls;
}

// ---------------------------------------------------------------- pairing operations with handlers

/**
 * Each declared operation's one handler, from the area its declaration names. Throws, listing every
 * mismatch, when an operation has no handler, a handler has no declaration, or the two disagree on the area.
 */
export function pairHandlers(areas: Area[]): Map<OperationCall, Handler<never>> {
  const problems: string[] = [];
  const paired = new Map<OperationCall, Handler<never>>();
  const names = new Set<string>();
  for (const area of areas) {
    if (names.has(area.name)) problems.push(`area "${area.name}" is given twice`);
    names.add(area.name);
    for (const [call, handler] of Object.entries(area.handlers) as [OperationCall, Handler<never>][]) {
      const operation = operationSchemas[call] as JsonSchemaOperation | undefined;
      if (!operation) problems.push(`server/domain/${area.name}: handler "${call}" has no declaration`);
      else if (operation["x-operation"].area !== area.name)
        problems.push(
          `server/domain/${area.name}: handler "${call}" is declared in area "${operation["x-operation"].area}"`,
        );
      else paired.set(call, handler);
    }
  }
  for (const operation of Object.values(operationSchemas)) {
    const area = operation["x-operation"].area;
    if (!paired.has(operation.$id as OperationCall) && !problems.some((p) => p.includes(`"${operation.$id}"`)))
      problems.push(`schemas/operations/${operation.$id}.json: no handler in server/domain/${area}`);
  }
  if (problems.length) throw new Error(`operations and handlers do not pair up:\n  ${problems.join("\n  ")}`);
  return paired;
}

/**
 * The intake of each operation that takes a file (body: multipart), from the area of its handler. Throws,
 * listing every mismatch, when such an operation has none or an intake belongs to no such operation.
 */
export function pairIntakes(areas: Area[]): Map<OperationCall, FileIntake<never>> {
  const problems: string[] = [];
  const paired = new Map<OperationCall, FileIntake<never>>();
  for (const area of areas)
    for (const [call, intake] of Object.entries(area.files ?? {}) as [OperationCall, FileIntake<never>][]) {
      const operation = operationSchemas[call] as JsonSchemaOperation | undefined;
      if (operation?.["x-operation"].body !== "multipart" || operation["x-operation"].area !== area.name)
        problems.push(`server/domain/${area.name}: file intake "${call}" is for no multipart operation of this area`);
      else paired.set(call, intake);
    }
  for (const operation of Object.values(operationSchemas))
    if (operation["x-operation"].body === "multipart" && !paired.has(operation.$id as OperationCall))
      problems.push(
        `schemas/operations/${operation.$id}.json takes a file: no intake in server/domain/${operation["x-operation"].area} (Area.files)`,
      );
  if (problems.length) throw new Error(`file intakes do not pair up:\n  ${problems.join("\n  ")}`);
  return paired;
}

// ---------------------------------------------------------------- operation input

/** A query-string value as the schema's type; left as text when it is not one (the validator says so). */
function fromQuery(raw: string, type: unknown): unknown {
  if ((type === "integer" || type === "number") && raw.trim() !== "" && Number.isFinite(Number(raw)))
    return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

/** The declared parameters of a GET or DELETE, typed as its schema says (lists as comma lists). */
function queryInput(operation: JsonSchemaOperation, query: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const raw = operation.properties[name];
    if (!raw) {
      input[name] = value;
      continue;
    }
    const text = Array.isArray(value) ? value.join(",") : String(value);
    const { node } = resolveDefs(defsSchema, raw);
    if (node.type !== "array") input[name] = fromQuery(text, node.type);
    else {
      const itemType = resolveDefs(defsSchema, node.items ?? {}).node.type;
      input[name] = text === "" ? [] : text.split(",").map((v) => fromQuery(v, itemType));
    }
  }
  return input;
}

/** An answer that is not what its operation's schema says (checkAnswers): the server's fault, a 500. */
export class AnswerMismatchError extends Error {}

/** What the route of a call that takes a file needs: its intake, and where files arrive. */
interface FileRoute {
  intake: FileIntake<never>;
  incomingDir: string;
}

function operationRoute(
  operation: JsonSchemaOperation,
  handler: Handler<never>,
  checkAnswers: boolean,
  file?: FileRoute,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const x = operation["x-operation"];
  const labels = operationLabels(operation);
  const target = { ...labels, schema: operation };
  const validate = operationValidator(operation.$id);
  const validateAnswer = checkAnswers ? answerValidator(operation.$id) : undefined;
  const pageOf: EntityModel | undefined = x.answer === "page" && x.entity ? modelOf(x.entity) : undefined;
  const inTx = runsInTransaction(x);
  return async (request, reply) => {
    const ctx = request.ctx!;
    const query = (request.query ?? {}) as Record<string, unknown>;
    let input: Record<string, unknown>;
    let list: ListQuery = { page: 1, limit: 10, sort: "id", order: "desc", where: [] };
    if (x.method === "POST" && x.body !== "multipart") input = (request.body ?? {}) as Record<string, unknown>;
    else {
      // A page of records: the declared parameters are the operation's, the rest the entity's list's.
      const own = Object.fromEntries(Object.entries(query).filter(([k]) => !pageOf || k in operation.properties));
      input = queryInput(operation, own);
      if (pageOf)
        list = parseListQuery(
          pageOf,
          Object.fromEntries(Object.entries(query).filter(([k]) => !(k in operation.properties))),
          ctx.lng,
        );
    }
    await assertValid(ctx, labels, validate, input);
    // A file arrives first, on disk, read as far as its intake needs; then the turn and the transaction.
    let received: (ReceivedFile & { prepared?: unknown }) | undefined;
    const run = async (ctx: Ctx) => {
      // Every id it names, at any depth, is a record the caller may see.
      await checkRelations(sqlOf(ctx), ctx, target, input);
      return handler({ ctx, input: input as never, list, request, reply, file: received });
    };
    let data: unknown;
    let limit: FileLimit | undefined;
    try {
      if (file) {
        limit = await file.intake.limit(ctx, input as never, request);
        received = await receiveFile(request, limit, file.incomingDir, ctx.lng);
        received.prepared = await file.intake.prepare?.(ctx, received, input as never);
        await ctx.turn?.take();
      }
      data = inTx ? await inTransaction(ctx, run) : await run(ctx);
    } finally {
      // A handler that keeps the file has moved it, and taken what was set aside for it.
      if (received) await rm(received.path, { force: true });
      await limit?.release?.();
    }
    // A handler that answered by itself (a stream it kept open, hijacked) has nothing to check: the reply it
    // returned is a thenable, awaited to the end of its response.
    if (reply.sent) return reply;
    if (validateAnswer && !validateAnswer(data)) {
      const problems = validateAnswer.errors!.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
      const error = new AnswerMismatchError(
        `${operation.$id} answered what schemas/operations/${operation.$id}.json does not declare: ${problems.join("; ")}`,
      );
      console.error(error.message); // the 500 itself says nothing of the server's insides
      throw error;
    }
    return x.answer === "file" ? reply : ok(data ?? null);
  };
}

// ---------------------------------------------------------------- entity calls

const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
/** Deletes take ids in the query; a few SPEC calls send them in a body. */
const idsOf = (request: FastifyRequest, ctx: Ctx) => parseIds(queryOf(request).id ?? bodyOf(request).id, ctx.lng);

type EntityHandler = (ctx: Ctx, request: FastifyRequest, model: EntityModel) => Promise<unknown>;

const ENTITY_HANDLERS: Record<Exclude<CallKind, "export">, EntityHandler> = {
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
  get: (ctx, _r, m) => engine.getSingleton(ctx, m),
  set: (ctx, r, m) => engine.setSingleton(ctx, m, r.body),
};

function entityRoute(model: EntityModel, kind: CallKind) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = request.ctx!;
    if (kind !== "export") return ok(await ENTITY_HANDLERS[kind](ctx, request, model));
    // format=csv keeps CSV; the default is an XLSX workbook.
    const { format = "xlsx", ...query } = queryOf(request);
    if (format !== "xlsx" && format !== "csv")
      throw badRequest([
        { field: "format", keyword: "enum", message: translate(ctx.lng, "validation:enum", { field: "format" }) },
      ]);
    const list = parseListQuery(model, { ...query, page: "1", limit: "1" }, ctx.lng);
    return sendExport(ctx, model, list, format, reply);
  };
}

// ---------------------------------------------------------------- the loop

export interface RouteOptions {
  maxUploadBytes: number;
  /** Where uploaded files arrive before their call takes them (server/http/intake.ts). */
  incomingDir: string;
  /** Each operation's answer is checked against the answer its schema declares (AppOptions.checkAnswers). */
  checkAnswers?: boolean;
}

export function registerRoutes(app: FastifyInstance, areas: Area[], options: RouteOptions): void {
  const check = options.checkAnswers ?? false;
  const handlers = pairHandlers(areas);
  const intakes = pairIntakes(areas);
  for (const model of models.values()) {
    for (const [kind, call] of Object.entries(model.x.calls) as [CallKind, string][]) {
      const handler = entityRoute(model, kind);
      app.route({
        method: METHOD[kind],
        url: urlOf(model.x.basePath, call),
        config: { access: accessOfCall(model.schema, kind) },
        // A write sent again with its Idempotency-Key is answered as before, not applied twice.
        handler: METHOD[kind] === "GET" ? handler : idempotent(handler),
      });
    }
    for (const call of new Set([...model.stateFields.values()].flat().map((t) => t.call))) {
      app.post(
        urlOf(model.x.basePath, call),
        { config: { access: "signed-in" } },
        idempotent(async (request) => ok(await engine.runTransition(request.ctx!, model, call, request.body))),
      );
    }
  }
  const multipart: JsonSchemaOperation[] = [];
  for (const operation of Object.values(operationSchemas)) {
    const x = operation["x-operation"];
    if (x.body === "multipart") {
      multipart.push(operation);
      continue;
    }
    const handler = operationRoute(operation, handlers.get(operation.$id as OperationCall)!, check);
    app.route({
      method: x.method,
      url: urlOf(x.basePath, operation.$id),
      config: { access: x.permission },
      handler: honoursKey(x) ? idempotent(handler) : handler,
    });
  }
  // Multipart only on the calls that take a file: every other route keeps the JSON body and its limit.
  if (multipart.length)
    app.register(async (scope) => {
      await scope.register(fastifyMultipart, {
        limits: { fileSize: options.maxUploadBytes, files: 1, fields: 10, fieldSize: 64 * 1024 },
      });
      for (const operation of multipart)
        scope.post(
          urlOf(operation["x-operation"].basePath, operation.$id),
          { config: { access: operation["x-operation"].permission, file: true } },
          operationRoute(operation, handlers.get(operation.$id as OperationCall)!, check, {
            intake: intakes.get(operation.$id as OperationCall)!,
            incomingDir: options.incomingDir,
          }),
        );
    });
}

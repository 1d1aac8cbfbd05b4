// The composition root: Fastify with the one error handler and the one envelope; the domain areas,
// their handlers paired with the declared operations and their hooks and effects handed to the engine;
// the one route loop; authentication decided by the matched route; the console's static files.
import Fastify, { type FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { existsSync } from "node:fs";
import type { Db } from "../db/db.ts";
import { requirePermission, type Ctx, type Principal } from "../entities/context.ts";
import type { Domain } from "../entities/domain.ts";
import type { Area } from "../domain/area.ts";
import { domainAreas } from "../domain/index.ts";
import { MAX_UPLOAD_BYTES } from "../domain/uploads/index.ts";
import { authenticate } from "./auth.ts";
import { badRequest, HttpError } from "./errors.ts";
import { badTextIn, jsonDepth, MAX_JSON_DEPTH } from "./input.ts";
import { fieldMessage } from "../entities/validation.ts";
import { languageOf, translate } from "./i18n.ts";
import { registerRoutes } from "./routes.ts";

declare module "fastify" {
  interface FastifyRequest {
    ctx?: Ctx;
  }
  interface FastifyInstance {
    /** Every API route the app serves ("GET /merchant/goods-list"), for the checks against the declarations. */
    servedCalls: string[];
  }
}

export interface AppOptions {
  db: Db;
  logger?: boolean | Record<string, unknown>;
  /** Built console (dist/console) to serve at /, with client-side routing. */
  consoleDir?: string;
  /** Addresses of trusted reverse proxies, for the client address used by login throttling. */
  trustProxy?: boolean | string;
  /** Uploaded files served at /uploads/; private ones go to its sibling private/. Default: a temporary folder. */
  uploadDir?: string;
  /** The domain areas; default: all of them (server/domain/index.ts). */
  areas?: Area[];
}

/** The areas' hooks and effects, as the engine reads them from the context. */
function domainOf(areas: Area[]): Domain {
  const hooks = new Map<string, NonNullable<Area["hooks"]>[string]>();
  const effects = new Map<string, NonNullable<Area["effects"]>[string]>();
  for (const area of areas) {
    for (const [entity, entityHooks] of Object.entries(area.hooks ?? {})) {
      if (hooks.has(entity)) throw new Error(`entity "${entity}" has hooks in two areas`);
      hooks.set(entity, entityHooks);
    }
    for (const [key, effect] of Object.entries(area.effects ?? {})) {
      if (effects.has(key)) throw new Error(`transition "${key}" has side effects in two areas`);
      effects.set(key, effect);
    }
  }
  return { hooks, effects };
}

const ANONYMOUS: Principal = {
  kind: "agent",
  id: 0,
  agentId: 0,
  agentPath: "/",
  isAdmin: false,
  permissions: new Set(),
  name: "",
  account: "",
};
const API = /^\/(merchant|admin)\//;
/** Files, not console routes: a missing one is a 404, never the console's index.html (a browser
 * asking for a chunk of an older build must see it fail, so the console can offer a retry). */
const FILES = /^\/(uploads|assets)(\/|$)/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const areas = options.areas ?? domainAreas({ uploadDir: options.uploadDir });
  const domain = domainOf(areas);
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
  });
  const { db } = options;
  const served: string[] = [];
  app.decorate("servedCalls", served);
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (API.test(route.url)) for (const method of methods) if (method !== "HEAD") served.push(`${method} ${route.url}`);
  });
  // SPEC §7 clients send a JSON content type on every request, DELETEs without a body included.
  const parseJson = app.getDefaultJsonParser("error", "error"); // with its prototype-poisoning guards
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    // Nesting is bounded before parsing: JSON.parse, the validators and every walk over the body recurse.
    if (jsonDepth(body as string) > MAX_JSON_DEPTH)
      return done(new HttpError(400, "tooDeep", { limit: MAX_JSON_DEPTH }), undefined);
    parseJson(request, body as string, done);
  });
  const serveConsole = options.consoleDir !== undefined && existsSync(options.consoleDir);

  // Who may call is a fact of the matched route (its config), never of the URL's text: a declared call
  // without "public" needs a valid token, whatever way its address was written.
  app.addHook("onRequest", async (request) => {
    const lng = languageOf(request.headers.locale);
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === "public") {
      request.ctx = { db, lng, principal: ANONYMOUS, domain };
      return;
    }
    const { principal, tokenHash } = await authenticate(db, request.headers.authorization);
    request.ctx = { db, lng, principal, tokenHash, domain };
    if (access !== "signed-in") requirePermission(request.ctx, access);
  });

  // Text the database cannot store (NUL) or that is not text (a lone surrogate, from a \ud800 escape or
  // a broken query string) is refused before any handler sees it, wherever it sits in the input.
  app.addHook("preHandler", async (request) => {
    if (!request.routeOptions.config?.access) return;
    const lng = request.ctx?.lng ?? languageOf(request.headers.locale);
    const bad = badTextIn(request.query, []) ?? badTextIn(request.body, []);
    if (bad !== undefined) throw badRequest([fieldMessage(bad, "badText", lng, { field: bad || "-" })]);
  });

  app.setErrorHandler((error, request, reply) => {
    const lng = request.ctx?.lng ?? languageOf(request.headers.locale);
    if (error instanceof HttpError) {
      const message = translate(lng, error.key.includes(":") ? error.key : `errors:${error.key}`, error.params);
      return reply.status(error.status).send({ code: error.status, message, data: error.data });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: the client's to fix.
      return reply.status(status).send({ code: status, message: translate(lng, "errors:badQuery"), data: null });
    }
    request.log.error(error);
    return reply.status(500).send({ code: 500, message: translate(lng, "errors:internal"), data: null });
  });

  app.setNotFoundHandler((request, reply) => {
    if (API.test(request.url) || FILES.test(request.url) || !serveConsole) {
      const lng = languageOf(request.headers.locale);
      return reply.status(404).send({ code: 404, message: translate(lng, "errors:unknownCall"), data: null });
    }
    return reply.sendFile("index.html");
  });

  registerRoutes(app, areas, { maxUploadBytes: MAX_UPLOAD_BYTES });
  for (const area of areas) await area.setup?.(app);

  if (serveConsole) {
    // Files are looked up per request, so a console rebuilt under a running server is served at once.
    await app.register(fastifyStatic, { root: options.consoleDir!, wildcard: true });
  }
  return app;
}

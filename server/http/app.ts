// The composition root: Fastify with the one error handler and the one envelope, authentication on
// every /merchant and /admin call but the public ones, the generated entity routes, the domain
// modules, uploads, the OpenAPI document, and the console's static files.
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { existsSync } from "node:fs";
import type { Db } from "../db/db.ts";
import type { Ctx, Principal } from "../entities/context.ts";
import { registerEntityRoutes } from "../entities/routes.ts";
import { registerAccountHooks } from "../domain/accounts.ts";
import { registerGoodsRoutes } from "../domain/goods.ts";
import { registerMachineRoutes } from "../domain/machines.ts";
import { registerSessionRoutes } from "../domain/session.ts";
import { registerUploadRoutes } from "../domain/uploads.ts";
import openapi from "../../src/generated/openapi.json" with { type: "json" };
import { authenticate } from "./auth.ts";
import { HttpError } from "./errors.ts";
import { languageOf, translate } from "./i18n.ts";

declare module "fastify" {
  interface FastifyRequest {
    ctx?: Ctx;
  }
  interface FastifyContextConfig {
    public?: boolean;
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

let hooksRegistered = false;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  if (!hooksRegistered) {
    registerAccountHooks();
    hooksRegistered = true;
  }
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
  });
  const { db } = options;
  // SPEC §7 clients send a JSON content type on every request, DELETEs without a body included.
  const parseJson = app.getDefaultJsonParser("error", "error"); // with its prototype-poisoning guards
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) =>
    body === "" ? done(null, undefined) : parseJson(request, body as string, done),
  );
  const serveConsole = options.consoleDir !== undefined && existsSync(options.consoleDir);

  app.addHook("onRequest", async (request) => {
    const lng = languageOf(request.headers.locale);
    if (!API.test(request.url) || request.routeOptions.config?.public || !request.routeOptions.url) {
      request.ctx = { db, lng, principal: ANONYMOUS };
      return;
    }
    const { principal, tokenHash } = await authenticate(db, request.headers.authorization);
    request.ctx = { db, lng, principal, tokenHash };
  });

  const ctxOf = (request: FastifyRequest): Ctx => request.ctx!;

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

  app.get("/merchant/openapi.json", { config: { public: true } }, async () => openapi);
  registerSessionRoutes(app, ctxOf);
  registerGoodsRoutes(app, ctxOf);
  registerMachineRoutes(app, ctxOf);
  registerEntityRoutes(app, ctxOf);
  registerUploadRoutes(app, ctxOf, options.uploadDir);

  if (serveConsole) {
    // Files are looked up per request, so a console rebuilt under a running server is served at once.
    await app.register(fastifyStatic, { root: options.consoleDir!, wildcard: true });
  }
  return app;
}

// The composition root: Fastify with the one error handler and the one envelope; the domain areas,
// their handlers paired with the declared operations and their hooks and effects handed to the engine;
// the one route loop; authentication decided by the matched route; the console's static files.
import Fastify, { type FastifyInstance } from "fastify";
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Db } from "./db/db.ts";
import { requirePermission, type Ctx, type Principal } from "./entities/context.ts";
import type { Domain, EntityHooks, TransitionEffect } from "./entities/domain.ts";
import { forgetLargeResults } from "./entities/repository.ts";
import type { Area } from "./domain/area.ts";
import { domainAreas } from "./domain/index.ts";
import { MAX_UPLOAD_BYTES } from "./domain/uploads/index.ts";
import { Sessions } from "./domain/session/auth.ts";
import { Gate, Turn } from "./core/gate.ts";
import { badRequest, HttpError } from "./core/errors.ts";
import { badTextIn, jsonDepth, MAX_JSON_DEPTH } from "./http/input.ts";
import { fieldMessage } from "./entities/validation.ts";
import { languageOf, translate } from "./core/i18n.ts";
import { registerRoutes, urlOf } from "./http/routes.ts";
import { errorEnvelope } from "./core/envelope.ts";
import { sweepIncoming } from "./http/intake.ts";
import { compressAnswers, serveConsoleFiles } from "./http/delivery.ts";
import { LOG_SERIALIZERS, observe, requestIdOf } from "./http/observe.ts";
import { operationSchemas } from "../src/generated/operations.ts";
import { assertLicensed, licenceKeysOf, UNLICENSED_CALLS, type LicenceKeys } from "./domain/licence/index.ts";

declare module "fastify" {
  interface FastifyRequest {
    ctx?: Ctx;
  }
  interface FastifyInstance {
    /** Every API route the app serves ("GET /merchant/goods-list"), for the checks against the declarations. */
    servedCalls: string[];
    /** The sessions this instance trusts for a second (server/domain/session/auth.ts). */
    sessions: Sessions;
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
  /** How long a client may take (milliseconds); default TIMEOUTS. */
  timeouts?: Partial<typeof TIMEOUTS>;
  /** How long a session read is trusted (default SESSION_TRUST_MS) and the clock it is timed by. */
  sessions?: ConstructorParameters<typeof Sessions>[1];
  /**
   * Checks every operation's answer against the answer its schema declares (the source of the generated
   * `<Call>Answer` types) and fails the call with a 500 when they differ: on in the tests, so that the types
   * the console relies on stay true; off in production, where it would only cost time.
   */
  checkAnswers?: boolean;
  /** API calls at work at once on PGlite (default PGLITE_AT_WORK; tests lower it). */
  atWork?: number;
  /** The Ed25519 public keys serial numbers are checked with; default the vendor's, built in (the tests pass their own). */
  licenceKeys?: LicenceKeys;
}

/**
 * API requests at work at once on PGlite (one statement at a time); the others wait their turn in the
 * order they came. Under 50 connections, 8 kept the worst answer near half a second in most runs where 16
 * or no limit let some wait 2 to 10 s (npm run bench). PostgreSQL's pool queues in order already.
 */
export const PGLITE_AT_WORK = 8;

/**
 * A client that sends slowly must not hold a connection: the whole request (headers and body) must
 * arrive within `request` (answered 408), the headers within `headers`, and a connection may sit idle
 * (nothing sent or received, keep-alive included) for `idle` at most.
 */
export const TIMEOUTS = { request: 60_000, headers: 15_000, idle: 120_000 };

/**
 * The console's page: scripts only from this origin (ajv compiles the form validators with new Function,
 * hence 'unsafe-eval'; no inline script), inline styles for antd's CSS-in-JS, images also as data: and
 * blob: (previews) and from https: (pictures given as addresses), fonts local, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The areas' hooks and effects, as the engine reads them from the context. */
function domainOf(areas: Area[]): Domain {
  const hooks = new Map<string, EntityHooks>();
  const effects = new Map<string, TransitionEffect>();
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
/** The routes an expired system still answers (server/domain/licence). */
const UNLICENSED = new Set(
  Object.values(operationSchemas)
    .filter((o) => UNLICENSED_CALLS.has(o.$id))
    .map((o) => urlOf(o["x-operation"].basePath, o.$id)),
);
/** Files, not console routes: a missing one is a 404, never the console's index.html (a browser
 * asking for a chunk of an older build must see it fail, so the console can offer a retry). */
const FILES = /^\/(uploads|assets)(\/|$)/;

/** Node's HTTP server with the request, header and idle timeouts. */
function serverWith(timeouts: typeof TIMEOUTS) {
  return (handler: Parameters<typeof createServer>[1]): Server => {
    const server: Server = createServer(
      {
        requestTimeout: timeouts.request,
        headersTimeout: Math.min(timeouts.headers, timeouts.request),
        // Node checks the request timeout every connectionsCheckingInterval (30 s by default): check often
        // enough that a slow client is answered close to its limit.
        connectionsCheckingInterval: Math.max(50, Math.min(1000, timeouts.request / 4)),
      },
      handler,
    );
    server.setTimeout(timeouts.idle);
    return server;
  };
}

/**
 * Errors Node meets before a request exists (too slow, headers too large, not HTTP): Fastify's own
 * answers, in the envelope, in the language the connection last asked for. A response already under way
 * is not written into.
 */
function clientErrorsIn(socketLanguage: WeakMap<Socket, string | undefined>) {
  return (error: Error, socket: Socket): void => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ECONNRESET" || socket.destroyed) return;
    const [status, reason, key] =
      code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "errors:requestTimeout"]
        : code === "HPE_HEADER_OVERFLOW"
          ? [431, "Request Header Fields Too Large", "errors:badQuery"]
          : [400, "Bad Request", "errors:badQuery"];
    const lng = languageOf(socketLanguage.get(socket));
    const body = JSON.stringify({ code: status, message: translate(lng, key), data: null });
    // Node keeps the response in progress on the socket (a keep-alive socket may have answered before).
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inProgress?.headersSent)
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    socket.destroy(error);
  };
}

/** SPEC §7 clients send a JSON content type on every request, DELETEs without a body included. */
function parseJsonBounded(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error"); // with its prototype-poisoning guards
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    // Nesting is bounded before parsing: JSON.parse, the validators and every walk over the body recurse.
    if (jsonDepth(body as string) > MAX_JSON_DEPTH)
      return done(new HttpError(400, "tooDeep", { limit: MAX_JSON_DEPTH }), undefined);
    parseJson(request, body as string, done);
  });
}

/**
 * Who may call is a fact of the matched route (its config), never of the URL's text: a declared call
 * without "public" needs a valid token, whatever way its address was written. Then the licence, and on
 * PGlite the call's turn at the database.
 */
function authenticateCalls(
  app: FastifyInstance,
  db: Db,
  domain: Domain,
  gate: Gate | undefined,
  socketLanguage: WeakMap<Socket, string | undefined>,
): void {
  app.addHook("onRequest", async (request, reply) => {
    socketLanguage.set(request.raw.socket, request.headers.locale as string | undefined);
    const lng = languageOf(request.headers.locale);
    const access = request.routeOptions.config?.access;
    if (access === undefined) {
      request.ctx = { db, lng, principal: ANONYMOUS, domain };
      return;
    }
    // The call's turn at the database ends with its response, however that ends.
    const turn = new Turn(gate);
    reply.raw.once("close", () => turn.end());
    if (access === "public") request.ctx = { db, lng, principal: ANONYMOUS, domain, turn };
    else {
      const { principal, tokenHash } = await app.sessions.authenticate(request.headers.authorization);
      request.ctx = { db, lng, principal, tokenHash, domain, turn };
      if (access !== "signed-in") requirePermission(request.ctx, access);
    }
    // Who the caller is comes first (a stranger learns nothing of the licence), then the licence.
    if (!UNLICENSED.has(request.routeOptions.url!)) await assertLicensed(db, app.licenceKeys);
  });

  // On PGlite an API call waits its turn once its body has arrived (a slow sender holds no turn), and
  // keeps it until its answer is sent or its connection is gone. A call that takes a file takes its
  // turn itself, once the file is on disk (server/http/intake.ts).
  if (gate)
    app.addHook("preHandler", async (request) => {
      const config = request.routeOptions.config;
      if (!config?.access || config.file) return;
      await request.ctx!.turn!.take();
    });

  // Text the database cannot store (NUL) or that is not text (a lone surrogate, from a \ud800 escape or
  // a broken query string) is refused before any handler sees it, wherever it sits in the input.
  app.addHook("preHandler", async (request) => {
    if (!request.routeOptions.config?.access) return;
    const lng = request.ctx?.lng ?? languageOf(request.headers.locale);
    const bad = badTextIn(request.query, []) ?? badTextIn(request.body, []);
    if (bad !== undefined) throw badRequest([fieldMessage(bad, "badText", lng, { field: bad || "-" })]);
  });
}

/**
 * Headers: no API answer (records, exports, errors) is kept by a browser or a proxy; the console's page
 * gets its Content-Security-Policy and may not be framed. And what an answered write makes this instance
 * read again.
 */
function answerHeaders(app: FastifyInstance, db: Db): void {
  app.addHook("onSend", async (request, reply, payload) => {
    // A write may have signed someone out or changed an account or a role: this instance reads every
    // session again, and counts every list's total again, and the client hears of its write only after that.
    // Only a signed-in call's write that succeeded does so: a stranger's requests, 404s and refusals
    // change nothing, and must not make the instance read everything again.
    if (
      request.method !== "GET" &&
      request.method !== "HEAD" &&
      reply.statusCode < 400 &&
      request.ctx?.tokenHash !== undefined
    ) {
      app.sessions.forget();
      forgetLargeResults(db);
    }
    reply.header("x-content-type-options", "nosniff");
    if (request.routeOptions.config?.access !== undefined || API.test(request.url))
      reply.header("cache-control", "no-store");
    else if (
      !FILES.test(request.url) &&
      !reply.hasHeader("content-security-policy") &&
      String(reply.getHeader("content-type") ?? "").startsWith("text/html")
    ) {
      reply.header("content-security-policy", CONSOLE_CSP);
      reply.header("x-frame-options", "DENY");
    }
    return payload;
  });
}

/** The one error handler and the one envelope; unknown addresses a 404, or the console's page. */
function answerErrors(app: FastifyInstance, serveConsole: boolean): void {
  app.setErrorHandler((error, request, reply) => {
    const lng = request.ctx?.lng ?? languageOf(request.headers.locale);
    if (error instanceof HttpError) {
      // When to come back: the lockout's minutes for a throttled sign-in, a second when hashing is busy.
      if (error.status === 429 && typeof error.params.minutes === "number")
        reply.header("retry-after", String(error.params.minutes * 60));
      if (error.status === 503) reply.header("retry-after", "1");
      return reply.status(error.status).send(errorEnvelope(error, lng));
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
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const areas = options.areas ?? domainAreas({ uploadDir: options.uploadDir });
  const { db } = options;
  // The language each connection last asked for, for the 408 that Node answers outside any request.
  const socketLanguage = new WeakMap<Socket, string | undefined>();
  const app = Fastify({
    // JSON lines; a request's lines carry its id (reqId), the id its answer carries (server/http/observe.ts).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: LOG_SERIALIZERS }
      : false,
    genReqId: requestIdOf,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 2 * 1024 * 1024,
    serverFactory: serverWith({ ...TIMEOUTS, ...options.timeouts }),
    clientErrorHandler: clientErrorsIn(socketLanguage),
  });
  const served: string[] = [];
  app.decorate("servedCalls", served);
  app.decorate("sessions", new Sessions(db, options.sessions));
  app.decorate("licenceKeys", licenceKeysOf(options.licenceKeys));
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (API.test(route.url)) for (const method of methods) if (method !== "HEAD") served.push(`${method} ${route.url}`);
  });
  parseJsonBounded(app);
  await compressAnswers(app);
  const gate = db.kind === "pglite" ? new Gate(options.atWork ?? PGLITE_AT_WORK) : undefined;
  observe(app, db, gate, app.licenceKeys);
  authenticateCalls(app, db, domainOf(areas), gate, socketLanguage);
  answerHeaders(app, db);
  const serveConsole = options.consoleDir !== undefined && existsSync(options.consoleDir);
  answerErrors(app, serveConsole);

  // Uploads arrive beside the stored files (one file system: a kept file is moved, not copied).
  const incomingDir = options.uploadDir
    ? join(dirname(options.uploadDir), "incoming")
    : join(tmpdir(), "merchant-console-incoming");
  app.addHook("onReady", () => sweepIncoming(incomingDir));
  registerRoutes(app, areas, { maxUploadBytes: MAX_UPLOAD_BYTES, incomingDir, checkAnswers: options.checkAnswers });
  for (const area of areas) await area.setup?.(app, db);

  if (serveConsole) {
    // Files are looked up per request, so a console rebuilt under a running server is served at once.
    await serveConsoleFiles(app, options.consoleDir!);
  }
  return app;
}

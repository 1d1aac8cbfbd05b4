// Live screens (issue 32): the stream each console tab keeps open, and its JSON form for a client that
// asks once. What the hub tells (server/entities/live.ts) is chosen per caller; this area opens the hub
// with the app, serves the stream, and ends it when its connection goes or its session does.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { permissionOfCall } from "../../../src/schema/permissions.ts";
import { notFound } from "../../core/errors.ts";
import { requirePermission, scopeOf, sqlOf } from "../../entities/context.ts";
import { CURSOR, LiveHub, sseMessage } from "../../entities/live.ts";
import { PresenceBoard } from "../../entities/presence.ts";
import { findById } from "../../entities/repository.ts";
import { models } from "../../model/model.ts";
import { defineArea } from "../area.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** What changed, told to the open consoles (server/entities/live.ts). */
    live: LiveHub;
    /** Who is editing what (server/entities/presence.ts). */
    presence: PresenceBoard;
  }
}

/** A comment this often keeps the connection through proxies, and checks that the session still holds. */
export const HEARTBEAT_MS = 25_000;

const wantsStream = (request: FastifyRequest) => String(request.headers.accept ?? "").includes("text/event-stream");

export const live = defineArea({
  name: "live",
  setup: async (app: FastifyInstance, db) => {
    const hub = new LiveHub(db);
    await hub.start();
    const presence = new PresenceBoard(db, hub);
    await presence.start();
    app.decorate("live", hub);
    app.decorate("presence", presence);
    app.addHook("onClose", async () => {
      await presence.close();
      await hub.close();
    });
  },
  handlers: {
    // An edit form open (or closed): a record the caller may change, and may read (another agent's is not
    // found, as its detail is not).
    "live-presence": async ({ ctx, input, request }) => {
      const model = models.get(input.entity);
      if (!model?.x.calls.update) throw notFound();
      requirePermission(ctx, permissionOfCall(model.name, "update"));
      const record = await findById(sqlOf(ctx), model, scopeOf(ctx.principal), input.id);
      if (!record) throw notFound();
      const path = model.scoped ? String(record.agent_path) : null;
      const editors = await request.server.presence.claim(
        sqlOf(ctx),
        ctx.principal,
        model,
        { id: input.id, version: Number(record.version), path },
        input.editing,
      );
      return { editors };
    },
    "live-events": async ({ ctx, input, request, reply }) => {
      const hub = request.server.live;
      const header = request.headers["last-event-id"];
      const after = typeof header === "string" && CURSOR.test(header) ? header : input.after;
      if (!wantsStream(request)) return hub.since(ctx.principal, after);
      // The stream hears what changes from now on before it catches up (what it would miss between the
      // two is told twice rather than never); what it hears meanwhile waits behind the catch-up.
      const waiting: string[] = [];
      let open = false;
      const raw = reply.raw;
      const stream = {
        principal: ctx.principal,
        send: (message: string) => void (open ? raw.write(message) : waiting.push(message)),
      };
      const remove = hub.add(stream);
      const authorization = request.headers.authorization;
      const heartbeat = setInterval(() => {
        if (!open) return;
        void request.server.sessions
          .authenticate(authorization)
          .then(({ principal }) => {
            stream.principal = principal;
            raw.write(": \n\n");
          })
          .catch(() => raw.end());
      }, HEARTBEAT_MS);
      // However it ends (the client gone, even while it catches up; the session over; the server closing).
      raw.once("close", () => {
        clearInterval(heartbeat);
        remove();
      });
      let caughtUp;
      try {
        caughtUp = await hub.since(ctx.principal, after);
      } catch (error) {
        clearInterval(heartbeat);
        remove();
        throw error;
      }
      // A stream holds no turn at the database: it waits on changes.
      ctx.turn?.end();
      reply.hijack();
      if (raw.destroyed) return reply; // gone while it caught up: closed already
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        // nginx and others send each message on at once instead of gathering the answer.
        "x-accel-buffering": "no",
      });
      // Never timed out as idle: the heartbeat is what keeps it, and ends it when the session does.
      raw.socket?.setTimeout(0);
      raw.write("retry: 2000\n\n");
      raw.write(
        caughtUp.reset
          ? sseMessage("reset", caughtUp.cursor, { reset: true })
          : sseMessage("change", caughtUp.cursor, { changes: caughtUp.changes }),
      );
      for (const message of waiting.splice(0)) raw.write(message);
      open = true;
      return reply;
    },
  },
});

// An answer the console can follow while it is worked out (an import's check of 100,000 rows): when the
// request accepts application/x-ndjson, the reply is JSON lines, {"progress": …} as the work goes on
// (at most five a second), and last the call's envelope, success or refusal (its code the status the
// plain answer would have had). A client that does not ask gets the plain answer, as from any call.
import { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../core/errors.ts";
import type { Language } from "../core/i18n.ts";
import { errorEnvelope, ok } from "../core/envelope.ts";

export const PROGRESS_TYPE = "application/x-ndjson";

/** The least time between two progress lines. */
const EVERY_MS = 200;

export type Report = (progress: object) => void;

/**
 * Runs work, answering its result as the call's data; with progress lines first when the client asks.
 * The reply (streamed) is returned at once and ends with the work's envelope.
 */
export async function withProgress<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  lng: Language,
  work: (report: Report) => Promise<T>,
): Promise<T | FastifyReply> {
  if (!String(request.headers.accept ?? "").includes(PROGRESS_TYPE)) return work(() => {});
  const out = new PassThrough();
  // A client that went away: the work still ends as it would have (a confirm commits), unheard.
  out.on("error", () => {});
  let last = 0;
  const line = (value: unknown) => {
    if (!out.destroyed) out.write(`${JSON.stringify(value)}\n`);
  };
  const report: Report = (progress) => {
    const now = performance.now();
    if (now - last < EVERY_MS) return;
    last = now;
    line({ progress });
  };
  void work(report).then(
    (data) => out.end(`${JSON.stringify(ok(data ?? null))}\n`),
    (error: unknown) => {
      if (!(error instanceof HttpError)) request.log.error(error);
      const refusal = error instanceof HttpError ? error : new HttpError(500, "internal");
      out.end(`${JSON.stringify(errorEnvelope(refusal, lng))}\n`);
    },
  );
  return reply.header("content-type", `${PROGRESS_TYPE}; charset=utf-8`).header("cache-control", "no-store").send(out);
}

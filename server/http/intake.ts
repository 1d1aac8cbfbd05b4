// Files arrive before anything else of their call. The one multipart part named "file" is streamed to a
// file of its own on disk, held to the most bytes this caller may send now (the area says how many: a
// field's cap, the room left in a quota), before the call takes its turn at the database or opens its
// transaction. A slow or a large upload holds neither a turn nor a transaction, and never sits in memory.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import type { FileLimit, ReceivedFile } from "../domain/area.ts";
import type { Language } from "../../src/schema/constants.ts";
import { badRequest, type HttpError } from "../core/errors.ts";
import { translate } from "../core/i18n.ts";

/** A file error on the "file" field, in the caller's language. */
export const fileError = (lng: Language, key: string, params: Record<string, unknown> = {}): HttpError =>
  badRequest([
    { field: "file", keyword: key, message: translate(lng, key.includes(":") ? key : `errors:${key}`, params) },
  ]);

/**
 * Streams the part named "file" to a new file in `dir`, refusing it past `limit.bytes` while it arrives.
 * Any other part is drained unread; a second file is refused (the multipart plugin allows one).
 */
export async function receiveFile(
  request: FastifyRequest,
  limit: FileLimit,
  dir: string,
  lng: Language,
): Promise<ReceivedFile> {
  const missing = limit.missing ?? (() => fileError(lng, "uploadMissing"));
  if (!request.isMultipart()) throw missing();
  const { RequestFileTooLargeError, FilesLimitError } = request.server.multipartErrors;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${Date.now()}-${randomBytes(8).toString("hex")}`);
  let size = -1;
  let out: WriteStream | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: limit.bytes } })) {
      if (part.type !== "file") continue;
      if (part.fieldname !== "file" || size >= 0) {
        part.file.resume(); // not ours: drained, so the parser reaches the end
        continue;
      }
      out = createWriteStream(path, { flags: "wx" });
      await pipeline(part.file, out);
      size = out.bytesWritten;
    }
  } catch (error) {
    // The file is removed once its stream has let go of it: a removal before the stream's open would leave
    // the file the open then creates.
    if (out && !out.closed) await once(out, "close").catch(() => undefined);
    await rm(path, { force: true });
    if (error instanceof RequestFileTooLargeError) throw limit.tooLarge();
    if (error instanceof FilesLimitError) throw fileError(lng, "uploadMany");
    // Anything else is the body itself: no boundary, a part cut short, a broken header, a client gone.
    throw fileError(lng, "uploadBroken");
  }
  if (size <= 0) {
    await rm(path, { force: true });
    throw missing();
  }
  return { path, size, reserved: limit.reserved };
}

/** Removes what a stopped server left in `dir` (files older than an hour: no call takes that long). */
export async function sweepIncoming(dir: string, olderThanMs = 3_600_000): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const before = Date.now() - olderThanMs;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() && info.mtimeMs < before) await rm(path, { force: true });
  }
}

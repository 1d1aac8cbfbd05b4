// The file intake (server/http/intake.ts): a file refused while it arrives leaves nothing in the incoming
// folder, at the moment its call answers. A body cut off at once fails while the file on disk is still being
// opened; the intake must not remove the file before it exists (CI once kept one such file for good, and the
// fuzz suite's "nothing arrived stays behind" failed). Each case runs many times over, since the order of
// the open and the removal is the thread pool's.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { HttpError } from "../../server/core/errors.ts";
import { receiveFile } from "../../server/http/intake.ts";

const dir = mkdtempSync(join(tmpdir(), "intake-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class RequestFileTooLargeError extends Error {}
class FilesLimitError extends Error {}

/** A multipart request of one "file" part whose bytes are `stream`. */
function requestOf(stream: () => Readable): FastifyRequest {
  return {
    isMultipart: () => true,
    server: { multipartErrors: { RequestFileTooLargeError, FilesLimitError } },
    parts: async function* () {
      yield { type: "file", fieldname: "file", file: stream() };
    },
  } as unknown as FastifyRequest;
}

const limit = { bytes: 1024, tooLarge: () => new HttpError(413, "too large") };

describe("file intake", () => {
  it("leaves no file behind when the body breaks before its first byte, every time", async () => {
    const broken = () =>
      new Readable({
        read() {
          this.destroy(new Error("Unexpected end of form"));
        },
      });
    const answers = await Promise.allSettled(
      Array.from({ length: 200 }, () => receiveFile(requestOf(broken), limit, dir, "en")),
    );
    expect(answers.every((a) => a.status === "rejected")).toBe(true);
    expect((answers[0] as PromiseRejectedResult).reason).toMatchObject({ status: 400 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("leaves no file behind when the body breaks after a few bytes, every time", async () => {
    const cut = () =>
      new Readable({
        read() {
          this.push(Buffer.from("PK\u0003\u0004"));
          this.destroy(new Error("Unexpected end of form"));
        },
      });
    await Promise.allSettled(Array.from({ length: 200 }, () => receiveFile(requestOf(cut), limit, dir, "en")));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps a whole file, and only it", async () => {
    const whole = () => Readable.from([Buffer.from("a,b\n1,2\n")]);
    const received = await receiveFile(requestOf(whole), limit, dir, "en");
    expect(received.size).toBe(8);
    expect(readdirSync(dir)).toEqual([received.path.slice(dir.length + 1)]);
    rmSync(received.path);
  });
});

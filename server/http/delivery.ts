// How bytes leave the server (issue 30: a phone on a mobile network). The console's files are served as
// the build wrote them: compressed once at build time (a `.br` and a `.gz` beside each text file,
// tools/precompress.ts) and sent in the encoding the browser accepts; a fingerprinted file (everything
// under /assets/, its name carries its content's hash) is cached for good, the rest (index.html, the
// service worker, the manifest, the icons) is revalidated on every use, so a new version is seen at once.
// The API's answers are compressed on the fly where that pays (over a kilobyte, a compressible type), with
// brotli at a quality that costs well under a millisecond for a page of records.
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { constants } from "node:zlib";

export const CACHE_CONTROL = {
  /** A file whose name changes with its content. */
  fingerprinted: "public, max-age=31536000, immutable",
  /** A file at a fixed address: used from the cache only after the server says it is unchanged. */
  revalidated: "no-cache",
} as const;

/** Files whose names carry their content's hash (Vite's output folder). */
const FINGERPRINTED = /[\\/]assets[\\/]/;

/** The smallest answer worth compressing: below it the header and the work outweigh the bytes saved. */
export const COMPRESS_THRESHOLD = 1024;

/** API answers compressed on the fly (a static file that is already compressed is sent as it is). */
export async function compressAnswers(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    // What the browser's cache or the static files decided stays: a file sent precompressed is not touched.
    inflateIfDeflated: false,
  });
}

/** The built console at /, its files precompressed and cached as their names allow. */
export async function serveConsoleFiles(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header("cache-control", FINGERPRINTED.test(path) ? CACHE_CONTROL.fingerprinted : CACHE_CONTROL.revalidated);
    },
  });
}

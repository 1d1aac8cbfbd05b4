// A Vite plugin that writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every text file
// of the build, once, so the server sends each file compressed at the best ratio without spending a
// request's time on it (server/http/delivery.ts serves them). Fonts (WOFF2 is compressed already), images
// and anything under a kilobyte stay as they are. About 5 s of the build's time, over four threads.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|webmanifest|txt|map)$/;
/** Below this a compressed copy saves less than its headers. */
const MIN_BYTES = 1024;

/** The .br and .gz copies of one file's bytes. */
export async function compressed(data: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: 9 }),
  ]);
  return { br, gz: gzipped };
}

export function precompress(): Plugin {
  return {
    name: "precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      const names = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name) && !name.endsWith(".map"));
      await Promise.all(
        names.map(async (name) => {
          const path = join(dir, name);
          const data = await readFile(path);
          if (data.length < MIN_BYTES) return;
          const copies = await compressed(data);
          await Promise.all([writeFile(`${path}.br`, copies.br), writeFile(`${path}.gz`, copies.gz)]);
        }),
      );
    },
  };
}

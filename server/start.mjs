// npm start: bundles the server's TypeScript into dist/server/main.mjs (esbuild, in a process of its own,
// about half a second) and runs that bundle in this process, with Node alone. Run through tsx instead, the
// serving process also held tsx's compiler thread and the transformed sources: about 70 MiB more RSS on
// the demo data (DESIGN §8 asks for under 400 MB). Packages stay in node_modules, imported as they are.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = dirname(import.meta.dirname);
const BUNDLE = join(ROOT, "dist/server/main.mjs");

const { status, error } = spawnSync(
  join(ROOT, "node_modules/.bin/esbuild"),
  [
    "server/main.ts",
    "--bundle",
    "--platform=node",
    "--format=esm",
    "--target=node20",
    "--packages=external",
    "--sourcemap",
    "--log-level=warning",
    `--outfile=${BUNDLE}`,
  ],
  { cwd: ROOT, stdio: "inherit" },
);
if (status !== 0) {
  console.error(`Bundling the server failed${error ? `: ${error.message}` : ""}.`);
  process.exit(1);
}
await import(pathToFileURL(BUNDLE).href);

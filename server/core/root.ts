// The project's folder, found from this module's place: the nearest folder up holding package.json. The
// server runs from its sources (tsx, the tests) and from its bundle in dist/server (npm start), so a path
// counted up from import.meta.dirname would differ between the two.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = projectRoot(import.meta.dirname);

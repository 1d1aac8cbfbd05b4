// A Vite plugin that reports the console's JavaScript budgets (DESIGN §8) after every build and fails
// the build when one is exceeded: the JavaScript the login page needs, gzipped, and the largest chunk.
// Sizes are of the emitted files, so the figures are the same on every machine.
import { gzipSync } from "node:zlib";
import type { Plugin, Rollup } from "vite";

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

const KB = 1000;
export const BUDGETS = { loginKb: 200, chunkKb: 350 };

/** Modules the login page loads at once besides its chunk: antd/dayjs English (translations are JSON files). */
const LOGIN_MODULES = [/src\/app\/pages\/login-page\.tsx$/, /antd\/es\/locale\/en_US\.js$/, /dayjs\/locale\/en\.js$/];

const gz = (chunk: OutputChunk) => gzipSync(chunk.code, { level: 9 }).length;

/** A chunk with everything it imports statically, transitively. */
function closure(bundle: OutputBundle, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = bundle[name];
    if (chunk?.type === "chunk") chunk.imports.forEach(visit);
  };
  roots.forEach(visit);
  return seen;
}

/** The chunks the login page runs: the entry and what it imports at once, and the English locales it loads. */
export function loginChunks(bundle: OutputBundle): OutputChunk[] {
  const chunks = Object.values(bundle).filter((f): f is OutputChunk => f.type === "chunk");
  const entry = chunks.find((c) => c.isEntry)!;
  const roots = chunks
    .filter((c) => c.facadeModuleId && LOGIN_MODULES.some((re) => re.test(c.facadeModuleId!)))
    .map((c) => c.fileName);
  return [...closure(bundle, [entry.fileName, ...roots])].map((name) => bundle[name] as OutputChunk);
}

export function budgetReport(): Plugin {
  return {
    name: "budget-report",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((f): f is OutputChunk => f.type === "chunk");
      const login = loginChunks(bundle);
      const loginKb = login.reduce((sum, c) => sum + gz(c), 0) / KB;
      const largest = chunks.map((c) => ({ name: c.fileName, kb: gz(c) / KB })).sort((a, b) => b.kb - a.kb)[0];
      const rows = [
        [
          "login page JavaScript (gzip)",
          `${loginKb.toFixed(1)} KB`,
          `< ${BUDGETS.loginKb} KB`,
          `${login.length} files`,
        ],
        ["largest chunk (gzip)", `${largest.kb.toFixed(1)} KB`, `< ${BUDGETS.chunkKb} KB`, largest.name],
        ["chunks", String(chunks.length), "", ""],
      ];
      console.log("\nConsole budgets (DESIGN §8)");
      for (const row of rows)
        console.log(`  ${row[0].padEnd(30)} ${row[1].padStart(10)}  ${row[2].padEnd(10)} ${row[3]}`);
      const over = [
        loginKb >= BUDGETS.loginKb && `the login page needs ${loginKb.toFixed(1)} KB`,
        largest.kb >= BUDGETS.chunkKb && `${largest.name} is ${largest.kb.toFixed(1)} KB`,
      ].filter(Boolean);
      // BUDGET_DETAIL=1 lists the login page's files, to see what a change added to it.
      if (process.env.BUDGET_DETAIL) {
        for (const c of login) console.log(`    ${(gz(c) / KB).toFixed(1).padStart(7)} KB  ${c.fileName}`);
      }
      if (over.length) this.error(`over budget: ${over.join("; ")}`);
    },
  };
}

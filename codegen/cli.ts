// npm run codegen        -> write: regenerate src/generated/ and document schemas, sync locale keys.
// npm run codegen:check  -> check: regenerate in memory and fail, naming each file, on any drift.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadProject } from "./load.ts";
import { lintProject, type Problem } from "./lint.ts";
import { manifestProblems } from "./resources.ts";
import { generateFiles, withFreshDocuments } from "./generate.ts";
import { localeProblems, syncedLocales } from "./locales.ts";

export interface CheckResult {
  problems: Problem[];
  /** Generated files that differ from (or are missing on) disk. */
  stale: string[];
}

export async function check(root: string): Promise<CheckResult> {
  const project = withFreshDocuments(loadProject(root));
  const problems = [...lintProject(project), ...manifestProblems(project)];
  const stale: string[] = [];
  if (problems.length === 0) {
    for (const [file, content] of await generateFiles(project)) {
      const path = join(root, file);
      if (!existsSync(path) || readFileSync(path, "utf8") !== content) stale.push(file);
    }
  }
  problems.push(...localeProblems(project));
  return { problems, stale };
}

export async function write(root: string): Promise<{ problems: Problem[]; written: string[] }> {
  const project = withFreshDocuments(loadProject(root));
  const problems = [...lintProject(project), ...manifestProblems(project)];
  if (problems.length) return { problems, written: [] };
  const written: string[] = [];
  const outputs = new Map([...(await generateFiles(project)), ...syncedLocales(project)]);
  for (const [file, content] of outputs) {
    const path = join(root, file);
    if (existsSync(path) && readFileSync(path, "utf8") === content) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    written.push(file);
  }
  return { problems: localeProblems(loadProject(root)), written };
}

function print(problems: Problem[]) {
  for (const p of problems) console.error(`  ${p.file}${p.path && p.path !== "/" ? ` ${p.path}` : ""}: ${p.message}`);
}

async function main() {
  const [command = "check", rootArg = "."] = process.argv.slice(2);
  const root = resolve(rootArg);
  if (command === "write") {
    const { problems, written } = await write(root);
    for (const file of written) console.log(`wrote ${file}`);
    if (written.length === 0 && problems.length === 0) console.log("codegen: everything is up to date");
    if (problems.length) {
      console.error(`codegen: ${problems.length} problem(s) to fix by hand:`);
      print(problems);
      process.exitCode = 1;
    }
    return;
  }
  if (command !== "check") throw new Error(`unknown command "${command}" (write | check)`);
  const { problems, stale } = await check(root);
  if (stale.length) {
    console.error("codegen:check: generated files differ from the schemas; run `npm run codegen` and commit:");
    for (const file of stale) console.error(`  ${file}`);
  }
  if (problems.length) {
    console.error(`codegen:check: ${problems.length} problem(s):`);
    print(problems);
  }
  if (stale.length || problems.length) process.exitCode = 1;
  else console.log("codegen:check: schemas, generated code and the five locales agree");
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "cli.ts")) await main();

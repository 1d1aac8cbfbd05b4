// npm run bench [-- --orders N]: performance figures, printed as a table (never asserted in npm test):
// the schema pipeline, request validation, and the API figures of DESIGN.md section 8 over N orders
// (default 1,000,000) on PGlite, or on PostgreSQL when DATABASE_URL is set; and the fuzz suite's requests,
// 100 per call and principal by default (`-- --fuzz N`); the device import and export over 10,000 rows;
// hostile, large and slow files beside a prober; the console in the field (`npm start` over slow 4G on a
// slowed phone, issue 30). `-- --fuzz-only`, `-- --import-only`, `-- --files-only`, `-- --field-only` or
// `-- --api-only` (the API over N orders, without the browser's figures) or `-- --live-only` (live screens:
// a change's delay to another tab, idle streams, writes beside streams) runs that part alone.
import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { createAjv } from "../../src/schema/ajv.ts";
import { defsSchema, documentSchemas, entitySchemas } from "../../src/generated/schemas.ts";
import { loadProject } from "../../codegen/load.ts";
import { lintProject } from "../../codegen/lint.ts";
import { generateFiles, withFreshDocuments } from "../../codegen/generate.ts";
import { benchApi } from "./api.ts";
import { benchField } from "./field.ts";
import { benchFiles } from "./files.ts";
import { benchFuzz } from "./fuzz.ts";
import { benchGoodsImport, benchImport } from "./import.ts";
import { benchLive } from "./live.ts";
import { benchServerMemory } from "./memory.ts";

const root = resolve(import.meta.dirname, "../..");
const rows: [string, string][] = [];

function time<T>(label: string, fn: () => T): T {
  const start = performance.now();
  const result = fn();
  rows.push([label, `${(performance.now() - start).toFixed(1)} ms`]);
  return result;
}

async function timeAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  rows.push([label, `${(performance.now() - start).toFixed(1)} ms`]);
  return result;
}

/** Median over `samples` batches of `batch` calls of fn, in microseconds per call (timers are too coarse for one). */
function median(samples: number, batch: number, fn: () => void): number {
  const perCall: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    for (let j = 0; j < batch; j++) fn();
    perCall.push(((performance.now() - start) * 1000) / batch);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(samples / 2)];
}

const project = time("load schemas, manifest, locales", () => loadProject(root));
const fresh = time("generate document schemas (ts-json-schema-generator)", () => withFreshDocuments(project));
time("lint (meta-schema, semantics, ajv strict)", () => lintProject(fresh));
await timeAsync("generate types, resources, registry, OpenAPI", () => generateFiles(fresh));
const ajv = time("compile every schema (ajv strict)", () => {
  const instance = createAjv([defsSchema, ...documentSchemas, ...Object.values(entitySchemas)]);
  for (const name of Object.keys(entitySchemas)) instance.getSchema(name);
  return instance;
});
for (const name of ["order", "system_setting", "goods"] as const) {
  const validate = ajv.getSchema(name)!;
  const example = entitySchemas[name].examples![0];
  for (let i = 0; i < 10_000; i++) validate(example);
  const micros = median(101, 1000, () => validate(example));
  rows.push([`validate one ${name} (median of 101 × 1,000)`, `${micros.toFixed(2)} µs`]);
}
const ordersArg = process.argv.indexOf("--orders");
const orders = ordersArg > 0 ? Number(process.argv[ordersArg + 1]) : 1_000_000;
const fuzzArg = process.argv.indexOf("--fuzz");
const fuzzPerCall = fuzzArg > 0 ? Number(process.argv[fuzzArg + 1]) : 100;
const only = [
  "--import-only",
  "--fuzz-only",
  "--files-only",
  "--field-only",
  "--api-only",
  "--search-only",
  "--live-only",
].find((flag) => process.argv.includes(flag));
// `-- --import-only`: the device import and export over 10,000 rows, the goods import over 100,000, and nothing after it.
if (!only || only === "--import-only") {
  rows.push(...(await benchImport(10_000, (line) => console.error(line))));
  // The generic import at 100,000 rows (issue 33): goods checked, confirmed and confirmed again.
  rows.push(...(await benchGoodsImport(100_000, (line) => console.error(line))));
}
// `-- --files-only`: hostile files, large and slow uploads beside a prober (issue 27).
if (!only || only === "--files-only") rows.push(...(await benchFiles((line) => console.error(line))));
if (!only || only === "--fuzz-only") rows.push(...(await benchFuzz(fuzzPerCall, 1, (line) => console.error(line))));
if (!only || only === "--field-only") {
  // The console is built as users get it (production mode) for the browser figures.
  const { buildConsole } = await import("../e2e/build-console.ts");
  await timeAsync("build the console (vite, production)", buildConsole);
  // `-- --field-only`: the console in the field (issue 30): `npm start` over slow 4G on a slowed phone.
  rows.push(...(await benchField((line) => console.error(line))));
}
if (!only || only === "--api-only") rows.push(...(await benchApi(orders, (line) => console.error(line), !only)));
// `-- --search-only`: the header's search box over N orders and 100,000 devices, after the same seed.
if (only === "--search-only") rows.push(...(await benchApi(orders, (line) => console.error(line), false, true)));
if (!only) rows.push(...(await benchServerMemory((line) => console.error(line))));
// `-- --live-only`: live screens (issue 32): a change's delay to another tab, idle streams, writes beside streams.
if (!only || only === "--live-only") rows.push(...(await benchLive((line) => console.error(line))));

const width = Math.max(...rows.map(([label]) => label.length));
console.log(`${"measure".padEnd(width)}  value`);
for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);

// Mutation testing of the ledger and the scope code: `npm run mutation` (not part of `npm test`).
// The figure and what survives are in the README ("How strong the tests are").
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  // The ledger, the caller's scope, and the SQL conditions that apply it to every statement.
  mutate: [
    "server/domain/money/ledger.ts",
    "server/entities/context.ts:51-55",
    "server/entities/repository.ts:138-172",
  ],
  coverageAnalysis: "perTest",
  // Mutants of module-level code (the ledger's DIRECTION table, escapeLike: 13) take effect at import,
  // before any test, so each would need every test file run again; they are left out of the figure
  // and counted in the README.
  ignoreStatic: true,
  // The machine has two cores shared with others.
  concurrency: 2,
  timeoutMS: 60_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};

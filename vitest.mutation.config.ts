// The tests StrykerJS runs against each mutant of the ledger and the scope code (`npm run mutation`,
// stryker.config.mjs): the API tests that drive money through the ledger and agents/operators through
// their scope. Not part of `npm test`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "mutation",
    include: [
      "tests/api/money.test.ts",
      "tests/api/money-races.test.ts",
      "tests/api/security.test.ts",
      "tests/api/ledger.test.ts",
      "tests/api/scope.test.ts",
      "tests/api/goods.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { SCRYPT_N: "1024" },
    expect: { requireAssertions: true },
  },
});

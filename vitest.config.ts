import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Setting up an app (a fresh database, migrations, sign-ins) takes seconds on a busy shared machine.
    hookTimeout: 60_000,
    // Password hashing at OWASP cost takes ~0.3 s; tests use a low cost (each hash records its own).
    env: { SCRYPT_N: "1024" },
    // A test that asserts nothing fails, in every project.
    expect: { requireAssertions: true },
    // One worker a core: Vitest's default (a core less than the machine has) leaves one of this machine's
    // two idle while the unit and API files run, one at a time. The browser files run after them, one at a
    // time (Chromium takes the other core).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          // Loaded natively, Refine's router bindings get a second copy of react-router (and its
          // context) beside the one the tests and the console's code use: a <MemoryRouter> would be
          // invisible to Refine. Transformed like our code, both share one copy.
          server: { deps: { inline: ["@refinedev/react-router"] } },
        },
        // The console reaches into antd at antd/es, the copy Vite bundles; loaded natively, antd is its
        // antd/lib copy, with contexts of its own: the tests take everything from antd/lib.
        resolve: { alias: [{ find: /^antd\/es\/(.*)$/, replacement: "antd/lib/$1" }] },
      },
      {
        extends: true,
        // Migrated once a run; each file starts from a copy (tests/support/template-db.ts).
        test: { name: "api", include: ["tests/api/**/*.test.ts"], globalSetup: ["tests/api/database.ts"] },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // The console is built once for every browser test; the files share the machine's two cores.
          globalSetup: ["tests/e2e/build-console.ts"],
          fileParallelism: false,
          // A poll waits for what the user would see: on two busy cores a screen can take seconds to
          // follow a click (the default of 1 s made sound tests fail under load).
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

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
    // two idle. The browser files too run two at a time: one alone leaves a core idle while its page waits
    // on the server or the server on the page (measured: 800 s for all of them two at a time, 1,896 s one
    // at a time).
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
          // The console is built once for every browser test; each file has its own server, database copy
          // and browser, so files run side by side (npm start's two files each bundle the server to
          // dist/server, renamed into place whole: server/start.mjs).
          globalSetup: ["tests/e2e/build-console.ts"],
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

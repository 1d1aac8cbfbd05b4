// One linter for the whole repository: TypeScript-aware recommended rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist", "node_modules", "data", "coverage", "src/generated", "reports", ".stryker-tmp"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Runtime code never imports the build: what the server, the console and codegen share lives in
    // src/schema/ (the x- vocabulary, permission keys, translation keys, $ref resolution, constants).
    files: ["server/**", "src/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/codegen/**", "**/codegen"],
              message: "Runtime code does not import codegen/: move what is shared to src/schema/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every test runs: a focused (.only) or dropped (.skip, .todo) test is refused, so a suite cannot
    // shrink silently. A conditional skip (describe.skipIf / it.runIf) is allowed for what the
    // environment lacks, never for a failing test: multi-process.test.ts needs PostgreSQL, which
    // `npm run test:pg` (and CI) provides.
    files: ["tests/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "MemberExpression[object.name=/^(it|test|describe|suite|bench)$/][property.name=/^(only|skip|todo)$/]",
          message: "Every test runs: no .only, .skip or .todo (a skipIf needs an environment reason).",
        },
      ],
    },
  },
);

// One linter for the whole repository: TypeScript-aware recommended rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist", "node_modules", "data", "coverage", "src/generated"] },
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
);

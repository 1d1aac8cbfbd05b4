// One linter for the whole repository: TypeScript-aware recommended rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Operations whose schema declares their answer: the console takes those answers' types from codegen. */
const OPERATIONS = join(import.meta.dirname, "schemas/operations");
const declaredAnswers = readdirSync(OPERATIONS)
  .map((file) => JSON.parse(readFileSync(join(OPERATIONS, file), "utf8")))
  .filter((schema) => typeof schema["x-operation"].answer === "object")
  .map((schema) => schema.$id);
const escaped = declaredAnswers.map((call) => call.replace(/[-.]/g, "\\$&")).join("|");

const NO_CODEGEN = {
  group: ["**/codegen/**", "**/codegen"],
  message: "Runtime code does not import codegen/: move what is shared to src/schema/.",
};

/**
 * The server's folders from the bottom up: core (errors, languages, SQL text, the admission gate), model
 * (the entity models read from the schemas), db (connection, migrations, views, roll-ups), entities (the
 * generic engine), domain (the areas' operations and hooks), http (routes, input, files), then the
 * composition root (app.ts), the seed and main.ts, which may import anything.
 */
const SERVER_LAYERS = ["core", "model", "db", "entities", "domain", "http", "app", "seed", "main"];

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
    rules: { "no-restricted-imports": ["error", { patterns: [NO_CODEGEN] }] },
  },
  // The server's layers, each importing only from those below it, so no folder cycle can form.
  ...SERVER_LAYERS.map((layer, i) => ({
    files: [`server/${layer}/**`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            NO_CODEGEN,
            {
              regex: `^(\\.\\./)+(${SERVER_LAYERS.slice(i + 1).join("|")})(/|\\.ts$)`,
              message: `server/${layer}/ sits below ${SERVER_LAYERS.slice(i + 1).join(", ")}: it imports only from ${SERVER_LAYERS.slice(0, i).join(", ") || "nothing else of server/"} (README, "Server layers").`,
            },
          ],
        },
      ],
    },
  })),
  {
    // A call whose answer its schema declares is typed by its name (api("menu") is OperationAnswers["menu"],
    // which the API tests hold the server to): a type written at the call would be a second, unchecked one.
    files: ["src/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `CallExpression[callee.name=/^(api|postFile)$/][typeArguments] > Literal.arguments[value=/^(${escaped})$/]`,
          message:
            "This call's answer is declared in its schema: drop the type argument, api() and postFile() take it from src/generated/types.ts.",
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

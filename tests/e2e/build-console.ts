// Builds the console once before the browser tests (the build also checks the DESIGN §8 budgets).
// Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development build):
// the tests must drive the production build users get.
import { build } from "vite";
import { resolve } from "node:path";

export default async function setup(): Promise<void> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ root: resolve(import.meta.dirname, "../.."), logLevel: "warn", mode: "production" });
  } finally {
    process.env.NODE_ENV = previous;
  }
}

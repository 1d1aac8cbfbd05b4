// Finds (or installs) Chromium and builds the console once before the browser tests (the build also checks the DESIGN §8 budgets).
// Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development build):
// the tests must drive the production build users get.
import { build } from "vite";
import { resolve } from "node:path";
import { ensureChromium } from "../support/chromium.ts";

export default async function setup(): Promise<void> {
  // First the browser: without it the suite stops at once, saying what to install.
  process.env.CHROME_PATH = ensureChromium();
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ root: resolve(import.meta.dirname, "../.."), logLevel: "warn", mode: "production" });
  } finally {
    process.env.NODE_ENV = previous;
  }
}

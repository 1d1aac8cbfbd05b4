// Finds (or installs) Chromium, builds the console and seeds the demo database once before the browser tests
// (the build also checks the DESIGN §8 budgets); each test file serves a copy of the database.
// Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development build):
// the tests must drive the production build users get.
import { build } from "vite";
import { resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureChromium } from "../support/chromium.ts";
import { writeSnapshot } from "../support/template-db.ts";
import { seedConsole } from "./demo-data.ts";

/** Chromium found (or installed), and the console built as users get it. */
export async function buildConsole(): Promise<void> {
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

export default async function setup(project: TestProject): Promise<() => void> {
  await buildConsole();
  const snapshot = await writeSnapshot(seedConsole);
  project.provide("databaseSnapshot", snapshot.file);
  return snapshot.remove;
}

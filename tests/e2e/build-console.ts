// Builds the console once before the browser tests (the build also checks the DESIGN §8 budgets).
import { build } from "vite";
import { resolve } from "node:path";

export default async function setup(): Promise<void> {
  await build({ root: resolve(import.meta.dirname, "../.."), logLevel: "warn" });
}

import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { budgetReport } from "./tools/build-budgets.ts";
import { precompress } from "./tools/precompress.ts";
import { pwa } from "./tools/pwa.ts";

export default defineConfig({
  plugins: [react(), budgetReport(), pwa(), precompress()],
  build: { outDir: "dist/console", target: "es2022", chunkSizeWarningLimit: 1200, reportCompressedSize: false },
});

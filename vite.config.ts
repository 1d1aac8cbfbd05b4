import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { budgetReport } from "./tools/build-budgets.ts";

export default defineConfig({
  plugins: [react(), budgetReport()],
  build: { outDir: "dist/console", target: "es2022", chunkSizeWarningLimit: 1200, reportCompressedSize: false },
});

import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist/console", target: "es2022", chunkSizeWarningLimit: 1200 },
});

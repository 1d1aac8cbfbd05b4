// A Vite plugin that makes the built console an installable web app (issue 30): the icons (drawn by
// tools/icon.ts), a manifest in each of the five languages (names from locales/<lng>/common.json), and the
// service worker (src/service-worker/sw.ts, bundled with esbuild into /sw.js with this build's file list:
// the shell it caches at install and every fingerprinted file, so it can remove other builds' code).
// index.html links the English manifest, the icons and the theme colour; the page switches the manifest
// with the language (src/app/web-app.ts). Only the production build has any of it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";
import type { Plugin, Rollup } from "vite";
import { HTML_LANG, LANGUAGES, type Language } from "../src/schema/constants.ts";
import type { Build } from "../src/service-worker/strategy.ts";
import { loginChunks } from "./build-budgets.ts";
import { drawIcon } from "./icon.ts";

const ROOT = resolve(import.meta.dirname, "..");
/** The login page's mark colour, for the browser's bar and the splash screen. */
export const THEME_COLOUR = "#1f6feb";

export const ICONS = [
  { file: "icons/favicon-32.png", size: 32, purpose: "favicon" },
  { file: "icons/icon-192.png", size: 192, purpose: "any" },
  { file: "icons/icon-512.png", size: 512, purpose: "any" },
  { file: "icons/maskable-512.png", size: 512, purpose: "maskable" },
  { file: "icons/apple-touch-icon.png", size: 180, purpose: "apple" },
] as const;

const iconFor = (purpose: (typeof ICONS)[number]["purpose"]) => ICONS.find((icon) => icon.purpose === purpose)!.file;

/** One language's manifest. */
export function manifestFor(lng: Language): Record<string, unknown> {
  const common = JSON.parse(readFileSync(resolve(ROOT, `locales/${lng}/common.json`), "utf8")) as {
    app: { title: string; shortName: string; subtitle: string };
  };
  return {
    id: "/",
    name: common.app.title,
    short_name: common.app.shortName,
    description: common.app.subtitle,
    lang: HTML_LANG[lng],
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#ffffff",
    theme_color: THEME_COLOUR,
    icons: ICONS.filter((icon) => icon.purpose === "any" || icon.purpose === "maskable").map((icon) => ({
      src: `/${icon.file}`,
      sizes: `${icon.size}x${icon.size}`,
      type: "image/png",
      purpose: icon.purpose,
    })),
  };
}

/** What the sign-in page needs: its chunks (tools/build-budgets.ts) with their styles. */
function shellOf(bundle: Rollup.OutputBundle): string[] {
  const chunks = loginChunks(bundle);
  const styles = chunks.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
  return [...new Set([...chunks.map((chunk) => chunk.fileName), ...styles])].sort();
}

export function pwa(): Plugin {
  return {
    name: "pwa",
    apply: "build",
    enforce: "post",
    transformIndexHtml() {
      return [
        { tag: "link", attrs: { rel: "manifest", href: "/manifest-en.webmanifest" }, injectTo: "head" },
        { tag: "meta", attrs: { name: "theme-color", content: THEME_COLOUR }, injectTo: "head" },
        { tag: "link", attrs: { rel: "icon", type: "image/png", href: `/${iconFor("favicon")}` }, injectTo: "head" },
        { tag: "link", attrs: { rel: "apple-touch-icon", href: `/${iconFor("apple")}` }, injectTo: "head" },
      ];
    },
    async generateBundle(_options, bundle) {
      // The icons and manifests are fetched by the browser when it needs them (an install), not cached ahead.
      for (const icon of ICONS)
        this.emitFile({ type: "asset", fileName: icon.file, source: drawIcon(icon.size, icon.purpose === "maskable") });
      for (const lng of LANGUAGES) {
        const fileName = `manifest-${lng}.webmanifest`;
        this.emitFile({ type: "asset", fileName, source: `${JSON.stringify(manifestFor(lng), null, 2)}\n` });
      }
      const assets = Object.keys(bundle)
        .filter((name) => name.startsWith("assets/"))
        .sort();
      const info: Build = {
        version: createHash("sha256").update(assets.join("\n")).digest("hex").slice(0, 16),
        shell: shellOf(bundle),
        assets,
      };
      const worker = await build({
        entryPoints: [resolve(ROOT, "src/service-worker/sw.ts")],
        bundle: true,
        write: false,
        format: "iife",
        target: "es2020",
        minify: true,
        define: { __BUILD__: JSON.stringify(info) },
        logLevel: "warning",
      });
      this.emitFile({ type: "asset", fileName: "sw.js", source: worker.outputFiles[0].text });
    },
  };
}

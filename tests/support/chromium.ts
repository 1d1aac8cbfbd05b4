// Where the browser tests and the bench find Chromium: CHROME_PATH, or Debian's package. On a machine
// without it, the browser tests install Debian's `chromium` when they may (root with apt-get), or stop at
// once with the one command to run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
export const INSTALL_COMMAND = "sudo apt-get install -y chromium";

/** The browser's path, or undefined when none is installed. */
export function findChromium(): string | undefined {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/** The browser's path, installing Debian's package first when it is missing and this user may. */
export function ensureChromium(log: (line: string) => void = console.error): string {
  const found = findChromium();
  if (found) return found;
  const mayInstall = process.getuid?.() === 0 && spawnSync("apt-get", ["--version"]).status === 0;
  if (mayInstall) {
    log("Chromium is missing: installing Debian's chromium package for the browser tests…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    const install = spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
    const installed = findChromium();
    if (update.status === 0 && install.status === 0 && installed) return installed;
  }
  throw new Error(
    `The browser tests need Chromium and none was found (CHROME_PATH or ${CANDIDATES.join(", ")}). ` +
      `Install it with: ${INSTALL_COMMAND}`,
  );
}

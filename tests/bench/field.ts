// The console in the field (issue 30, DESIGN §8): `npm start` as users get it, reached over a slow 4G link
// (tests/support/slow-link.ts: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, the bytes counted as
// they cross it), in Chromium with its CPU slowed 4× on a 390 × 844 touch screen; cold (a new browser
// profile) and then warm (the same one, its cache and service worker in place). On PGlite, and on
// PostgreSQL too when DATABASE_URL is set (a database of its own, seeded with the demo data). Times are
// read in the page (its clock: from the navigation's start, the sign-in's answer or the tap that began the step).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { Row } from "./api.ts";
import { ensureChromium } from "../support/chromium.ts";
import { freePort } from "../support/net.ts";
import { slowLink, type SlowLink } from "../support/slow-link.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const KB = 1000;

/** DESIGN §8 / issue 30's budgets: ms and KB. */
export const FIELD_BUDGETS = {
  signInCold: 3000,
  signInWarm: 1000,
  signInColdKb: 250,
  laneGridCold: 3000,
  laneGridWarm: 1500,
  operatorColdKb: 600,
  operatorWarmKb: 50,
  restockShown: 300,
  dashboardCold: 4000,
  mapAfter: 2000,
};

/** `npm start` on a database of its own; resolves once it serves. */
async function startServer(database: "PGlite" | "PostgreSQL", log: (line: string) => void) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "field-bench-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SKIP_CONSOLE_BUILD: "1",
  };
  let dropDatabase = async () => {};
  if (database === "PostgreSQL") {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query("drop database if exists field_bench with (force)");
    await admin.query("create database field_bench");
    await admin.end();
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = "/field_bench";
    env.DATABASE_URL = url.toString();
    dropDatabase = async () => {
      const again = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await again.connect();
      await again.query("drop database if exists field_bench with (force)");
      await again.end();
    };
  } else delete env.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, "server/start.mjs")], {
    cwd: ROOT,
    env,
    stdio: "pipe",
  });
  let output = "";
  await new Promise<void>((ready, fail) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Merchant console ready")) ready();
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => fail(new Error(`the server stopped (${code}) before it was ready:\n${output}`)));
  });
  log(`field: npm start on ${database} ready on port ${port}`);
  return {
    port,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((done) => child.once("exit", done));
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase();
    },
  };
}

/** A mid-range phone: 390 × 844 touch screen, the CPU slowed 4× (DevTools' "mid-tier mobile"). */
async function phone(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
    reducedMotion: "reduce",
  });
}

async function slowPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  page.setDefaultTimeout(120_000);
  return page;
}

/** Waits until nothing has crossed the link for a second: what the step brought in full. */
async function quiet(link: SlowLink): Promise<{ down: number; up: number }> {
  let last = -1;
  let sameSince = performance.now();
  for (;;) {
    const { down, up } = link.counted();
    if (down + up !== last) {
      last = down + up;
      sameSince = performance.now();
    } else if (performance.now() - sameSince >= 1000) return { down, up };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The page's clock when an element of `selector` is there, shown and enabled (polled every frame; a kept
 * page, hidden, may hold one already). */
async function shownAt(page: Page, selector: string): Promise<number> {
  const failed = async (error: Error): Promise<never> => {
    const picture = join(tmpdir(), "field-bench-failed.png");
    await page.screenshot({ path: picture });
    throw new Error(`${selector} not shown at ${page.url()} (${picture}): ${error.message}`);
  };
  const handle = await page
    .waitForFunction(
      (css) => {
        const elements = [...document.querySelectorAll<HTMLElement & { disabled?: boolean }>(css)];
        return elements.some((e) => !e.disabled && e.getClientRects().length > 0) ? performance.now() : 0;
      },
      selector,
      { polling: "raf", timeout: 60_000 },
    )
    .catch(failed);
  return (await handle.jsonValue()) as number;
}

/**
 * The sign-in form, from the navigation's start to its account field shown and taking input, and the
 * bytes the page brought by itself (counted before the key is typed: a key typed starts the console's code
 * for after sign-in, which the operator's path counts).
 */
async function signInForm(page: Page, link: SlowLink): Promise<{ at: number; bytes: { down: number; up: number } }> {
  await page.goto(`${link.url}/login`, { waitUntil: "commit" });
  const at = await shownAt(page, "#account");
  const bytes = await quiet(link);
  // Taking input: a key typed is in the field.
  await page.locator("#account").pressSequentially("o");
  await page.locator("#account").fill("");
  return { at, bytes };
}

/**
 * When the sign-in's answer came (Resource Timing, the page's clock): the password's hashing, at production
 * cost, is the server's figure (DESIGN §8 times the dashboard from there too), and is printed apart.
 */
async function signedInAt(page: Page): Promise<{ enter: number; answer: number }> {
  return page.evaluate(() => {
    const login = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/merchant/login"))
      .at(-1) as PerformanceResourceTiming;
    return { enter: login.startTime, answer: login.responseEnd };
  });
}

/**
 * Signs in (Enter on the password), then opens the first device's lanes from home: the device list from
 * the sign-in's answer, the lane grid from the tap on Restock.
 */
async function operatorPath(page: Page): Promise<{ signIn: number; list: number; grid: number }> {
  await page.locator("#account").fill("operator_a");
  await page.locator("#password").fill("demo123");
  await page.locator("#password").press("Enter");
  const shown = await shownAt(page, ".my-device button");
  const { enter, answer } = await signedInAt(page);
  const list = shown - answer;
  const tap = await page.evaluate(() => performance.now());
  await page.locator(".my-device button").first().tap();
  const grid = (await shownAt(page, ".lane-tile")) - tap;
  await page.waitForURL(/\/machine\/list\/show\//);
  return { signIn: answer - enter, list, grid };
}

/**
 * A lane with room restocked from its dialog: from the tap to the button's pressed state, and from the
 * restock call's answer (Resource Timing) to the grid showing the lane's new level.
 */
async function restock(page: Page): Promise<{ pressed: number; shown: number }> {
  const tile = page.locator(".lane-tile.lane-empty, .lane-tile.lane-low, .lane-tile.lane-ok").first();
  const lane = await tile.getAttribute("data-lane");
  const before = await tile.locator(".lane-left").innerText();
  await tile.tap();
  const load = page.locator("[data-testid=lane-load]");
  await load.waitFor();
  await page.evaluate(
    ({ lane, before }) => {
      const w = window as unknown as Record<string, number>;
      const button = document.querySelector("[data-testid=lane-load]")!;
      button.addEventListener("pointerdown", (event) => (w.tapAt = event.timeStamp), { once: true });
      new MutationObserver((_, observer) => {
        if (button.classList.contains("ant-btn-loading") || (button as HTMLButtonElement).disabled) {
          w.pressedAt = performance.now();
          observer.disconnect();
        }
      }).observe(button, { attributes: true, subtree: true, childList: true });
      const grid = document.querySelector(".lane-grid")!;
      new MutationObserver((_, observer) => {
        const left = grid.querySelector(`.lane-tile[data-lane="${lane}"] .lane-left`);
        if (left && left.textContent !== before) {
          w.shownAt = performance.now();
          observer.disconnect();
        }
      }).observe(grid, { subtree: true, childList: true, characterData: true });
    },
    { lane, before },
  );
  await load.tap();
  await page.waitForFunction(() => (window as unknown as Record<string, number>).shownAt > 0);
  return page.evaluate(() => {
    const w = window as unknown as Record<string, number>;
    const answer = performance
      .getEntriesByType("resource")
      .filter((e) => e.name.includes("/merchant/machine-replenishment-goods"))
      .at(-1) as PerformanceResourceTiming;
    return { pressed: w.pressedAt - w.tapAt, shown: w.shownAt - answer.responseEnd };
  });
}

/**
 * The admin's dashboard from the sign-in's answer: its figures shown, nothing loading; then the device map's
 * first frame from the tap that asks for it (a phone's home shows the map on request: src/app/fetch-ahead.ts).
 */
async function dashboard(page: Page): Promise<{ interactive: number; map: number }> {
  await page.locator("#account").fill("admin");
  await page.locator("#password").fill("admin123");
  await page.locator("#password").press("Enter");
  const interactive = (await (
    await page.waitForFunction(
      () =>
        document.querySelectorAll(".ant-statistic-content-value").length >= 4 &&
        !document.querySelector(".ant-skeleton")
          ? performance.now()
          : 0,
      null,
      { polling: "raf" },
    )
  ).jsonValue()) as number;
  const ask = page.locator(".map-on-request button");
  await ask.scrollIntoViewIfNeeded();
  const tap = await page.evaluate(() => performance.now());
  await ask.tap();
  const map = (await (
    await page.waitForFunction(() => performance.getEntriesByName("device-map-rendered")[0]?.startTime ?? 0, null, {
      polling: "raf",
    })
  ).jsonValue()) as number;
  return { interactive: interactive - (await signedInAt(page)).answer, map: map - tap };
}

const ms = (value: number, budget: number) => `${value.toFixed(0)} ms (budget ${budget} ms)`;
const kb = (bytes: { down: number; up: number }, budget?: number) =>
  `${((bytes.down + bytes.up) / KB).toFixed(1)} KB (${(bytes.down / KB).toFixed(1)} down, ${(bytes.up / KB).toFixed(1)} up)` +
  (budget ? `, budget ${budget} KB` : "");

async function onDatabase(
  browser: Browser,
  database: "PGlite" | "PostgreSQL",
  log: (line: string) => void,
): Promise<Row[]> {
  const server = await startServer(database, log);
  const link = await slowLink({ host: "127.0.0.1", port: server.port });
  const rows: Row[] = [];
  const row = (label: string, value: string) => {
    rows.push([`field ${database}: ${label}`, value]);
    log(`field ${database}: ${label}  ${value}`);
  };
  const B = FIELD_BUDGETS;
  try {
    // The sign-in form, cold then warm (a new tab of the same browser profile).
    let context = await phone(browser);
    let page = await slowPage(context);
    link.reset();
    const cold = await signInForm(page, link);
    row("sign-in form usable, cold", ms(cold.at, B.signInCold));
    row("sign-in form bytes, cold", kb(cold.bytes, B.signInColdKb));
    await page.evaluate(() => navigator.serviceWorker?.ready);
    await page.close();
    page = await slowPage(context);
    link.reset();
    const warm = await signInForm(page, link);
    row("sign-in form usable, warm", ms(warm.at, B.signInWarm));
    row("sign-in form bytes, warm", kb(warm.bytes));
    await context.close();

    // The operator: sign-in, home's devices, a device's lanes; a lane restocked. Cold, then warm (signed out).
    context = await phone(browser);
    page = await slowPage(context);
    link.reset();
    await signInForm(page, link);
    let path = await operatorPath(page);
    row("operator: sign-in's answer (the server's hashing), cold", `${path.signIn.toFixed(0)} ms`);
    row("operator: sign-in's answer to device list, cold", `${path.list.toFixed(0)} ms`);
    row("operator: tap to lane grid, cold", `${path.grid.toFixed(0)} ms`);
    row("operator: to lane grid in all, cold", ms(path.list + path.grid, B.laneGridCold));
    row("operator: bytes from sign-in page to lane grid, cold", kb(await quiet(link), B.operatorColdKb));
    const lane = await restock(page);
    row("restock: tap to pressed state", `${lane.pressed.toFixed(0)} ms`);
    row("restock: answer to new level shown", ms(lane.shown, B.restockShown));
    await page.evaluate(() => navigator.serviceWorker?.ready);
    // Signed out as the console does it (src/app/session.ts): all but the version and the language go.
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage))
        if (key !== "version" && key !== "lang") localStorage.removeItem(key);
    });
    await page.close();
    page = await slowPage(context);
    link.reset();
    await signInForm(page, link);
    path = await operatorPath(page);
    row("operator: sign-in's answer (the server's hashing), warm", `${path.signIn.toFixed(0)} ms`);
    row("operator: sign-in's answer to device list, warm", `${path.list.toFixed(0)} ms`);
    row("operator: tap to lane grid, warm", `${path.grid.toFixed(0)} ms`);
    row("operator: to lane grid in all, warm", ms(path.list + path.grid, B.laneGridWarm));
    row("operator: bytes from sign-in page to lane grid, warm", kb(await quiet(link), B.operatorWarmKb));
    await context.close();

    // The admin's dashboard, cold.
    context = await phone(browser);
    page = await slowPage(context);
    await signInForm(page, link);
    link.reset();
    const home = await dashboard(page);
    row("admin: sign-in's answer to dashboard interactive, cold", ms(home.interactive, B.dashboardCold));
    row("admin: device map's first frame after its tap", ms(home.map, B.mapAfter));
    row("admin: bytes from Enter to the dashboard, cold", kb(await quiet(link)));
    await context.close();
  } finally {
    await link.close();
    await server.stop();
  }
  return rows;
}

export async function benchField(log: (line: string) => void): Promise<Row[]> {
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const rows = await onDatabase(browser, "PGlite", log);
    if (process.env.DATABASE_URL) rows.push(...(await onDatabase(browser, "PostgreSQL", log)));
    return rows;
  } finally {
    await browser.close();
  }
}

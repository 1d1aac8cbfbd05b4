// The page layout editor as the admin: a module dragged from the palette onto the page, others added with
// +, two reordered with the keyboard (dnd-kit's keyboard sensor), a second three-grid module refused in
// words, undo, the required background image, save; after a reload the same layout, as the server stored
// it. Screenshots in the five languages at 1440 px and 390 px.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { tinyPng } from "../support/files.ts";
import {
  type Console,
  expectFits,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  shot,
  signIn,
  startConsole,
} from "./harness.ts";

let c: Console;
beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

const modules = (page: Page) => page.locator("[data-testid=layout-canvas] [data-testid=layout-module]");
const types = (page: Page) => modules(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-type")));

async function dragPaletteToCanvas(page: Page, type: string) {
  const handle = page.locator(`[data-testid=palette-${type}] .drag-handle`);
  const from = (await handle.boundingBox())!;
  const to = (await page.locator("[data-testid=layout-canvas]").boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past the sensor's 4 px threshold, then over the page, in steps as a hand would.
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height - 10, { steps: 12 });
  // Dropped once the page shows it would take the module (dnd-kit takes what is under it a render later).
  await page.locator("[data-testid=layout-canvas].over").waitFor();
  await page.mouse.up();
}

describe("the page layout editor", () => {
  it("drags in, reorders, refuses a second three-grid, undoes, saves and shows the same layout again", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      const page = tab.page;
      await page.goto(`${c.url}/page/add`);
      await page.locator("[data-testid=layout-palette]").waitFor();

      await dragPaletteToCanvas(page, "banner");
      await expect.poll(() => types(page)).toEqual(["banner"]);
      // dnd-kit swallows every click for 50 ms after a drop (so that the dropped item is not clicked as
      // well): no person clicks that soon, a fast test machine does, and the add is clicked again until it
      // takes (the module shows as the click returns, so none is added twice).
      await expect
        .poll(async () => {
          if ((await types(page)).length === 1) await page.locator("[data-testid=palette-grid] button").click();
          return types(page);
        })
        .toEqual(["banner", "grid"]);
      await page.locator("[data-testid=palette-notice] button").click();
      await page.locator("[data-testid=palette-grid] button").click();
      await expect.poll(() => types(page)).toEqual(["banner", "grid", "notice", "grid"]);

      // The first grid becomes the three-grid; the second may not.
      const chooseStyle = async (index: number, label: string) => {
        await modules(page).nth(index).locator(".module-label").click();
        await page.locator(".ant-select:has(#grid-style)").click();
        await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: label }).click();
      };
      await chooseStyle(1, "Three-grid (once per page)");
      await chooseStyle(3, "Three-grid (once per page)");
      await page.locator(".ant-message").getByText("A page may use the three-grid module only once").waitFor();
      expect(await page.locator(".ant-select:has(#grid-style) .ant-select-selection-item").innerText()).toBe("Plain");

      // Reorder with the keyboard: the notice moves up above the first grid.
      const handle = modules(page).nth(2).locator(".drag-handle");
      await handle.focus();
      await page.keyboard.press("Space");
      // Picked up (as a screen reader hears it), then moved over the module above, then dropped.
      await expect.poll(() => handle.getAttribute("aria-pressed")).toBe("true");
      // dnd-kit measures the drop targets in the frames after a pick-up; an arrow pressed before then
      // finds none and is ignored (no person presses that fast, a busy test machine can).
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done)))),
      );
      await page.keyboard.press("ArrowUp");
      // The module is drawn one place higher and the grid it passes one place lower before it is dropped.
      // The grid moves only once dnd-kit has taken the module as being over it (a render after the
      // module's own move): a drop before then lands on the module's own place, and nothing moves.
      const shift = (index: number) => () =>
        modules(page)
          .nth(index)
          .evaluate((n) => new DOMMatrixReadOnly(getComputedStyle(n as HTMLElement).transform).m42);
      await expect.poll(shift(2)).toBeLessThan(0);
      await expect.poll(shift(1)).toBeGreaterThan(0);
      await page.keyboard.press("Space");
      await expect.poll(() => types(page)).toEqual(["banner", "notice", "grid", "grid"]);

      // Undo: a module added by mistake goes again.
      await page.locator("[data-testid=palette-spacer] button").click();
      await expect.poll(() => modules(page).count()).toBe(5);
      await page.locator("[data-testid=layout-undo]").click();
      await expect.poll(() => types(page)).toEqual(["banner", "notice", "grid", "grid"]);

      // The page itself: its name and the required background image.
      await page.locator("#root_name").fill("Songkran home");
      // A page sells through a plan: the first channel plan offered.
      await page.locator("#root_channel_plan_id").click();
      await page.locator(".ant-select-dropdown .ant-select-item-option").locator("visible=true").first().waitFor();
      await page.locator("#root_channel_plan_id").press("Enter");
      const background = page.locator(
        `.ant-form-item:has(> .ant-form-item-row > .ant-form-item-label > label[for="root_bg_image"])`,
      );
      await background
        .locator("input[type=file]")
        .setInputFiles({ name: "bg.png", mimeType: "image/png", buffer: tinyPng() });
      await background.locator(".ant-upload-list-item").first().waitFor();
      // A value out of range stays as typed and is refused on its setting, and the save is refused in words.
      await modules(page).nth(0).locator(".module-label").click();
      const interval = page.locator("[data-testid=module-settings] .ant-form-item", { hasText: "Interval (ms)" });
      await interval.locator("input").fill("500");
      await interval.getByText("Interval (ms) must be at least 1000").waitFor();
      await page.locator(".form-actions .ant-btn-primary").click();
      await page
        .locator(".layout-problems li")
        .getByText("Banner carousel 1: Interval (ms) must be at least 1000")
        .waitFor();
      expect(await interval.locator("input").inputValue()).toBe("500");
      await interval.locator("input").fill("4000");
      await interval.locator(".ant-form-item-explain-error").waitFor({ state: "detached" });
      expect(await page.locator(".layout-problems").count()).toBe(0);

      const saved = page.waitForResponse((r) => r.url().endsWith("/merchant/renovation-add"));
      await page.locator(".form-actions .ant-btn-primary").click();
      const answer = await saved;
      expect(answer.status(), await answer.text()).toBe(200);
      await page.waitForURL(/\/page\/edit\/\d+$/);
      const id = Number(new URL(page.url()).pathname.split("/").pop());

      await page.reload();
      await page.locator("[data-testid=layout-canvas]").waitFor();
      await expect.poll(() => types(page)).toEqual(["banner", "notice", "grid", "grid"]);
      const { rows } = await c.db.query<{ layout: { modules: { type: string; style?: string }[] } }>(
        `select layout from page where id = $1`,
        [id],
      );
      expect(rows[0].layout.modules.map((m) => [m.type, m.style ?? null])).toEqual([
        ["banner", null],
        ["notice", null],
        ["grid", "three_grid"],
        ["grid", "plain"],
      ]);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("the layout editor in every language", () => {
  it.each(LANGUAGES)("%s at 1440 px and 390 px (screenshots kept)", async (lng) => {
    const { rows } = await c.db.query<{ id: number }>(
      `select id::int from page where deleted_at is null order by id limit 1`,
    );
    await inLanguage(c, lng, "admin", async ({ page }, { width }) => {
      await page.goto(`${c.url}/page/edit/${rows[0].id}`);
      const editor = page.locator("[data-testid=layout-editor]");
      await editor.waitFor();
      await page.locator("[data-testid=palette-grid] button").click();
      // A spacer too high: refused on its setting, in the language of the page.
      await page.locator("[data-testid=palette-spacer] button").click();
      const words = locale(lng, "common").layoutEditor.fields.height as string;
      const setting = page.locator("[data-testid=module-settings] .ant-form-item", { hasText: words });
      await setting.locator("input").fill("250");
      const refusal = (locale(lng, "validation").maximum as string)
        .replace("{{field}}", words)
        .replace("{{limit}}", "200");
      await setting.locator(".ant-form-item-explain-error").getByText(refusal).waitFor();
      const text = await editor.innerText();
      expect(text).toContain(locale(lng, "common").layoutEditor.palette);
      expect(text).not.toMatch(/layoutEditor\.|layoutModules\.|undefined|\{\{/);
      await expectFits(page, width);
      await shot(page, `layout-editor-${lng}-${width}`, { fullPage: true });
    });
  });
});

// The settings the devices and the mini program read, not the console: the settings screens say so under
// each such field (the deposit per device in the system settings, the multi-item discounts in the goods
// settings), and say where the goods valid days act, in the five languages at 1440 and 390 px
// (tests/e2e/screenshots/settings-read-*.png).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Console, expectFits, go, inLanguage, LANGUAGES, locale, shot, startConsole } from "./harness.ts";

let c: Console;

beforeAll(async () => {
  c = await startConsole();
}, 120_000);
afterAll(() => c?.close());

describe("settings read by the devices and the mini program", () => {
  it.each(LANGUAGES)(
    "%s: the settings screens say who reads the deposit, the discounts and the goods valid days",
    async (lng) => {
      const system = locale(lng, "system_setting").fields;
      const goods = locale(lng, "goods_setting").fields;
      await inLanguage(c, lng, "admin", async ({ page }, { width }) => {
        for (const [name, path, helps] of [
          ["system", "/setting/system", [system.machine_deposit.help, system.goods_valid_days.help]],
          ["goods", "/goods/setting", [goods.is_discount.help, goods.two_discount.help, goods.three_discount.help]],
        ] as const) {
          await go(page, path);
          for (const help of helps) await expect.poll(() => page.getByText(help, { exact: true }).count()).toBe(1);
          // The second help in the middle of the window: the one before it shows above, clear of the save bar.
          const middle = page.getByText(helps[1], { exact: true });
          await middle.evaluate((el) => el.scrollIntoView({ block: "center" }));
          expect(await middle.isVisible()).toBe(true);
          await shot(page, `settings-read-${name}-${lng}-${width}`);
          await expectFits(page, width);
        }
      });
    },
    180_000,
  );
});

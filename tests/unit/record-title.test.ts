// @vitest-environment jsdom
// src/crud/action-sources.tsx recordTitle: how messages, confirmations and page titles name a record. By its
// title; without one, by its kind and when it was made, or its kind alone: never by its id (issue 31).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordTitle } from "../../src/crud/action-sources.tsx";
import { formatDateTime } from "../../src/crud/format.ts";
import { entityView } from "../../src/crud/model.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;
beforeAll(async () => {
  i18n = await setupI18n(["common", "goods", "goods_sku", "machine_restock"]);
});
afterAll(async () => {
  await i18n.changeLanguage("en");
});

describe("a record's words", () => {
  it("are its title where it has one", () => {
    expect(recordTitle(entityView("goods"), { id: 41, title: "Cola 330ml" })).toBe("Cola 330ml");
  });

  it("are its kind and when it was made where it has no title field, in each language", async () => {
    const made = "2026-11-28T07:02:00.000Z";
    expect(recordTitle(entityView("goods_sku"), { id: 41, created_at: made })).toBe(
      `Goods variant · ${formatDateTime(made, "en")}`,
    );
    for (const lng of ["zh", "km", "th", "tw"]) {
      await i18n.changeLanguage(lng);
      const words = recordTitle(entityView("goods_sku"), { id: 41, created_at: made });
      expect(words).toBe(`${i18n.t("goods_sku:name")} · ${formatDateTime(made, lng)}`);
      expect(words).not.toMatch(/#\d|41|goods_sku/);
    }
    await i18n.changeLanguage("en");
  });

  it("are its kind alone where its title is empty and its time unknown", () => {
    expect(recordTitle(entityView("machine_restock"), { id: 7, mac_name: null })).toBe(
      `${i18n.t("machine_restock:name")} without a name`,
    );
    expect(recordTitle(entityView("goods_sku"), { id: 7 })).toBe("Goods variant without a name");
  });
});

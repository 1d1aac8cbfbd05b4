// @vitest-environment jsdom
// src/crud/field-value.tsx: one value as a list cell or detail view shows it.
import { act, render } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FieldValue, MASK } from "../../src/crud/field-value.tsx";
import { entityView } from "../../src/crud/model.ts";
import type { EntityName } from "../../src/generated/types.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;

beforeAll(async () => {
  i18n = await setupI18n(["common", "defs", "order", "goods", "agent", "system_setting", "notice"]);
});

// Back to English with the last test's components still mounted: they re-render, inside act.
afterEach(async () => {
  if (i18n.language !== "en") await act(() => i18n.changeLanguage("en"));
});

function shown(entity: EntityName, field: string, value: unknown, titles?: Map<number, string>) {
  const { container } = render(
    <FieldValue field={entityView(entity).byName.get(field)!} value={value} titles={titles} />,
  );
  return container.textContent;
}

describe("FieldValue", () => {
  it("shows money from minor units", () => {
    expect(shown("order", "money", 12345)).toBe("123.45");
    expect(shown("goods", "unit_price", 0)).toBe("0.00");
    expect(shown("agent", "withdrawable", 123456789)).toBe("1,234,567.89");
  });

  it("shows fractions as percentages", () => {
    expect(shown("system_setting", "withdraw_fee", 0.06)).toBe("6%");
    expect(shown("system_setting", "withdraw_fee", 0.125)).toBe("12.5%");
  });

  it("shows enum values as translated tags", () => {
    expect(shown("order", "pay_status", "refund_requested")).toBe("Refund requested");
    expect(shown("order", "pay_type", 4)).toBe("Agent balance");
    expect(shown("notice", "status", 1)).toBe("Enabled");
  });

  it("shows enum values in Chinese when the language is zh", async () => {
    await i18n.changeLanguage("zh");
    const text = shown("order", "pay_status", "paid");
    expect(text).not.toBe("Paid");
    expect(text).toMatch(/\p{Script=Han}/u);
    expect(shown("notice", "status", 1)).toBe("已启用");
  });

  it("shows a relation by the title of the related record", () => {
    const titles = new Map([
      [3, "Central Market"],
      [4, "Aeon Mall"],
    ]);
    expect(shown("order", "shop_id", 3, titles)).toBe("Central Market");
    // Until the titles arrive, or for a record the user cannot see, the id.
    expect(shown("order", "shop_id", 9, titles)).toBe("#9");
    expect(shown("order", "shop_id", 3)).toBe("#3");
  });

  it("shows several relations by their titles", () => {
    const titles = new Map([
      [1, "Agent A"],
      [2, "Agent B"],
    ]);
    expect(shown("goods", "sync_user", [1, 2], titles)).toBe("Agent AAgent B");
  });

  it("shows a dash for an empty value", () => {
    expect(shown("order", "money", null)).toBe("-");
    expect(shown("order", "order_no", "")).toBe("-");
    expect(shown("order", "shop_id", undefined)).toBe("-");
  });

  it("masks write-only values", () => {
    expect(shown("system_setting", "sms_secret", "x9Vb2kR7pLq4ExampleSecret")).toBe(MASK);
    expect(shown("agent", "password", "anything")).toBe("******");
  });

  it("shows images as thumbnails and other uploads by file name", () => {
    const { container } = render(
      <AntdRoot>
        <FieldValue field={entityView("goods").byName.get("pic_url")!} value="/uploads/goods/cola.jpg" />
      </AntdRoot>,
    );
    expect(container.querySelector("img")?.getAttribute("src")).toBe("/uploads/goods/cola.jpg");
    expect(shown("system_setting", "bg_music", "/uploads/setting/welcome.mp3")).toBe("welcome.mp3");
  });

  it("shows dates in a fixed, readable form", () => {
    expect(shown("order", "order_time", "2026-11-21T09:30:12")).toBe("2026-11-21 09:30");
  });
});

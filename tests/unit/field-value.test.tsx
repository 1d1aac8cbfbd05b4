// @vitest-environment jsdom
// src/crud/field-value.tsx: one value as a list cell or detail view shows it.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { FieldValue, MASK } from "../../src/crud/field-value.tsx";
import { setCurrency } from "../../src/crud/format.ts";
import { entityView } from "../../src/crud/model.ts";
import type { EntityName } from "../../src/generated/types.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;

beforeAll(async () => {
  i18n = await setupI18n([
    "common",
    "defs",
    "order",
    "goods",
    "agent",
    "system_setting",
    "notice",
    "charge_log",
    "charge_plan",
    "charge_pile_plan",
    "channel_plan",
    "delivery_order",
  ]);
});

// Back to English with the last test's components still mounted: they re-render, inside act.
afterEach(async () => {
  if (i18n.language !== "en") await act(() => i18n.changeLanguage("en"));
  setCurrency(undefined);
});

function shown(entity: EntityName, field: string, value: unknown, titles?: Map<string, Map<number, string>>) {
  const { container } = render(
    <AntdRoot>
      <FieldValue field={entityView(entity).byName.get(field)!} value={value} titles={titles} />
    </AntdRoot>,
  );
  return container.textContent;
}

describe("FieldValue", () => {
  it("shows money from minor units", () => {
    expect(shown("order", "money", 12345)).toBe("123.45");
    expect(shown("goods", "unit_price", 0)).toBe("0.00");
    expect(shown("agent", "withdrawable", 123456789)).toBe("1,234,567.89");
  });

  it("shows money in the business's currency, as each language writes it", async () => {
    setCurrency("USD");
    expect(shown("order", "money", 12345)).toBe("$123.45");
    expect(shown("agent", "withdrawable", 123456789)).toBe("$1,234,567.89");
    await act(() => i18n.changeLanguage("zh"));
    expect(shown("order", "money", 12345)).toBe("US$123.45");
    setCurrency("CNY");
    expect(shown("order", "money", 12345)).toBe("¥123.45");
    await act(() => i18n.changeLanguage("km"));
    setCurrency("KHR");
    expect(shown("order", "money", 500000)).toBe("5,000.00៛");
  });

  it("shows quantities with their unit, and a tariff per unit", async () => {
    setCurrency("USD");
    expect(shown("charge_log", "minutes", 90)).toBe("90 min");
    expect(shown("charge_log", "energy_kwh", 12.5)).toBe("12.5 kWh");
    expect(shown("delivery_order", "weight_kg", 1234.5)).toBe("1,234.5 kg");
    expect(shown("charge_pile_plan", "electricity_fee", 120)).toBe("$1.20 / kWh");
    expect(shown("system_setting", "profit_days", 1)).toBe("1 day");
    expect(shown("system_setting", "profit_days", 7)).toBe("7 days");
    await act(() => i18n.changeLanguage("th"));
    expect(shown("charge_pile_plan", "max_hours", 8)).toBe("8 ชม.");
  });

  it("shows a list of objects as readable text, each property formatted", () => {
    setCurrency("USD");
    const packages = [
      { minutes: 60, fee: 100 },
      { minutes: 180, fee: 250 },
    ];
    expect(shown("charge_plan", "packages", packages)).toBe("60 min · $1.00; 180 min · $2.50");
    const many = [1, 2, 3, 4, 5].map((n) => ({ minutes: n * 10, fee: n * 100 }));
    expect(shown("charge_plan", "packages", many)).toBe("10 min · $1.00; 20 min · $2.00; 30 min · $3.00; +2");
  });

  it("names the related records inside a list of objects (a channel plan's lanes)", () => {
    const lanes = [
      { channel_number: 1, goods_id: 7, count: 12, price: 350 },
      { channel_number: 2, goods_id: 8, count: 10, price: 500 },
    ];
    const titles = new Map([["goods", new Map([[7, "Coca-Cola 330ml"]])]]);
    expect(shown("channel_plan", "channels", lanes, titles)).toBe(
      "1 · Coca-Cola 330ml · 12 · 3.50; 2 · Not available · 10 · 5.00",
    );
  });

  it("shows a list of objects as a table in a detail view (the table's code loaded when one is shown)", async () => {
    setCurrency("USD");
    const { container } = render(
      <AntdRoot>
        <FieldValue
          field={entityView("charge_plan").byName.get("packages")!}
          value={[
            { minutes: 60, fee: 100 },
            { minutes: 480, fee: 500 },
          ]}
          detail
        />
      </AntdRoot>,
    );
    await waitFor(() => expect(container.querySelectorAll("thead th")).toHaveLength(2));
    const head = [...container.querySelectorAll("thead th")].map((th) => th.textContent);
    expect(head).toEqual(["Minutes", "Fee"]);
    const cells = [...container.querySelectorAll("tbody tr.ant-table-row")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.textContent),
    );
    expect(cells).toEqual([
      ["60 min", "$1.00"],
      ["480 min", "$5.00"],
    ]);
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
      [
        "shop",
        new Map([
          [3, "Central Market"],
          [4, "Aeon Mall"],
        ]),
      ],
    ]);
    expect(shown("order", "shop_id", 3, titles)).toBe("Central Market");
    // Until the titles arrive, or for a record the user cannot see or that is gone: words, never its id.
    expect(shown("order", "shop_id", 9, titles)).toBe("Not available");
    expect(shown("order", "shop_id", 3)).toBe("Not available");
  });

  it("says a missing relation's title in words in every language", async () => {
    const words = new Set<string>();
    for (const lng of ["en", "zh", "km", "th", "tw"]) {
      await act(() => i18n.changeLanguage(lng));
      const text = shown("order", "shop_id", 9);
      expect(text).not.toMatch(/#\d|record\.|\{\{/);
      words.add(text);
    }
    expect([...words]).toEqual(["Not available", "不可用", "មិនមាន", "ไม่พร้อมใช้งาน"]);
  });

  it("shows several relations by their titles", () => {
    const titles = new Map([
      [
        "agent",
        new Map([
          [1, "Agent A"],
          [2, "Agent B"],
        ]),
      ],
    ]);
    expect(shown("goods", "sync_user", [1, 2], titles)).toBe("Agent AAgent B");
  });

  it("shows the whole of a cut text in a tooltip, and no tooltip for a text that fits", async () => {
    const { container } = render(
      <AntdRoot>
        <FieldValue field={entityView("goods").byName.get("title")!} value="Iced jasmine green tea, 500 ml" />
        <FieldValue field={entityView("goods").byName.get("title")!} value="Water" />
      </AntdRoot>,
    );
    const [long, short] = [...container.querySelectorAll<HTMLElement>(".cell-ellipsis")];
    expect([long.textContent, short.textContent]).toEqual(["Iced jasmine green tea, 500 ml", "Water"]);
    // jsdom lays nothing out: the widths say which text the cell cuts.
    for (const [cell, scroll, client] of [
      [long, 240, 120],
      [short, 40, 40],
    ] as const) {
      Object.defineProperty(cell, "scrollWidth", { value: scroll });
      Object.defineProperty(cell, "clientWidth", { value: client });
    }
    fireEvent.mouseEnter(short);
    expect(screen.queryByRole("tooltip")).toBeNull();
    fireEvent.mouseEnter(long);
    expect((await screen.findByRole("tooltip")).textContent).toBe("Iced jasmine green tea, 500 ml");
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

  it("shows dates in one readable form per language, the Gregorian year everywhere", async () => {
    expect(shown("order", "order_time", "2026-11-21T09:30:12")).toBe("Nov 21, 2026, 09:30");
    await act(() => i18n.changeLanguage("th"));
    expect(shown("order", "order_time", "2026-11-21T09:30:12")).toBe("21 พ.ย. 2026 09:30");
    await act(() => i18n.changeLanguage("tw"));
    expect(shown("order", "order_time", "2026-11-21T09:30:12")).toBe("2026年11月21日 09:30");
    await act(() => i18n.changeLanguage("km"));
    expect(shown("order", "order_time", "2026-11-21T09:30:12")).toBe("21/11/2026 09:30");
  });
});

// @vitest-environment jsdom
// History names what it was written with (src/crud/relations.ts withTitleCopies): an order whose goods
// and device were destroyed reads their names as the order kept them, never its id; a record still there
// reads its own title.
import { describe, expect, it } from "vitest";
import { entityView } from "../../src/crud/model.ts";
import { valueText } from "../../src/crud/format.ts";
import { withTitleCopies } from "../../src/crud/relations.ts";
import { setupI18n } from "./dom-setup.ts";
import type { EntityName } from "../../src/generated/types.ts";

const order = entityView("order");
const field = (name: string) => order.fields.find((f) => f.name === name)!;
const row = {
  id: 1,
  order_no: "202611210930120001",
  goods_id: 41,
  goods_name: "Lane Cola",
  machine_id: 9,
  mac_name: "VM-0009",
};

describe("an order whose goods and device are gone", () => {
  it("reads the goods' and the device's names it kept", () => {
    const titles = withTitleCopies(order.fields, [row], new Map());
    expect(valueText(field("goods_id"), 41, "en", titles)).toBe("Lane Cola");
    expect(valueText(field("machine_id"), 9, "en", titles)).toBe("VM-0009");
  });

  it("reads a record's own title while it is there (renamed since: its name now)", () => {
    const live = new Map<EntityName, Map<number, string>>([["goods", new Map([[41, "Cola 330ml"]])]]);
    const titles = withTitleCopies(order.fields, [row], live);
    expect(valueText(field("goods_id"), 41, "en", titles)).toBe("Cola 330ml");
  });

  it("says it in words, never by its id, where the row kept no name", async () => {
    const i18n = await setupI18n(["common", "order"]);
    const titles = withTitleCopies(order.fields, [{ ...row, goods_name: null }], new Map());
    expect(valueText(field("goods_id"), 41, "en", titles)).toBe("Not available");
    await i18n.changeLanguage("km");
    try {
      expect(valueText(field("goods_id"), 41, "km", titles)).toBe("មិនមាន");
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});

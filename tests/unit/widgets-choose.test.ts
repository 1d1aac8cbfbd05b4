// src/widgets/choose.ts: which widget edits which field, on real entity fields.
import { describe, expect, it } from "vitest";
import type { EntityName } from "../../src/generated/types.ts";
import { entityView } from "../../src/crud/model.ts";
import { widgetFor } from "../../src/widgets/choose.ts";

const widgetOf = (entity: EntityName, field: string) => widgetFor(entityView(entity).byName.get(field)!);

describe("widgetFor", () => {
  it.each([
    ["goods", "unit_price", "money"],
    ["system_setting", "withdraw_fee", "fraction"],
    ["goods", "cate_id", "relation"],
    ["goods", "sync_user", "relations"],
    ["goods", "pic_url", "upload"],
    ["goods", "detail_url", "uploads"],
    ["system_setting", "bg_music", "upload"],
    ["goods", "open_spec", "switch"],
    ["service_order", "problem", "textarea"],
    ["goods", "description", "richtext"],
    ["banner", "skip_type", "RadioWidget"],
    ["order", "pay_type", "enum"],
    ["service_order", "type", "enum"],
    ["notice", "status", "RadioWidget"],
    ["agent", "password", "password"],
    ["order", "order_time", "datetime"],
  ] as const)("%s.%s gets %s", (entity, field, widget) => {
    expect(widgetOf(entity, field)).toBe(widget);
  });

  it("leaves plain text and numbers to rjsf's defaults", () => {
    expect(widgetOf("goods", "title")).toBeUndefined();
    expect(widgetOf("goods", "stock")).toBeUndefined();
  });
});

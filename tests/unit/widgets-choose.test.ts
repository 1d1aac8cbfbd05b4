// src/widgets/choose.ts: which widget edits which field, on real entity fields.
import { describe, expect, it } from "vitest";
import type { EntityName } from "../../src/generated/types.ts";
import { entityView, operationView, type FieldView } from "../../src/crud/model.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";
import { widgetFor } from "../../src/widgets/choose.ts";
import { countChoices } from "../../src/widgets/count-widget.tsx";

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
    ["page", "goods_columns", "count"],
    ["agent", "password", "password"],
    ["order", "order_time", "datetime"],
  ] as const)("%s.%s gets %s", (entity, field, widget) => {
    expect(widgetOf(entity, field)).toBe(widget);
  });

  it("leaves plain text and numbers to rjsf's defaults", () => {
    expect(widgetOf("goods", "title")).toBeUndefined();
    expect(widgetOf("goods", "stock")).toBeUndefined();
  });

  it("finds choices for every field a schema shows as radio buttons (an enum, or a short bounded range)", () => {
    const views = [
      ...Object.keys(entitySchemas).map((name) => entityView(name as EntityName)),
      ...Object.values(operationSchemas).map((schema) => operationView(schema)),
    ];
    const walk = (fields: FieldView[]): FieldView[] => fields.flatMap((f) => [f, ...walk(f.children ?? [])]);
    const radios = views.flatMap((view) =>
      walk(view.fields)
        .filter((f) => f.ui.widget === "radio")
        .map((f) => [`${view.name}.${f.name}`, f.enum?.length || countChoices(f.node).length] as const),
    );
    expect(radios.length).toBeGreaterThan(5);
    expect(radios.filter(([, choices]) => !choices)).toEqual([]);
  });
});

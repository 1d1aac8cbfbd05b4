// src/crud/model.ts: what the console reads from an entity schema, and which state actions a record allows.
import { describe, expect, it } from "vitest";
import { allowedTransitions, entityView } from "../../src/crud/model.ts";

const actions = (entity: Parameters<typeof entityView>[0], record: Record<string, unknown>) =>
  allowedTransitions(entityView(entity), record).map((t) => t.action);

describe("entityView", () => {
  it("orders fields by x-ui.order and knows what each one is", () => {
    const goods = entityView("goods");
    expect(goods.fields.slice(0, 4).map((f) => f.name)).toEqual(["title", "cate_id", "pic_url", "unit_price"]);
    const kinds = Object.fromEntries(goods.fields.map((f) => [f.name, f.kind]));
    expect(kinds).toMatchObject({
      title: "string",
      cate_id: "relation",
      pic_url: "upload",
      detail_url: "uploads",
      unit_price: "money",
      open_spec: "enum",
      spec_attributes: "list",
      sync_user: "relations",
    });
    expect(goods.byName.get("cate_id")?.relation).toBe("goods_category");
    expect(goods.byName.get("title")?.required).toBe(true);
    expect(goods.byName.get("stock")?.required).toBe(false);
  });

  it("resolves defs references with the keywords beside them", () => {
    const setting = entityView("system_setting");
    expect(setting.byName.get("withdraw_fee")?.kind).toBe("fraction");
    expect(setting.byName.get("sms_secret")?.writeOnly).toBe(true);
    expect(setting.byName.get("sms_secret")?.node.maxLength).toBe(256);
    expect(setting.byName.get("bg_music")?.upload?.accept).toEqual(["audio/mpeg"]);
  });

  it("lists columns and filters, leaving hidden fields out", () => {
    const order = entityView("order");
    expect(order.columns.map((f) => f.name)).not.toContain("machine_id");
    expect(order.filters.map((f) => f.name)).not.toContain("machine_id");
    expect(order.columns.map((f) => f.name)).toContain("money");
    expect(order.filters.map((f) => f.name)).toEqual(
      expect.arrayContaining(["order_no", "shop_id", "order_time", "pay_type", "pay_status"]),
    );
  });

  it("names enum values by the entity, or by the definition for shared enums", () => {
    const order = entityView("order");
    expect(order.byName.get("pay_status")?.enumKey?.("paid")).toBe("order:enum.pay_status.paid");
    expect(order.byName.get("pay_type")?.enumKey?.(4)).toBe("defs:enum.payType.4");
    expect(order.byName.get("money")?.label).toBe("order:fields.money.label");
  });
});

describe("allowedTransitions", () => {
  it("offers the end of use only on the device kind it belongs to", () => {
    const inUse = { is_drop: 0, use_status: "in_use" };
    expect(actions("order", { ...inUse, device_kind: "charging_cable" })).toEqual(["end"]);
    expect(actions("order", { ...inUse, device_kind: "car_wash" })).toEqual(["end"]);
    expect(actions("order", { ...inUse, device_kind: "dryer" })).toEqual(["dryer_end"]);
    expect(actions("order", { ...inUse, device_kind: "vending" })).toEqual([]);
  });

  it("offers nothing for an order whose use has ended and that was not dropped", () => {
    expect(actions("order", { is_drop: 0, use_status: "ended", device_kind: "dryer" })).toEqual([]);
  });

  it("combines the state machines of several fields", () => {
    expect(actions("order", { is_drop: 1, use_status: "in_use", device_kind: "dryer" })).toEqual([
      "cancel_drop",
      "dryer_end",
    ]);
  });

  it("lets a pending service order only be accepted, a processing one only finished", () => {
    expect(actions("service_order", { status: "pending" })).toEqual(["accept"]);
    expect(actions("service_order", { status: "processing" })).toEqual(["finish"]);
    expect(actions("service_order", { status: "completed" })).toEqual([]);
  });

  it("compares numeric states by value", () => {
    expect(actions("notice", { status: 0 })).toEqual(["enable"]);
    expect(actions("notice", { status: 1 })).toEqual(["disable"]);
    expect(actions("notice", { status: "1" })).toEqual([]);
  });

  it("offers nothing for an entity without states", () => {
    expect(actions("goods", { title: "Cola" })).toEqual([]);
  });
});

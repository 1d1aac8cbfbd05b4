// src/widgets/keyboard.ts: the keyboard a phone brings up for a form's field, and what the browser may fill
// it with, read from real entity and operation fields.
import { describe, expect, it } from "vitest";
import type { EntityName } from "../../src/generated/types.ts";
import { entityView, operationView } from "../../src/crud/model.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import { keyboardOf, keypadOf } from "../../src/widgets/keyboard.ts";

const keyboardAt = (entity: EntityName, field: string) => keyboardOf(entityView(entity).byName.get(field)!);

describe("keyboardOf", () => {
  it("gives a whole number the digits and an amount or a coordinate digits and a point", () => {
    expect(keyboardAt("goods", "stock")).toEqual({ inputMode: "numeric" });
    expect(keyboardAt("goods", "unit_price")).toEqual({ inputMode: "decimal" });
    expect(keyboardAt("system_setting", "withdraw_fee")).toEqual({ inputMode: "decimal" });
    expect(keyboardAt("shop", "longitude")).toEqual({ inputMode: "decimal" });
  });

  it("gives a phone number the phone pad, as an input of type tel", () => {
    expect(keyboardAt("shop", "phone")).toEqual({ inputType: "tel", inputMode: "tel" });
    expect(keyboardAt("agent", "phone")).toEqual({ inputType: "tel", inputMode: "tel" });
  });

  it("types an address, an account or an app id as it is: no capitals, no corrections", () => {
    expect(keyboardAt("shop", "meal_url")).toEqual({ inputMode: "url", autocapitalize: "none", verbatim: true });
    expect(keyboardAt("agent", "account")).toEqual({ autocomplete: "off", autocapitalize: "none", verbatim: true });
    expect(keyboardAt("shop", "meal_appid")).toEqual({ autocomplete: "off", autocapitalize: "none", verbatim: true });
  });

  it("never lets the browser fill another account's password with the user's own", () => {
    expect(keyboardAt("agent", "password")).toEqual({ autocomplete: "new-password" });
    expect(keyboardAt("agent", "confirm_password")).toEqual({ autocomplete: "new-password" });
  });

  it("offers the user's own password only where the schema says it is theirs (changing it)", () => {
    const view = operationView(operationSchemas["modify-password"]);
    expect(keyboardOf(view.byName.get("old_password")!)).toEqual({ autocomplete: "current-password" });
    expect(keyboardOf(view.byName.get("new_password")!)).toEqual({ autocomplete: "new-password" });
  });

  it("leaves words, uploads and choices the full keyboard", () => {
    expect(keyboardAt("goods", "title")).toEqual({});
    expect(keyboardAt("goods", "pic_url")).toEqual({});
    expect(keyboardAt("service_order", "problem")).toEqual({});
  });
});

describe("keypadOf", () => {
  it("reads a type that may be empty as its own", () => {
    expect(keypadOf(["integer", "null"])).toBe("numeric");
    expect(keypadOf(["null", "number"])).toBe("decimal");
    expect(keypadOf("string")).toBeUndefined();
  });
});

// @vitest-environment jsdom
// src/crud/form-schema.ts: the form schema of an entity per mode, its uiSchema (translated titles, enum
// labels, widgets, read-only and hidden fields) and its validation messages in the user's language.
import type { RJSFValidationError } from "@rjsf/utils";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  formSchema,
  labelOf,
  serverErrorSchema,
  transitionSchema,
  translateErrors,
  uiSchemaFor,
  whenKey,
} from "../../src/crud/form-schema.ts";
import { entityView, operationView, type FormView } from "../../src/crud/model.ts";
import { operationSchemas, type OperationCall } from "../../src/generated/operations.ts";
import { validator } from "../../src/crud/schema-form.tsx";
import { widgets } from "../../src/widgets/index.ts";
import { entityNames, entitySchemas } from "../../src/generated/schemas.ts";
import type { EntityName } from "../../src/generated/types.ts";
import { setupI18n } from "./dom-setup.ts";

type Schema = Record<string, unknown>;
type Ui = Record<string, Record<string, unknown>>;

let i18n: Awaited<ReturnType<typeof setupI18n>>;

beforeAll(async () => {
  i18n = await setupI18n([
    "common",
    "defs",
    "validation",
    "goods",
    "order",
    "service_order",
    "agent",
    "notice",
    "banner",
    "operations",
    "car_wash_plan",
    "system_setting",
    "machine",
  ]);
});

afterEach(async () => {
  if (i18n.language !== "en") await i18n.changeLanguage("en");
});

/** An entity's view, or an operation's (by its call name). */
const viewOf = (name: string): FormView =>
  name in entitySchemas ? entityView(name as EntityName) : operationView(operationSchemas[name as OperationCall]);
const schemaOf = (entity: string, mode: "create" | "edit") => formSchema(viewOf(entity), mode);
const propertiesOf = (schema: Schema) => Object.keys(schema.properties as Schema);
const uiOf = (entity: EntityName, mode: "create" | "edit", fixed?: string[]) => {
  const view = entityView(entity);
  return uiSchemaFor(view, formSchema(view, mode), mode, fixed) as Ui;
};

/** Every $ref in a schema. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref") out.push(String(value));
      else refsOf(value, out);
    }
  }
  return out;
}

/** The errors rjsf reports for form data, through the form's own transform. */
function errorsOf(entity: string, data: Schema, mode: "create" | "edit" = "create"): RJSFValidationError[] {
  const schema = schemaOf(entity, mode);
  return validator.validateFormData(data, schema, undefined, translateErrors(viewOf(entity).base)).errors;
}
const messagesOf = (entity: string, data: Schema, mode?: "create" | "edit") =>
  errorsOf(entity, data, mode).map((e) => e.message);

describe("formSchema", () => {
  it("leaves read-only fields out of a create form, and out of required", () => {
    const schema = schemaOf("service_order", "create");
    expect(propertiesOf(schema)).not.toContain("status");
    expect(schema.required).toEqual(["type", "problem"]);

    const order = schemaOf("order", "create");
    for (const field of ["pay_status", "is_drop", "use_status", "agent_id"]) {
      expect(propertiesOf(order)).not.toContain(field);
    }
    expect(order.required).toEqual(["order_no", "machine_id", "order_time", "money"]);
  });

  it("keeps read-only fields on an edit form, but does not require them", () => {
    const schema = schemaOf("service_order", "edit");
    expect(propertiesOf(schema)).toContain("status");
    expect(schema.required).toEqual(["type", "problem"]);
  });

  it("requires write-only fields on create only", () => {
    expect(schemaOf("agent", "create").required).toEqual(
      expect.arrayContaining(["password", "confirm_password", "account"]),
    );
    const edit = schemaOf("agent", "edit");
    expect(edit.required).not.toContain("password");
    expect(edit.required).not.toContain("confirm_password");
    expect(edit.required).toContain("account");
    expect(propertiesOf(edit)).toContain("password");
  });

  it("makes write-only fields optional in conditional branches too", () => {
    expect((schemaOf("banner", "create").then as Schema).required).toEqual(["appid", "secret"]);
    expect((schemaOf("banner", "edit").then as Schema).required).toEqual(["appid"]);
  });

  it("drops the annotations ajv need not see", () => {
    const schema = schemaOf("goods", "create");
    for (const key of ["$id", "x-entity", "x-states", "examples", "description"])
      expect(schema).not.toHaveProperty(key);
  });

  it("shows no field the schema's own (English) description, and keeps a field named description", () => {
    const schema = schemaOf("system_setting", "edit");
    const properties = schema.properties as Record<string, Schema>;
    expect(entitySchemas.system_setting.properties.currency).toHaveProperty("description");
    expect(properties.currency).not.toHaveProperty("description");
    expect(JSON.stringify(schema)).not.toContain("ISO 4217");
    expect(JSON.stringify(schemaOf("goods", "create"))).not.toMatch(/"description":"/);
    expect(propertiesOf(schemaOf("charge_pile_plan", "create"))).toContain("description");
  });

  it("inlines the shared definitions it uses", () => {
    const schema = schemaOf("goods", "create");
    expect((schema.properties as Record<string, Schema>).unit_price.$ref).toBe("#/definitions/money");
    expect(schema.definitions).toHaveProperty("money");
    expect(refsOf(schema).every((ref) => ref.startsWith("#/definitions/"))).toBe(true);
  });

  const cases = entityNames.flatMap((name) => (["create", "edit"] as const).map((mode) => [name, mode] as const));

  // Definitions that reference other definitions (images → image, minutePackage → money, ids → id)
  // included: service_order, car_wash_plan, dryer_plan and plugin_setting name only the outer one.
  for (const [name, mode] of cases) {
    it(`bundles ${name} (${mode}) with every reference resolvable, and compiles`, () => {
      const schema = schemaOf(name, mode);
      const definitions = schema.definitions as Schema;
      for (const ref of refsOf(schema)) {
        expect(ref.startsWith("#/definitions/"), ref).toBe(true);
        expect(definitions, ref).toHaveProperty([ref.slice("#/definitions/".length)]);
      }
      expect(validator.rawValidation(schema, {}).validationError).toBeUndefined();
    });
  }

  it("accepts each entity's example on its edit form", () => {
    for (const name of entityNames) {
      const example = (entitySchemas[name].examples?.[0] ?? {}) as Schema;
      const { errors } = validator.validateFormData(example, schemaOf(name, "edit"));
      expect(errors, name).toEqual([]);
    }
  });
});

describe("transitionSchema", () => {
  it("asks for a transition's input only, with its required fields", () => {
    const view = entityView("withdrawal");
    const refuse = view.states.get("status")!.find((t) => t.action === "refuse")!;
    const schema = transitionSchema(view, refuse);
    expect(propertiesOf(schema)).toEqual(["refuse_reason"]);
    expect(schema.required).toEqual(["refuse_reason"]);
    expect(validator.isValid(schema, { refuse_reason: "Name mismatch" }, schema)).toBe(true);
    expect(validator.isValid(schema, {}, schema)).toBe(false);
    expect(validator.isValid(schema, { refuse_reason: "" }, schema)).toBe(false);
    expect(validator.isValid(schema, { refuse_reason: "x", amount: 1 }, schema)).toBe(false);
  });
});

describe("uiSchemaFor", () => {
  it("titles fields with their translated labels and help", () => {
    const ui = uiOf("goods", "create");
    expect(ui.title["ui:title"]).toBe("Title");
    expect(ui.unit_price["ui:title"]).toBe("Retail price");
    expect(ui.down_price["ui:description"]).toBe("Price at which subordinate agents buy this item");
    expect(ui.title).not.toHaveProperty("ui:description");
    // Nested fields of a list's items.
    expect((ui.spec_attributes.items as Ui).name["ui:title"]).toBe("Attribute");
  });

  it("chooses each field's widget", () => {
    const goods = uiOf("goods", "create");
    expect(goods.unit_price["ui:widget"]).toBe("money");
    expect(goods.cate_id["ui:widget"]).toBe("relation");
    expect(goods.sync_user["ui:widget"]).toBe("relations");
    expect(goods.pic_url["ui:widget"]).toBe("upload");
    expect(goods.detail_url["ui:widget"]).toBe("uploads");
    expect(goods.open_spec["ui:widget"]).toBe("switch");
    expect(goods.title).not.toHaveProperty("ui:widget");
    expect(uiOf("system_setting", "edit").withdraw_fee["ui:widget"]).toBe("fraction");
    expect(uiOf("service_order", "create").problem["ui:widget"]).toBe("textarea");
  });

  it("names only widgets the form has, for every entity", () => {
    // rjsf's own widgets (the antd theme's), by the names widgetFor uses.
    const builtIn = new Set(["RadioWidget", "checkboxes", "password", "datetime", "date", "hidden"]);
    const named = (ui: unknown, out: string[] = []): string[] => {
      if (ui && typeof ui === "object") {
        for (const [key, value] of Object.entries(ui)) {
          if (key === "ui:widget") out.push(String(value));
          else named(value, out);
        }
      }
      return out;
    };
    for (const name of entityNames.filter((n) => n !== "page")) {
      for (const mode of ["create", "edit"] as const) {
        for (const widget of named(uiOf(name, mode))) {
          if (!builtIn.has(widget)) expect(widgets, `${name} (${mode}): ${widget}`).toHaveProperty([widget]);
        }
      }
    }
  });

  // The page form's layout is a document ($ref: page_layout), not a defs definition: /page/add and
  // /page/edit/:id show the generated form until the layout editor lands.
  it("builds the page form's uiSchema, layout document included", () => {
    for (const mode of ["create", "edit"] as const) {
      const ui = uiOf("page", mode);
      expect(ui.name["ui:title"]).toBeTruthy();
      expect(ui).toHaveProperty("layout");
    }
  });

  it("gives widgets what they need to know about the field", () => {
    const ui = uiOf("goods", "create");
    expect(ui.cate_id["ui:options"]).toMatchObject({ entity: "goods", field: "cate_id", relation: "goods_category" });
    expect(ui.pic_url["ui:options"]).toMatchObject({ upload: { kind: "image" } });
  });

  it("labels enum values from the entity's and the shared locale files", () => {
    const order = uiOf("order", "edit");
    expect(order.pay_status["ui:enumNames"]).toEqual([
      "Pending payment",
      "Paid",
      "Refund requested",
      "Refunded",
      "Cancelled",
      "Partially refunded",
    ]);
    expect((order.pay_type["ui:enumNames"] as string[]).slice(0, 2)).toEqual([
      "Social-app wallet",
      "Bank-card network",
    ]);
    expect(uiOf("banner", "create").skip_type["ui:enumNames"]).toEqual(["No link", "Page", "URL", "Mini-program"]);
    expect(uiOf("notice", "edit").status["ui:enumNames"]).toEqual(["Disabled", "Enabled"]);
  });

  it("makes read-only and x-immutable fields read-only on edit only", () => {
    const edit = uiOf("agent", "edit");
    for (const field of ["role_id", "parent_role_id", "pid", "withdrawable"]) {
      expect(edit[field]["ui:readonly"], field).toBe(true);
    }
    expect(edit.nickname).not.toHaveProperty("ui:readonly");
    const create = uiOf("agent", "create");
    expect(create.role_id).not.toHaveProperty("ui:readonly");
  });

  it("tells that an empty write-only field keeps its value on edit", () => {
    expect(uiOf("agent", "edit").password["ui:placeholder"]).toBe("Leave empty to keep the current value");
    expect(uiOf("agent", "create").password).not.toHaveProperty("ui:placeholder");
  });

  it("hides x-ui.hidden fields and fields the route fixes", () => {
    expect(uiOf("service_order", "create").machine_id["ui:widget"]).toBe("hidden");
    const fixed = uiOf("goods", "create", ["cate_id"]);
    expect(fixed.cate_id["ui:widget"]).toBe("hidden");
    expect(fixed.title["ui:widget"]).toBeUndefined();
  });

  it("shows a field for some records only (x-ui.when) when the form's values are of those records", () => {
    const view = entityView("machine");
    const ui = (data: Record<string, unknown>) =>
      uiSchemaFor(view, formSchema(view, "create"), "create", [], data) as Ui;
    const hidden = (data: Record<string, unknown>) =>
      ["channel_plan_id", "charge_plan_id", "charge_pile_plan_id", "dry_plan_id", "car_wash_plan_id"].filter(
        (name) => ui(data)[name]?.["ui:widget"] === "hidden",
      );
    // No kind chosen yet: no kind's plan is offered.
    expect(hidden({})).toEqual([
      "channel_plan_id",
      "charge_plan_id",
      "charge_pile_plan_id",
      "dry_plan_id",
      "car_wash_plan_id",
    ]);
    expect(hidden({ kind: "vending" })).toEqual([
      "charge_plan_id",
      "charge_pile_plan_id",
      "dry_plan_id",
      "car_wash_plan_id",
    ]);
    expect(hidden({ kind: "dryer" })).toEqual([
      "channel_plan_id",
      "charge_plan_id",
      "charge_pile_plan_id",
      "car_wash_plan_id",
    ]);
    // Fields with no when are shown whatever the values.
    expect(ui({ kind: "dryer" }).mac_name["ui:widget"]).toBeUndefined();
    expect(whenKey(view, { kind: "dryer", mac_name: "A" })).toBe(whenKey(view, { kind: "dryer", mac_name: "B" }));
    expect(whenKey(view, { kind: "dryer" })).not.toBe(whenKey(view, { kind: "vending" }));
  });

  it("orders fields as x-ui.order says and renders no submit button of its own", () => {
    const ui = uiOf("goods", "create") as Record<string, unknown>;
    expect((ui["ui:order"] as string[]).slice(0, 4)).toEqual(["title", "cate_id", "pic_url", "unit_price"]);
    expect((ui["ui:order"] as string[]).at(-1)).toBe("*");
    expect(ui["ui:submitButtonOptions"]).toEqual({ norender: true });
  });

  it("speaks Chinese when the language is zh", async () => {
    await i18n.changeLanguage("zh");
    const ui = uiOf("notice", "edit");
    expect(ui.title["ui:title"]).toBe("标题");
    expect(ui.status["ui:enumNames"]).toEqual(["已禁用", "已启用"]);
  });
});

describe("labelOf", () => {
  it("names a field, nested ones included, by its translated label", () => {
    expect(labelOf("goods:", ".title")).toBe("Title");
    expect(labelOf("car_wash_plan:", "/packages/0/fee")).toBe("Fee");
    expect(labelOf("car_wash_plan:", ".packages.2.minutes")).toBe("Minutes");
    expect(labelOf("goods:", "spec_attributes.1.name")).toBe("Attribute");
  });

  it("falls back to the common system-column label, then to the name", () => {
    expect(labelOf("goods:", ".created_at")).toBe("Created at");
    expect(labelOf("goods:", ".mystery")).toBe("mystery");
    expect(labelOf("goods:", "")).toBe("");
  });
});

describe("translateErrors", () => {
  it("names required fields by their labels", () => {
    const errors = errorsOf("notice", {});
    // The status too: a notice starts enabled or disabled as the add form says (x-states initial).
    expect(errors.map((e) => e.message).sort()).toEqual([
      "Content is required",
      "Status is required",
      "Title is required",
    ]);
    expect(errors.map((e) => e.property).sort()).toEqual(["content", "status", "title"]);
    expect(errors.every((e) => e.stack === e.message)).toBe(true);
  });

  it("gives limits in the message", () => {
    expect(messagesOf("agent", { password: "abc" })).toContain("Password must have at least 6 characters");
    expect(messagesOf("goods", { unit_price: -1 })).toContain("Retail price must be at least 0");
  });

  it("uses the entity's own message for an x-compare rule", () => {
    const messages = messagesOf("modify-password", {
      old_password: "s3cret-pass",
      new_password: "Mekong-2026!",
      confirm_password: "Mekong-2027!",
    });
    expect(messages).toEqual(["New and confirm password must be the same"]);
  });

  it("reports a conditional branch's own errors, not the if", () => {
    const errors = errorsOf("banner", { title: "x", picture: "/a.png", skip_type: "mini_program", sort: 1, status: 1 });
    expect(errors.map((e) => e.name)).not.toContain("if");
    expect(errors.map((e) => e.message)).toEqual(["Mini-program AppID is required", "Mini-program secret is required"]);
  });

  it("translates a missing property nested in an item", () => {
    const [error] = translateErrors("car_wash_plan:")([
      { name: "required", property: ".packages.0", params: { missingProperty: "fee" }, message: "", stack: "" },
    ]);
    expect(error.property).toBe(".packages.0.fee");
    expect(error.message).toBe("Fee is required");
  });

  it("says a relation left unchosen is not selected: a bind dialog with no plan, agent or outlet", async () => {
    const bind = (call: string, data: Schema) => {
      const view = viewOf(call);
      const isRelation = (field: string) => view.byName.get(field)?.kind === "relation";
      return validator
        .validateFormData(data, formSchema(view, "create"), undefined, translateErrors(view.base, isRelation))
        .errors.map((e) => [e.property?.replace(/^\./, ""), e.message]);
    };
    expect(bind("machine-bind-plan", { id: [1] })).toEqual([
      ["channel_plan_id", "Channel plan: nothing selected, choose one"],
    ]);
    expect(bind("machine-bind-manage", { id: [1], agent_id: 0 })).toEqual([
      ["agent_id", "Agent: nothing selected, choose one"],
    ]);
    // Chosen: nothing to say. Not a relation: the usual words.
    expect(bind("machine-bind-shop", { id: [1], shop_id: 4 })).toEqual([]);
    expect(messagesOf("notice", { content: "x", status: 1 })).toEqual(["Title is required"]);
    await i18n.changeLanguage("th");
    expect(bind("machine-bind-shop", { id: [1] })).toEqual([["shop_id", "ยังไม่ได้เลือกสาขา กรุณาเลือก"]]);
  });

  it("keeps ajv's message for a keyword it has no text for", () => {
    const [error] = translateErrors("goods:")([
      { name: "propertyNames", property: ".title", params: {}, message: "property name is invalid", stack: "" },
    ]);
    expect(error.message).toBe("property name is invalid");
  });

  it("speaks Chinese when the language is zh", async () => {
    await i18n.changeLanguage("zh");
    expect(messagesOf("notice", {}).sort()).toEqual(["内容不能为空", "标题不能为空", "状态不能为空"].sort());
    expect(
      messagesOf("modify-password", {
        old_password: "s3cret-pass",
        new_password: "abcdefg",
        confirm_password: "abcdefh",
      }),
    ).toEqual(["新密码与确认密码不一致"]);
  });
});

describe("serverErrorSchema", () => {
  it("puts each server error on its field, nested paths included", () => {
    expect(
      serverErrorSchema([
        { field: "title", keyword: "required", message: "Title is required" },
        { field: "packages/0/fee", keyword: "minimum", message: "Fee must be at least 0" },
        { field: "packages/0/fee", keyword: "x-compare", message: "Too high" },
        { field: "packages/1/minutes", keyword: "required", message: "Minutes is required" },
      ]),
    ).toEqual({
      title: { __errors: ["Title is required"] },
      packages: {
        0: { fee: { __errors: ["Fee must be at least 0", "Too high"] } },
        1: { minutes: { __errors: ["Minutes is required"] } },
      },
    });
  });

  it("is empty without errors", () => {
    expect(serverErrorSchema()).toEqual({});
  });
});

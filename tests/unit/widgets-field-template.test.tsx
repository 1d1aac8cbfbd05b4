// @vitest-environment jsdom
// src/widgets/field-template.tsx: a field's antd Form.Item re-rendering (an object's item, at every change
// the form takes) does not re-render the fields' items inside it; antd's own template does.
import { getTestRegistry } from "@rjsf/core";
import { Templates } from "@rjsf/antd";
import type { FieldTemplateProps, RJSFSchema } from "@rjsf/utils";
import { render } from "@testing-library/react";
import { NoStyleItemContext } from "antd/es/form/context";
import { memo, useContext, type ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { FieldTemplate } from "../../src/widgets/field-template.tsx";
import { AntdRoot } from "./antd-root.ts";

const schema: RJSFSchema = { type: "object", properties: { name: { type: "string" } } };
const registry = getTestRegistry(schema, {}, Templates);

/** What an antd Form.Item inside the object reads from it, and how often it renders. */
function innerItem() {
  let renders = 0;
  const Inner = memo(function Inner() {
    useContext(NoStyleItemContext);
    renders++;
    return null;
  });
  return { Inner, renders: () => renders };
}

/** The object's field rendered by `Template`, then rendered again as after a change (its errors). */
function renderObjectTwice(Template: ComponentType<FieldTemplateProps>) {
  const { Inner, renders } = innerItem();
  const props = (errors: string[]) =>
    ({
      id: "root",
      label: "Settings",
      displayLabel: true,
      rawErrors: errors,
      errors: <>{errors.join(" ")}</>,
      schema,
      uiSchema: {},
      registry,
      required: false,
      hidden: false,
      disabled: false,
      readonly: false,
      classNames: "",
    }) as unknown as FieldTemplateProps;
  const ui = (errors: string[]) => (
    <AntdRoot>
      <Template {...props(errors)}>
        <Inner />
      </Template>
    </AntdRoot>
  );
  const { rerender } = render(ui([]));
  rerender(ui(["must have a name"]));
  rerender(ui([]));
  return renders();
}

describe("FieldTemplate", () => {
  it("keeps the fields' items inside a field's item from re-rendering with it", () => {
    expect(renderObjectTwice(FieldTemplate)).toBe(1);
  });

  it("is needed: antd's own template re-renders them at each of its renders", () => {
    expect(renderObjectTwice(Templates.FieldTemplate as ComponentType<FieldTemplateProps>)).toBe(3);
  });
});

// A list of objects (a channel plan's lanes, a plan's packages and tiers) edited as a table: a header
// of the objects' property labels, one row per object with its inputs side by side and its own
// errors under each, the row's move and remove buttons at its end, and "Add" below. rjsf templates,
// chosen by form-schema.ts for lists whose objects hold plain values.
import type {
  ArrayFieldItemTemplateProps,
  ArrayFieldTemplateProps,
  ObjectFieldTemplateProps,
  RJSFSchema,
  UiSchema,
} from "@rjsf/utils";
import { buttonId, getTemplate, getUiOptions, TranslatableString } from "@rjsf/utils";
import { Button, Typography } from "antd";
import { PlusOutlined } from "@ant-design/icons";

/** The list: its title, the header row, the rows, then "Add". */
export function TableArrayTemplate(props: ArrayFieldTemplateProps) {
  const { items, canAdd, onAddClick, title, required, schema, uiSchema, registry, disabled, readonly, fieldPathId } =
    props;
  const itemSchema = registry.schemaUtils.retrieveSchema((schema.items ?? {}) as RJSFSchema);
  const itemUi = (uiSchema?.items ?? {}) as UiSchema;
  const columns = Object.keys(itemSchema.properties ?? {}).filter(
    (name) => (itemUi[name] as UiSchema | undefined)?.["ui:widget"] !== "hidden",
  );
  const needed = new Set(itemSchema.required ?? []);
  const label = getUiOptions(uiSchema).title ?? title;
  return (
    <fieldset className="table-array" id={fieldPathId.$id}>
      {label && (
        <div className="table-array-title">
          {required && <span className="table-array-required">*</span>}
          {label}
        </div>
      )}
      <div className="table-array-scroll">
        <div className="table-array-body" style={{ minWidth: columns.length * 140 + 120 }}>
          <div className="table-array-row table-array-head" role="row">
            <div className="table-array-cells">
              {columns.map((name) => (
                <div key={name} className="table-array-cell" role="columnheader">
                  {needed.has(name) && <span className="table-array-required">*</span>}
                  {String((itemUi[name] as UiSchema | undefined)?.["ui:title"] ?? name)}
                </div>
              ))}
            </div>
            <div className="table-array-tools" />
          </div>
          {items}
          {items.length === 0 && (
            <Typography.Text type="secondary" className="table-array-empty">
              {registry.translateString(TranslatableString.EmptyArray)}
            </Typography.Text>
          )}
        </div>
      </div>
      {canAdd && (
        <Button
          id={buttonId(fieldPathId, "add")}
          className="rjsf-array-item-add table-array-add"
          icon={<PlusOutlined />}
          type="dashed"
          disabled={disabled || readonly}
          onClick={onAddClick}
        >
          {registry.translateString(TranslatableString.AddItemButton)}
        </Button>
      )}
    </fieldset>
  );
}

/** One object of the list: its inputs (the row object template below), then its buttons. */
export function TableRowTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, registry, uiSchema } = props;
  const Buttons = getTemplate("ArrayFieldItemButtonsTemplate", registry, getUiOptions(uiSchema));
  return (
    <div className="table-array-row" role="row">
      <div className="table-array-item">{children}</div>
      <div className="table-array-tools">{hasToolbar && <Buttons {...buttonsProps} />}</div>
    </div>
  );
}

/** An object's properties side by side, one cell each, without their labels (the header has them). */
export function TableRowObjectTemplate({ properties }: ObjectFieldTemplateProps) {
  return (
    <div className="table-array-cells">
      {properties
        .filter((property) => !property.hidden)
        .map((property) => (
          <div key={property.name} className="table-array-cell" role="cell">
            {property.content}
          </div>
        ))}
    </div>
  );
}

/** Whether a list's objects hold only plain values (no nested objects or lists): they fit a table. */
export function fitsTable(item: { properties?: Record<string, { type?: unknown; items?: unknown }> }): boolean {
  const properties = Object.values(item.properties ?? {});
  return (
    properties.length > 0 &&
    properties.length <= 8 &&
    properties.every((p) => p.items === undefined && p.type !== "object" && p.type !== "array")
  );
}

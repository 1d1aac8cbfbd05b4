// rjsf antd's field template, with the fields inside an object's (or a list's) item kept from re-rendering
// along with it. antd's Form.Item hands the items inside it a new callback for `noStyle` items at each of
// its renders (its NoStyleItemContext), so the form's root item, re-rendered at every change the form
// takes, re-rendered every field's item: ~20 ms on the system settings' 22 fields for one field's change
// (npm run bench, "leaving the field"). No item in these forms is `noStyle`, so the items inside get none.
import { Templates } from "@rjsf/antd";
import type { FieldTemplateProps } from "@rjsf/utils";
import { NoStyleItemContext } from "antd/es/form/context";
import type { ComponentType } from "react";

const AntdFieldTemplate = Templates.FieldTemplate as ComponentType<FieldTemplateProps>;

export function FieldTemplate(props: FieldTemplateProps) {
  return (
    <AntdFieldTemplate {...props}>
      <NoStyleItemContext.Provider value={null}>{props.children}</NoStyleItemContext.Provider>
    </AntdFieldTemplate>
  );
}

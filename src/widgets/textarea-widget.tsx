// Long text: a growing text area; rich-text fields get more room and a character count.
import type { WidgetProps } from "@rjsf/utils";
import { Input } from "antd";
import { useSettledValue } from "./settled-input.tsx";

export function TextareaWidget(props: WidgetProps) {
  return <LongText {...props} rich={false} />;
}

export function RichTextWidget(props: WidgetProps) {
  return <LongText {...props} rich />;
}

function LongText({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  readonly,
  placeholder,
  rawErrors,
  schema,
  rich,
}: WidgetProps & { rich: boolean }) {
  // What is typed reaches the form once typing settles (src/widgets/settled-input.tsx).
  const settled = useSettledValue<string | undefined>(value as string | undefined, onChange);
  return (
    <Input.TextArea
      id={id}
      value={settled.value ?? ""}
      autoSize={{ minRows: rich ? 6 : 3, maxRows: rich ? 20 : 8 }}
      maxLength={schema.maxLength}
      showCount={rich || (schema.maxLength ?? 0) <= 2000}
      placeholder={placeholder}
      disabled={disabled}
      readOnly={readonly}
      status={rawErrors?.length ? "error" : undefined}
      onBlur={() => {
        settled.flush();
        onBlur(id, value);
      }}
      onChange={(event) => settled.change(event.target.value === "" ? undefined : event.target.value)}
    />
  );
}

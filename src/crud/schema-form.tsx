// The generated form: react-jsonschema-form with the antd theme, our widgets, translated titles and
// messages, validated in the browser by the same schema and keywords the server uses, with the
// server's own field errors shown on their fields. Nothing typed is lost when saving fails, nor when the
// network fails it: the form says it was not sent and offers to send it again.
import Form from "@rjsf/antd";
import type { default as CoreForm, IChangeEvent } from "@rjsf/core";
import { englishStringTranslator, type TranslatableString } from "@rjsf/utils";
import { customizeValidator } from "@rjsf/validator-ajv8";
import { App, Button, Space } from "antd";
import i18n from "i18next";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { schemaKeywords } from "../schema/ajv.ts";
import { widgets } from "../widgets/index.ts";
import { FieldTemplate } from "../widgets/field-template.tsx";
import { PendingInputs, PendingInputsContext, SettledBaseInputTemplate } from "../widgets/settled-input.tsx";
import type { FieldError } from "../app/api.ts";
import { NotSent } from "../app/not-sent.tsx";
import type { FormView } from "./model.ts";
import { useUnsavedChanges } from "../app/unsaved.tsx";
import { sameFormData } from "./form-data.ts";
import { focusFirstField } from "./first-field.ts";
import { serverErrorSchema, translateErrors, uiSchemaFor, whenKey, type FormMode } from "./form-schema.ts";

export { formSchema, transitionSchema } from "./form-schema.ts";

type Data = Record<string, unknown>;

export const validator = customizeValidator({
  ajvOptionsOverrides: {
    keywords: schemaKeywords,
    strict: false,
    strictRequired: false,
    allErrors: true,
    multipleOfPrecision: 9,
  },
});

/** rjsf's own texts (add item, remove, ...) from common:rjsf, English where none is kept. */
function translateString(key: TranslatableString, params?: string[]): string {
  const name = Object.entries(TRANSLATABLE).find(([, text]) => text === key)?.[0];
  return name && i18n.exists(`common:rjsf.${name}`)
    ? i18n.t(`common:rjsf.${name}`)
    : englishStringTranslator(key, params);
}
const TRANSLATABLE: Record<string, string> = {
  AddItemButton: "Add Item",
  AddButton: "Add",
  RemoveButton: "Remove",
  MoveUpButton: "Move up",
  MoveDownButton: "Move down",
  CopyButton: "Copy",
  EmptyArray: "No items yet. Use the button below to add some.",
  YesLabel: "Yes",
  NoLabel: "No",
  NowLabel: "Now",
  ClearLabel: "Clear",
  ErrorsLabel: "Errors",
};

/**
 * Text inputs keep what is typed until it settles (src/widgets/settled-input.tsx); a field's item does not
 * re-render the items inside it (src/widgets/field-template.tsx).
 */
const TEMPLATES = { BaseInputTemplate: SettledBaseInputTemplate, FieldTemplate };

/** Labels beside their fields on wide screens, above them on narrow ones. */
const FORM_LAYOUT = {
  labelCol: { xs: { span: 24 }, md: { flex: "200px" } },
  wrapperCol: { xs: { span: 24 }, md: { flex: "1 1 0" } },
  colon: false,
};

interface Props {
  view: FormView;
  schema: Data;
  initial: Data;
  mode?: FormMode;
  serverErrors?: FieldError[];
  /** The last save was not sent (the network failed it): said above the buttons, with a way to send it again. */
  notSent?: boolean;
  submitText?: string;
  /** The second button's words (Cancel unless a wizard goes back a step). */
  cancelText?: string;
  /** Fields the route fixes (hidden in the form, sent as they are). */
  fixed?: string[];
  /** The first field takes the focus as the form appears (a dialog's form). */
  focusFirst?: boolean;
  /** Told the values after each change (a dialog's text naming what was chosen). */
  onChange?: (data: Data) => void;
  /**
   * Values that replace what the form holds (a merge the server refused on some field, back in the form for
   * the user to fix): each new object replaces them once, and counts as the user's change.
   */
  replace?: Data;
  /** Given the values, and the values as the form loaded them (the defaults it filled in among them). */
  onSubmit: (data: Data, form: { loaded: Data }) => Promise<unknown> | void;
  onCancel?: () => void;
}

export function SchemaForm({
  view,
  schema,
  initial,
  mode = "create",
  serverErrors,
  notSent,
  submitText,
  cancelText,
  fixed,
  focusFirst,
  onChange,
  replace,
  onSubmit,
  onCancel,
}: Props) {
  const { t, i18n: instance } = useTranslation();
  const { message } = App.useApp();
  const host = useRef<HTMLDivElement>(null);
  const form = useRef<CoreForm<Data>>(null);
  const [data, setData] = useState<Data>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  // What the user types counts as unsaved until it is saved, or undone: leaving the page asks first.
  const { changed } = useUnsavedChanges();
  // The values as loaded, with the defaults rjsf fills in (what the form holds before the user's first change).
  const loaded = useRef<Data>(initial);
  const userChanged = useRef(false);
  useEffect(() => {
    loaded.current = form.current?.state.formData ?? initial;
  }, []);
  // Text typed but not yet handed to the form, handed over as the form is submitted; typing is a change.
  const [pending] = useState(() => new PendingInputs(changed));
  useEffect(() => {
    if (!replace) return;
    setData(replace);
    userChanged.current = true;
    changed(!sameFormData(loaded.current, replace));
  }, [replace, changed]);
  // Titles and messages follow the language: rebuild them when it changes.
  const shownFor = whenKey(view, data);
  const uiSchema = useMemo(
    () => uiSchemaFor(view, schema, mode, fixed, data),
    [view, schema, mode, fixed, instance.language, shownFor],
  );
  const transformErrors = useMemo(
    () => translateErrors(view.base, (field) => view.byName.get(field)?.kind === "relation"),
    [view, instance.language],
  );
  // Errors on screen are validated again in the new language (rjsf keeps their words until the next
  // change), quietly: no message, no focus moved, the values as they are.
  const quiet = useRef(false);
  const language = useRef(instance.language);
  useEffect(() => {
    if (language.current === instance.language) return;
    language.current = instance.language;
    if (!submitted || !form.current) return;
    quiet.current = true;
    // Without errors, no onError follows to end the quiet.
    if (form.current.validateForm()) quiet.current = false;
  }, [instance.language, submitted]);
  // A dialog's first field takes the focus (a form that arrives after its dialog opened; the dialog focuses
  // it too once open, src/crud/actions.tsx, since its frame takes the focus as it appears).
  useEffect(() => {
    if (focusFirst) focusFirstField(host.current);
  }, [focusFirst]);
  // A server error stays on its field until that field is changed.
  const [errorsAt, setErrorsAt] = useState<Data>(data);
  useEffect(() => setErrorsAt(data), [serverErrors]);
  const extraErrors = useMemo(() => {
    const same = (field: string) => JSON.stringify(data[field]) === JSON.stringify(errorsAt[field]);
    return serverErrorSchema((serverErrors ?? []).filter((e) => same(e.field.split("/")[0])));
  }, [serverErrors, data, errorsAt]);
  /**
   * A save refused: the first field in error brought into view (rjsf focuses it where it can take the
   * focus; a list, an upload or a map cannot, and a long form's first error may be far above the button).
   */
  const firstErrorInView = () =>
    requestAnimationFrame(() =>
      host.current
        ?.querySelector(".ant-form-item-has-error, .has-error")
        ?.scrollIntoView?.({ block: "center", behavior: "instant" }),
    );
  // Refused by the server: its words are said by the save (record-state.tsx), its fields marked here.
  useEffect(() => {
    if (serverErrors?.length) firstErrorInView();
  }, [serverErrors]);

  // One save at a time: a second press (or "send again" from the offline notice) while one is under way is not another.
  const busy = useRef(false);
  const submit = async ({ formData }: IChangeEvent<Data>) => {
    if (busy.current) return;
    busy.current = true;
    setSaving(true);
    try {
      await onSubmit(formData ?? {}, { loaded: loaded.current });
    } finally {
      busy.current = false;
      setSaving(false);
    }
  };

  return (
    // Captured before rjsf's own submit: the text handed over is part of what it validates and submits.
    <PendingInputsContext.Provider value={pending}>
      <div className="schema-form-host" ref={host} onSubmitCapture={() => pending.flush()}>
        <Form
          ref={form}
          className="schema-form"
          formContext={FORM_LAYOUT}
          schema={schema}
          uiSchema={uiSchema}
          formData={data}
          validator={validator}
          widgets={widgets}
          templates={TEMPLATES}
          transformErrors={transformErrors}
          extraErrors={extraErrors}
          extraErrorsBlockSubmit={false}
          translateString={translateString}
          showErrorList={false}
          liveValidate={submitted ? "onChange" : undefined}
          focusOnFirstError={(error) => {
            if (!quiet.current) form.current?.focusOnError(error);
          }}
          noHtml5Validate
          // An empty list stays empty: no blank items to satisfy minItems before the user adds any.
          experimental_defaultFormStateBehavior={{
            arrayMinItems: { populate: "never" },
            emptyObjectFields: "skipEmptyDefaults",
          }}
          onChange={(event, id) => {
            const now = event.formData ?? {};
            setData(now);
            onChange?.(now);
            // A change with a field's id is the user's (rjsf's own default-filling carries none, and before
            // the user's first change it is part of what was loaded); it is unsaved unless it was undone.
            if (id) {
              userChanged.current = true;
              changed(!sameFormData(loaded.current, now));
            } else if (!userChanged.current) loaded.current = now;
          }}
          onError={(errors) => {
            if (quiet.current) {
              quiet.current = false;
              return;
            }
            setSubmitted(true);
            // Refused by the form's rules: how many fields need the user, said where they look.
            void message.error(t("form.fix", { count: new Set(errors.map((error) => error.property)).size }));
            firstErrorInView();
          }}
          onSubmit={(event) => {
            setSubmitted(true);
            void submit(event);
          }}
        >
          {notSent && <NotSent busy={saving} onResend={() => form.current?.submit()} />}
          <Space className="form-actions">
            <Button type="primary" htmlType="submit" loading={saving}>
              {submitText ?? t("actions.save")}
            </Button>
            {onCancel && <Button onClick={onCancel}>{cancelText ?? t("actions.cancel")}</Button>}
          </Space>
        </Form>
      </div>
    </PendingInputsContext.Provider>
  );
}

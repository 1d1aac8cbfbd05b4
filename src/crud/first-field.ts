// A dialog's first field takes the focus as it opens: typing starts where the user looks.
const FIELD = "input:not([type=hidden]):not([disabled]), textarea:not([disabled]), [role=combobox], [tabindex='0']";

/** Focuses the first field of a form inside `container`; whether there was one. */
export function focusFirstField(container: HTMLElement | null | undefined): boolean {
  const field = container?.querySelector<HTMLElement>(`.schema-form :is(${FIELD})`);
  field?.focus();
  return field !== null && field !== undefined && document.activeElement === field;
}

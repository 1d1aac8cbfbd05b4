// The keyboard a phone brings up for a form's field, read from its schema: digits for a whole number,
// digits and a point for an amount, a phone pad for a phone number, a keyboard without capitals or
// corrections for an account, an id or an address; and what the browser may fill in (a password field in a
// form is always a new one, the user's own current password only where the schema says so).
import type { FieldView } from "../crud/model.ts";

/** What rjsf's inputs take as ui:options (inputType, autocomplete, autocapitalize) and what we add. */
export interface Keyboard {
  /** The input's type, where it changes the keyboard and nothing else ("tel"; "email" checks the form). */
  inputType?: "tel" | "email";
  inputMode?: "numeric" | "decimal" | "tel" | "email" | "url";
  autocomplete?: AutoFill;
  autocapitalize?: "none";
  /** No spelling check or correction: the words are codes, not language. */
  verbatim?: true;
}

/** A schema's type without its "null" (["integer", "null"] is an integer that may be empty). */
const typeOf = (type: unknown): unknown => (Array.isArray(type) ? type.find((t) => t !== "null") : type);

/** The keypad for a number field: digits for whole numbers, digits and a point else. */
export function keypadOf(type: unknown): "numeric" | "decimal" | undefined {
  const single = typeOf(type);
  return single === "integer" ? "numeric" : single === "number" ? "decimal" : undefined;
}

/** Definitions (schemas/defs.json) typed as codes: letters, digits and signs, never words. */
const VERBATIM_DEFS = new Set(["account", "appid"]);

export function keyboardOf(field: FieldView): Keyboard {
  const { node, def } = field;
  const type = typeOf(node.type);
  const named = field.ui.autocomplete ? { autocomplete: field.ui.autocomplete } : {};
  // Money and fractions are stored whole (cents, ten-thousandths) but typed with their decimals.
  const pad = field.kind === "money" || field.kind === "fraction" ? "decimal" : keypadOf(type);
  if (pad) return { inputMode: pad, ...named };
  if (type !== "string" || field.upload) return named;
  if (field.writeOnly) return { autocomplete: "new-password", ...named };
  if (def === "phone") return { inputType: "tel", inputMode: "tel", ...named };
  if (node.format === "email") return { inputType: "email", inputMode: "email", autocapitalize: "none", ...named };
  if (node.format === "uri" || node.format === "uri-reference")
    return { inputMode: "url", autocapitalize: "none", verbatim: true, ...named };
  if (def && VERBATIM_DEFS.has(def)) return { autocomplete: "off", autocapitalize: "none", verbatim: true, ...named };
  return named;
}

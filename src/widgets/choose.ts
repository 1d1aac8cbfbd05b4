// Which widget edits a field: an ordered list of small matchers, first match wins. A schema's own
// x-ui.widget is honoured first; the rest follow from what the field is.
import type { FieldView } from "../crud/model.ts";
import { countChoices } from "./count-widget.tsx";

type Matcher = (field: FieldView) => string | undefined;

const EXPLICIT: Record<string, string> = {
  switch: "switch",
  textarea: "textarea",
  richtext: "richtext",
  radio: "RadioWidget",
  password: "password",
  region: "region",
  permissions: "permissions",
  coordinates: "coordinates",
};

const MATCHERS: Matcher[] = [
  (f) => (f.kind === "upload" ? "upload" : undefined),
  (f) => (f.kind === "uploads" ? "uploads" : undefined),
  // Radio buttons for a whole number of a short range: its values are the choices (there is no enum).
  (f) => (f.ui.widget === "radio" && f.kind === "integer" && countChoices(f.node).length ? "count" : undefined),
  (f) => (f.ui.widget ? EXPLICIT[f.ui.widget] : undefined),
  (f) => (f.kind === "money" ? "money" : undefined),
  (f) => (f.kind === "fraction" ? "fraction" : undefined),
  (f) => (f.kind === "relation" ? "relation" : undefined),
  (f) => (f.kind === "relations" ? "relations" : undefined),
  (f) => (f.kind === "enum" && f.node.type === "array" ? "checkboxes" : undefined),
  (f) => (f.kind === "enum" ? ((f.enum?.length ?? 0) <= 3 ? "RadioWidget" : "enum") : undefined),
  (f) => (f.writeOnly && f.kind === "string" ? "password" : undefined),
  (f) => (f.kind === "datetime" ? "datetime" : undefined),
  (f) => (f.kind === "date" ? "date" : undefined),
  (f) => (f.kind === "tags" ? "tags" : undefined),
];

export function widgetFor(field: FieldView): string | undefined {
  for (const match of MATCHERS) {
    const widget = match(field);
    if (widget) return widget;
  }
  return undefined;
}

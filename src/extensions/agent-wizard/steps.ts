// The agent wizard's steps: which of the agent's add-form fields each asks, and the schema that checks a
// step before the next (tests/unit/agent-wizard-steps.test.ts holds every field of the form to one step).
export type Data = Record<string, unknown>;
export type Schema = Record<string, unknown> & { properties: Record<string, unknown>; required?: string[] };

/** The agent fields each step asks, in order. */
export const STEPS = [
  ["account", "password", "confirm_password"],
  ["pid", "role_id"],
  ["nickname", "phone", "cate_id", "description"],
] as const;

/** Fields of the add form the wizard leaves to the server: the parent role is the chosen superior's (place.ts). */
export const NOT_ASKED = ["parent_role_id"] as const;

/** The agent's add schema narrowed to a step's fields (its rules between them kept). */
export function stepSchema(full: Schema, fields: readonly string[]): Schema {
  // The other steps' fields and rules are checked on their own steps (and all of them by the server).
  const { allOf: _allOf, if: _if, then: _then, else: _else, additionalProperties: _more, ...rest } = full;
  const compare = ((full["x-compare"] as { field: string; other: string }[] | undefined) ?? []).filter(
    (rule) => fields.includes(rule.field) && fields.includes(rule.other),
  );
  const narrowed: Schema = {
    ...rest,
    properties: Object.fromEntries(Object.entries(full.properties).filter(([name]) => fields.includes(name))),
    required: (full.required ?? []).filter((name) => fields.includes(name)),
  };
  if (compare.length) narrowed["x-compare"] = compare;
  else delete narrowed["x-compare"];
  return narrowed;
}

export const only = (data: Data, fields: readonly string[]): Data =>
  Object.fromEntries(Object.entries(data).filter(([name]) => fields.includes(name)));

export const stepOf = (field: string): number =>
  Math.max(
    0,
    STEPS.findIndex((step) => (step as readonly string[]).includes(field)),
  );

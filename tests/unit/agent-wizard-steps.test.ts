// The agent wizard (src/extensions/agent-wizard) asks the agent schema's add form in steps it lists
// itself: every field of that form must be on exactly one step, so a new agent field added to the schema
// (required or not) cannot go without a place to be entered unless it is named as left to the server, and no
// step names a field the form lacks.
import { describe, expect, it } from "vitest";
import { formSchema } from "../../src/crud/form-schema.ts";
import { entityView } from "../../src/crud/model.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";
import { NOT_ASKED, STEPS } from "../../src/extensions/agent-wizard/steps.ts";

describe("agent wizard steps", () => {
  const form = formSchema(entityView("agent"), "create") as {
    properties: Record<string, unknown>;
    required?: string[];
  };
  const asked = STEPS.flat() as string[];

  it("asks every field of the agent's add form once, but those it names as the server's", () => {
    expect([...asked, ...NOT_ASKED].sort()).toEqual(Object.keys(form.properties).sort());
    expect(new Set(asked).size).toBe(asked.length);
  });

  it("asks every field the agent schema requires on a new agent", () => {
    const required = (entitySchemas.agent as { required?: string[] }).required ?? [];
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((field) => !asked.includes(field) && field in form.properties)).toEqual([]);
    expect(form.required?.filter((field) => !asked.includes(field))).toEqual([]);
  });
});

// What a domain area adds to the engine is keyed by names the schemas declare: entity hooks by entity
// name, transition side effects by "<entity>.<action>". A misspelt key would mean money silently not
// moving when a withdrawal is refused, so it fails the typecheck (the @ts-expect-error lines below fail
// `npm run typecheck` the day a plain string is accepted again), and every area's keys are checked here
// against the schemas' own x-states.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entitySchemas } from "../../src/generated/schemas.ts";
import { defineArea } from "../../server/domain/area.ts";
import { domainAreas } from "../../server/domain/index.ts";

/** The declared transitions, read from the schema files' x-states (not from the generated key list). */
const declaredTransitions = new Set(
  Object.entries(entitySchemas).flatMap(([entity, schema]) =>
    Object.values(schema["x-states"] ?? {}).flatMap((machine) =>
      machine.transitions.map((t) => `${entity}.${t.action}`),
    ),
  ),
);

describe("domain area keys", () => {
  const areas = domainAreas({ uploadDir: join(mkdtempSync(join(tmpdir(), "area-keys-")), "uploads") });

  it("keys every transition side effect by a transition some schema declares", () => {
    const keys = areas.flatMap((area) => Object.keys(area.effects ?? {}));
    expect(keys).toContain("withdrawal.refuse");
    expect(keys.filter((key) => !declaredTransitions.has(key))).toEqual([]);
  });

  it("keys every entity hook by a declared entity", () => {
    const keys = areas.flatMap((area) => Object.keys(area.hooks ?? {}));
    expect(keys).toContain("agent");
    expect(keys.filter((key) => !(key in entitySchemas))).toEqual([]);
  });

  it("refuses a misspelt key at the typecheck", () => {
    const effect = async () => undefined;
    const area = defineArea({
      name: "typo",
      handlers: {},
      // @ts-expect-error: "refuze" is no transition of withdrawal
      effects: { "withdrawal.refuze": effect },
    });
    const hooked = defineArea({
      name: "typo",
      handlers: {},
      // @ts-expect-error: there is no entity "withdrawals"
      hooks: { withdrawals: {} },
    });
    expect(Object.keys(area.effects ?? {})).toEqual(["withdrawal.refuze"]);
    expect(Object.keys(hooked.hooks ?? {})).toEqual(["withdrawals"]);
  });
});

// The README's "Settings and what reads them" lists every field of every settings schema (those stored as
// a singleton, and the profit settings) with what reads it, and names no field that no schema has: a new
// setting fails here until the README says who acts on it.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { entitySchemas } from "../../src/generated/schemas.ts";

type Schema = { properties: Record<string, unknown>; "x-entity"?: { storage?: string } };
const schemas = entitySchemas as unknown as Record<string, Schema>;

/** The settings schemas: each singleton, and the profit settings (a table, one row per agent and page). */
const SETTINGS = Object.keys(schemas).filter(
  (name) => schemas[name]["x-entity"]?.storage === "singleton" || name === "profit_setting",
);

/** The profit fields of the records that also decide how an order's money is shared (listed too). */
const PROFIT_FIELDS: Record<string, string[]> = {
  page: ["profit_model", "profit_type", "max_profit", "share_excess"],
  operator_binding: ["profit_type", "profit_percent", "profit_amount", "share_excess"],
};

/** The table's rows: setting, field, what reads it. */
function readmeRows(): { entity: string; field: string; readBy: string }[] {
  const readme = readFileSync(resolve(import.meta.dirname, "../../README.md"), "utf8");
  const start = readme.indexOf("## Settings and what reads them");
  expect(start, "README section 'Settings and what reads them'").toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return section
    .split("\n")
    .filter((line) => /^\|\s*[a-z_]+\s*\|\s*`/.test(line))
    .map((line) => {
      const [entity, field, readBy] = line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { entity, field: field.replace(/`/g, ""), readBy };
    });
}

describe("README: every setting and what reads it", () => {
  const rows = readmeRows();

  it("finds the settings schemas", () => {
    expect(SETTINGS).toEqual(
      expect.arrayContaining([
        "system_setting",
        "goods_setting",
        "plugin_setting",
        "payment_setting",
        "profit_setting",
      ]),
    );
  });

  it.each(SETTINGS)("lists every field of %s with what reads it", (entity) => {
    const listed = rows.filter((r) => r.entity === entity);
    for (const field of Object.keys(schemas[entity].properties)) {
      const row = listed.find((r) => r.field === field);
      expect(row, `${entity}.${field} is missing from the README's settings table`).toBeDefined();
      expect(row!.readBy.length, `${entity}.${field}: say what reads it`).toBeGreaterThan(3);
    }
  });

  it.each(Object.entries(PROFIT_FIELDS))("lists the profit fields of %s with what reads them", (entity, fields) => {
    for (const field of fields) {
      expect(Object.keys(schemas[entity].properties), `${entity} has ${field}`).toContain(field);
      const row = rows.find((r) => r.entity === entity && r.field === field);
      expect(row, `${entity}.${field} is missing from the README's settings table`).toBeDefined();
      expect(row!.readBy.length, `${entity}.${field}: say what reads it`).toBeGreaterThan(3);
    }
  });

  it("names no field that its schema does not have, and none twice", () => {
    for (const { entity, field } of rows) {
      expect(schemas[entity], `README names the unknown entity ${entity}`).toBeDefined();
      expect(Object.keys(schemas[entity].properties), `README names ${entity}.${field}`).toContain(field);
    }
    const keys = rows.map((r) => `${r.entity}.${r.field}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

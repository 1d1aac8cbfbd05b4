// server/entities/engine.ts: toApi shows a row as the API does, through a function written once per entity
// from its schema. The expectations are written out by hand from the schema below.
import { describe, expect, it } from "vitest";
import { toApi } from "../../server/entities/answer.ts";
import { buildModel, modelOf } from "../../server/model/model.ts";
import { MASK } from "../../src/schema/constants.ts";
import type { JsonSchemaEntity } from "../../src/schema/types.ts";

const schema = {
  $id: "probe",
  type: "object",
  "x-entity": { table: "probe", recycle: true, scope: "agent", calls: {} },
  properties: {
    name: { type: "string" },
    note: { type: "string" },
    secret: { type: "string", writeOnly: true },
    password: { type: "string", "x-store": "hash" },
    confirm: { type: "string", "x-store": "none" },
    balance: { type: "integer", "x-store": "derived" },
    'quote"and\\back\nslash': { type: "string" },
  },
} as unknown as JsonSchemaEntity;

const row = {
  id: 7,
  version: 3,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-02T00:00:00.000Z",
  deleted_at: "2026-11-03T00:00:00.000Z",
  agent_id: 4,
  agent_path: "/1/4/",
  deleted_by: 1,
  name: "Lane A",
  note: null,
  secret: "s3cr3t",
  password: "scrypt$...",
  confirm: "typed twice",
  balance: 1250,
  'quote"and\\back\nslash': "still a name",
  column_not_in_schema: "x",
};

/** The system fields every answer starts with, as the row above holds them. */
const system = {
  id: 7,
  version: 3,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-02T00:00:00.000Z",
};

describe("toApi", () => {
  it("answers the system fields and each property with a value, secrets masked, hashes and unstored fields left out", () => {
    expect(toApi(buildModel(schema), row)).toStrictEqual({
      ...system,
      deleted_at: "2026-11-03T00:00:00.000Z",
      agent_id: 4,
      name: "Lane A",
      secret: MASK,
      balance: 1250,
      'quote"and\\back\nslash': "still a name",
    });
  });

  it("leaves out a recycle bin's deleted_at and an unscoped agent_id where the entity has neither", () => {
    const plain = { ...schema, "x-entity": { ...schema["x-entity"], recycle: false, scope: "none" } };
    expect(toApi(buildModel(plain as JsonSchemaEntity), row)).toStrictEqual({
      ...system,
      name: "Lane A",
      secret: MASK,
      balance: 1250,
      'quote"and\\back\nslash': "still a name",
    });
  });

  it("answers a live record without deleted_at, and never a real entity's password hash", () => {
    const agent = modelOf("agent");
    const shown = toApi(agent, {
      id: 2,
      version: 1,
      created_at: "c",
      updated_at: "u",
      deleted_at: null,
      account: "agent_a",
      password: "scrypt$x",
    });
    expect(shown).toStrictEqual({ id: 2, version: 1, created_at: "c", updated_at: "u", account: "agent_a" });
  });
});

// The API's own description: the OpenAPI document generated from the schemas and operations.
import openapi from "../../../src/generated/openapi.json" with { type: "json" };
import { defineArea } from "../area.ts";

export const system = defineArea({
  name: "system",
  handlers: {
    "openapi.json": async ({ reply }) => {
      // The document itself, not wrapped in the envelope: tools read it as OpenAPI.
      await reply.send(openapi);
      return reply;
    },
  },
});

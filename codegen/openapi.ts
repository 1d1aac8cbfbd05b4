// An OpenAPI 3.1 document of the /merchant (and /admin) calls, derived from the schemas: the entity
// schemas become components as they are (3.1 speaks JSON Schema), every call of x-entity and every
// transition becomes an operation following the API contract of DESIGN.md section 4.
import type { CallKind, EntitySchema, OperationSchema, Project, SchemaNode } from "./model.ts";
import { accessOfCall } from "./permissions.ts";
import { resolveRef } from "./keys.ts";
import { elementOf } from "../src/schema/refs.ts";
import {
  honoursKey,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_FORMAT,
  REMEMBERED_HOURS,
  REPLAYED_HEADER,
} from "../src/schema/idempotency.ts";

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Points $refs at components: defs#/definitions/x -> defs_x, entity ids -> the entity, #/definitions/X inside a document -> <doc>_X. */
function rewriteRefs(node: unknown, doc?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, doc));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") {
      if (value.startsWith("defs#/definitions/")) out.$ref = `#/components/schemas/defs_${value.slice(18)}`;
      else if (value.startsWith("#/definitions/"))
        out.$ref = `#/components/schemas/${doc ?? "defs"}_${value.slice(14)}`;
      else out.$ref = `#/components/schemas/${value}`;
    } else if (key !== "$schema" && key !== "$id" && key !== "definitions") {
      out[key] = rewriteRefs(value, doc);
    }
  }
  return out;
}

/** Names that are secrets whatever their schema says (a WIFI password is still a password). */
const SECRET_NAME = /password|secret|private|_key$|cert/;

/** A field whose value is a secret: write-only, hashed or never stored, a private upload, or named like one. */
function isSecret(project: Project, name: string, node: unknown, depth = 0): boolean {
  if (SECRET_NAME.test(name)) return true;
  if (!node || typeof node !== "object" || depth > 8) return false;
  const n = node as Json & { "x-upload"?: { private?: boolean } };
  if (n.writeOnly === true || n["x-store"] !== undefined || n["x-upload"]?.private) return true;
  const target = typeof n.$ref === "string" && n.$ref.startsWith("defs#/definitions/") ? n.$ref.slice(18) : undefined;
  const defs = (project.defs.definitions ?? {}) as Record<string, unknown>;
  return target !== undefined && isSecret(project, "", defs[target], depth + 1);
}

/** The schema's examples without the values of its secret fields: the document shows no password or key. */
function withoutSecretExamples(project: Project, schema: unknown): unknown {
  const s = schema as Json & { examples?: unknown[]; properties?: Record<string, unknown> };
  if (!Array.isArray(s.examples)) return schema;
  const clean = (example: unknown) =>
    example && typeof example === "object" && !Array.isArray(example)
      ? Object.fromEntries(
          Object.entries(example).filter(([field]) => !isSecret(project, field, s.properties?.[field])),
        )
      : example;
  return { ...s, examples: s.examples.map(clean) };
}

const pageOf = (record: unknown) => ({
  type: "object",
  required: ["list", "total", "page", "limit"],
  properties: {
    list: { type: "array", items: record },
    total: { type: "integer" },
    total_exact: { type: "boolean" },
    page: { type: "integer" },
    limit: { type: "integer" },
    titles: {
      description: "Titles of the records the rows point at: target entity, then id, then title.",
      type: "object",
      additionalProperties: { type: "object", additionalProperties: { type: "string" } },
    },
  },
});

const OPTIONS = {
  type: "array",
  items: {
    type: "object",
    required: ["id", "title"],
    properties: { id: { type: "integer" }, title: { type: "string" } },
  },
};

const envelope = (data: unknown) => ({
  type: "object",
  required: ["code", "message", "data"],
  properties: { code: { type: "integer", const: 200 }, message: { type: "string" }, data },
});

const ok = (description: string, data: unknown) => ({
  200: { description, content: { "application/json": { schema: envelope(data) } } },
  400: { $ref: "#/components/responses/ValidationError" },
  401: { $ref: "#/components/responses/Unauthorized" },
  403: { $ref: "#/components/responses/Forbidden" },
});

/** The Idempotency-Key header a write may carry (components.parameters.IdempotencyKey). */
const KEY = { $ref: "#/components/parameters/IdempotencyKey" };

const idQuery = {
  name: "id",
  in: "query",
  required: true,
  description: "One id or several, comma-separated.",
  schema: { type: "string", pattern: "^[0-9]+(,[0-9]+)*$" },
};
const idBody = {
  type: "object",
  required: ["id"],
  properties: {
    id: {
      oneOf: [
        { type: "integer", minimum: 1 },
        { type: "array", items: { type: "integer", minimum: 1 }, minItems: 1 },
      ],
    },
  },
};

function listParameters(project: Project, schema: EntitySchema): Json[] {
  const params: Json[] = [
    { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
    { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 200, default: 10 } },
  ];
  const sortable = Object.entries(schema.properties)
    .filter(([, p]) => p["x-ui"]?.sortable)
    .map(([f]) => f);
  const fields = ["id", "created_at", "updated_at", ...sortable].join("|");
  params.push({
    name: "sort",
    in: "query",
    description: "One field, or up to three comma-separated, each sortable.",
    schema: { type: "string", pattern: `^(${fields})(,(${fields})){0,2}$` },
  });
  params.push({
    name: "order",
    in: "query",
    description: "asc or desc for each sort field, comma-separated.",
    schema: { type: "string", pattern: "^(asc|desc)(,(asc|desc)){0,2}$" },
  });
  for (const [field, raw] of Object.entries(schema.properties)) {
    const filter = raw["x-ui"]?.filter;
    if (!filter) continue;
    const node = resolveRef(project, raw).node;
    const scalar: SchemaNode = {
      type: node.type,
      ...(node.enum ? { enum: node.enum } : {}),
      ...(node.format ? { format: node.format } : {}),
    };
    if (filter === "eq") params.push({ name: field, in: "query", schema: scalar });
    if (filter === "like")
      params.push({ name: `${field}_like`, in: "query", description: "Contains.", schema: { type: "string" } });
    if (filter === "range") {
      params.push({ name: `${field}_gte`, in: "query", schema: scalar });
      params.push({ name: `${field}_lte`, in: "query", schema: scalar });
    }
    if (filter === "in")
      params.push({
        name: field,
        in: "query",
        description: "One value or several, comma-separated.",
        schema: { type: "string" },
      });
  }
  return params;
}

function operations(project: Project, schema: EntitySchema): [string, string, Json][] {
  const e = schema.$id;
  const x = schema["x-entity"];
  const base = x.basePath ?? "/merchant";
  const record = ref(`${e}_record`);
  const ops: [string, string, Json][] = [];
  const op = (kind: CallKind, method: string, body: Json) => {
    const call = x.calls[kind];
    if (!call) return;
    // Every entity write honours an Idempotency-Key (server/http/routes.ts).
    const parameters = method === "get" ? body.parameters : [...((body.parameters as Json[]) ?? []), KEY];
    ops.push([
      `${base}/${call}`,
      method,
      {
        tags: [e],
        operationId: call,
        "x-permission": accessOfCall(schema, kind),
        ...body,
        ...(parameters ? { parameters } : {}),
      },
    ]);
  };
  const page = pageOf(record);
  op("list", "get", {
    summary: `List ${e}`,
    parameters: listParameters(project, schema),
    responses: ok("A page of records", page),
  });
  op("recycleList", "get", {
    summary: `List ${e} in the recycle bin`,
    parameters: listParameters(project, schema),
    responses: ok("A page of recycled records", page),
  });
  op("detail", "get", {
    summary: `One ${e}`,
    parameters: [idQuery],
    responses: { ...ok("The record", record), 404: { $ref: "#/components/responses/NotFound" } },
  });
  op("all", "get", {
    summary: `Every ${e} the caller may pick (id and title)`,
    responses: ok("Options", OPTIONS),
  });
  const input = ref(e);
  op("add", "post", {
    summary: `Create ${e}`,
    requestBody: { required: true, content: { "application/json": { schema: input } } },
    responses: ok("The created record", record),
  });
  op("update", "post", {
    summary: `Update ${e} (send it back as detail returned it, with id and version)`,
    requestBody: {
      required: true,
      content: { "application/json": { schema: { allOf: [input, ref("record_meta")] } } },
    },
    responses: {
      ...ok("The updated record", record),
      404: { $ref: "#/components/responses/NotFound" },
      409: { $ref: "#/components/responses/Conflict" },
    },
  });
  op("delete", "delete", {
    summary: x.recycle ? `Move ${e} to the recycle bin` : `Delete ${e}`,
    parameters: [idQuery],
    responses: ok("Deleted", { type: "object", properties: { count: { type: "integer" } } }),
  });
  op("recover", "post", {
    summary: `Restore ${e} from the recycle bin`,
    requestBody: { required: true, content: { "application/json": { schema: idBody } } },
    responses: ok("Restored", { type: "object", properties: { count: { type: "integer" } } }),
  });
  op("destroy", "delete", {
    summary: `Delete ${e} for good (only from the recycle bin)`,
    parameters: [idQuery],
    responses: ok("Destroyed", { type: "object", properties: { count: { type: "integer" } } }),
  });
  op("export", "get", {
    summary: `Export ${e} with the list's filters: an XLSX workbook, or CSV with format=csv`,
    parameters: [
      ...listParameters(project, schema).slice(2),
      { name: "format", in: "query", schema: { type: "string", enum: ["xlsx", "csv"], default: "xlsx" } },
    ],
    responses: {
      200: {
        description: "A spreadsheet",
        content: {
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
            schema: { type: "string", format: "binary" },
          },
          "text/csv": { schema: { type: "string" } },
        },
      },
    },
  });
  op("get", "get", { summary: `Read the ${e}`, responses: ok("The settings", record) });
  op("set", "post", {
    summary: `Save the ${e}`,
    requestBody: { required: true, content: { "application/json": { schema: input } } },
    responses: ok("The saved settings", record),
  });
  for (const [field, machine] of Object.entries(schema["x-states"] ?? {})) {
    for (const t of machine.transitions) {
      const props: Json = { id: idBody.properties.id, action: { type: "string", const: t.action } };
      for (const f of t.input ?? []) props[f] = rewriteRefs(schema.properties[f]);
      ops.push([
        `${base}/${t.call}`,
        "post",
        {
          tags: [e],
          operationId: `${t.call}:${t.action}`,
          summary: `${t.action}: ${field} ${t.from.join("|")} -> ${t.to}`,
          "x-permission": `${e}.${t.action}`,
          parameters: [KEY],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { type: "object", required: ["id", ...(t.requiredInput ?? [])], properties: props },
              },
            },
          },
          responses: {
            ...ok("The record after the transition", record),
            409: { $ref: "#/components/responses/Conflict" },
          },
        },
      ]);
    }
  }
  return ops;
}

/** What an operation answers, as the envelope's data. */
function answerSchema(operation: OperationSchema): unknown {
  const { answer, entity } = operation["x-operation"];
  const record = entity ? ref(`${entity}_record`) : {};
  if (typeof answer !== "string") return rewriteRefs(answer);
  switch (answer) {
    case "record":
      return record;
    case "page":
      return pageOf(record);
    case "records":
      return { type: "array", items: record };
    case "options":
      return OPTIONS;
    case "count":
      return { type: "object", required: ["count"], properties: { count: { type: "integer" } } };
    default:
      return { type: "null" };
  }
}

/** An operation's path item: its input as query parameters (GET, DELETE) or body (POST), its answer. */
function operationOf(project: Project, operation: OperationSchema): [string, string, Json] {
  const x = operation["x-operation"];
  const path = `${x.basePath ?? "/merchant"}/${operation.$id}`;
  const required = new Set(operation.required ?? []);
  const query = () =>
    Object.entries(operation.properties).map(([name, raw]) => {
      const { node } = elementOf(project.defs, raw);
      const isList = resolveRef(project, raw).node.type === "array";
      return {
        name,
        in: "query",
        required: required.has(name),
        ...(isList ? { description: "One value or several, comma-separated." } : {}),
        schema: isList
          ? { type: "string" }
          : {
              type: node.type,
              ...(node.enum ? { enum: node.enum } : {}),
              ...(node.format ? { format: node.format } : {}),
            },
      };
    });
  const body: Json = {};
  if (x.method === "POST" && x.body === "multipart") {
    body.parameters = query();
    body.requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } },
        },
      },
    };
  } else if (x.method === "POST") {
    body.requestBody = { required: true, content: { "application/json": { schema: ref(`op_${operation.$id}`) } } };
  } else if (Object.keys(operation.properties).length) body.parameters = query();
  if (honoursKey(x)) body.parameters = [...((body.parameters as Json[]) ?? []), KEY];
  const responses =
    x.answer === "file"
      ? {
          200: {
            description: "A file",
            content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
          },
          400: { $ref: "#/components/responses/ValidationError" },
        }
      : { ...ok("The answer", answerSchema(operation)), 404: { $ref: "#/components/responses/NotFound" } };
  return [
    path,
    x.method.toLowerCase(),
    {
      tags: [x.entity ?? x.area],
      operationId: operation.$id,
      summary: operation.description ?? operation.$id,
      "x-permission": x.permission,
      ...(x.permission === "public" ? { security: [] } : {}),
      ...body,
      responses: x.permission === "public" ? { ...responses, 401: undefined, 403: undefined } : responses,
    },
  ];
}

export function generateOpenApi(project: Project): Json {
  const schemas: Json = {};
  for (const [name, def] of Object.entries(project.defs.definitions ?? {})) schemas[`defs_${name}`] = rewriteRefs(def);
  for (const doc of project.documents) {
    const id = String(doc.$id);
    schemas[id] = rewriteRefs(doc, id);
    for (const [name, def] of Object.entries(doc.definitions ?? {})) schemas[`${id}_${name}`] = rewriteRefs(def, id);
  }
  schemas.record_meta = {
    type: "object",
    required: ["id", "version"],
    properties: {
      id: { type: "integer" },
      version: { type: "integer" },
      created_at: { type: "string", format: "date-time", readOnly: true },
      updated_at: { type: "string", format: "date-time", readOnly: true },
    },
  };
  const paths: Record<string, Json> = {};
  const entities = [...project.entities].sort((a, b) => a.$id.localeCompare(b.$id));
  for (const schema of entities) {
    schemas[schema.$id] = rewriteRefs(withoutSecretExamples(project, schema));
    schemas[`${schema.$id}_record`] = { allOf: [ref(schema.$id), ref("record_meta")] };
    for (const [path, method, operation] of operations(project, schema)) {
      const item = (paths[path] ??= {});
      // Transitions of one entity may share a call: one operation, the action named in the body.
      if (item[method]) {
        const existing = item[method] as Json;
        existing.operationId = path.split("/").pop();
        existing.summary = `${existing.summary}; ${operation.summary}`;
        continue;
      }
      item[method] = operation;
    }
  }
  for (const operation of [...project.operations].sort((a, b) => a.$id.localeCompare(b.$id))) {
    schemas[`op_${operation.$id}`] = rewriteRefs(withoutSecretExamples(project, operation));
    const [path, method, item] = operationOf(project, operation);
    (paths[path] ??= {})[method] = JSON.parse(JSON.stringify(item));
  }
  const error = (description: string) => ({
    description,
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["code", "message"],
          properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
        },
      },
    },
  });
  return {
    openapi: "3.1.0",
    info: {
      title: "Merchant console API",
      version: "1.0.0",
      description: "Generated from schemas/ by npm run codegen; do not edit.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      parameters: {
        Locale: { name: "Locale", in: "header", schema: { type: "string", enum: ["en", "zh", "km", "th", "tw"] } },
        Source: { name: "Source", in: "header", schema: { type: "string", const: "pc" } },
        IdempotencyKey: {
          name: IDEMPOTENCY_HEADER,
          in: "header",
          required: false,
          description:
            `A key of the client's making for this write. Sent again with the same key, call and body within ` +
            `${REMEMBERED_HOURS} hours, the write is not applied again: the first answer is sent again, with ` +
            `\`${REPLAYED_HEADER}: true\`. The same key with another call or body is refused (422).`,
          schema: { type: "string", pattern: IDEMPOTENCY_KEY_FORMAT.source },
        },
      },
      responses: {
        ValidationError: {
          description: "Invalid input: data.errors lists each field's message in the caller's language.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  code: { const: 400 },
                  message: { type: "string" },
                  data: {
                    type: "object",
                    properties: {
                      errors: {
                        type: "array",
                        items: {
                          type: "object",
                          properties: { field: { type: "string" }, message: { type: "string" } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        Unauthorized: error("Not signed in, or the token is expired or revoked."),
        Forbidden: error("The caller's role lacks the permission."),
        NotFound: error("No such record in the caller's scope."),
        Conflict: error(
          "Stale version, or a transition from a state that does not allow it: `data.conflict` says which " +
            "(`staleVersion` or `stateConflict`); other refusals of the record's state carry their own data.",
        ),
      },
      schemas,
    },
  };
}

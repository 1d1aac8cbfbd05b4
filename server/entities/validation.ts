// Validates bodies with the one ajv setup and the entity schemas themselves, and turns ajv's errors
// into per-field messages in the caller's language.
import type { ErrorObject, ValidateFunction } from "ajv";
import { createAjv } from "../../src/schema/ajv.ts";
import { defsSchema, documentSchemas, entitySchemas } from "../../src/generated/schemas.ts";
import type { JsonSchemaNode } from "../../src/schema/types.ts";
import { badRequest, type FieldError } from "../http/errors.ts";
import { translate, type Language } from "../http/i18n.ts";
import { SYSTEM_COLUMNS, type EntityModel } from "./model.ts";

const ajv = createAjv([defsSchema, ...documentSchemas, ...Object.values(entitySchemas)]);
const cache = new Map<string, ValidateFunction>();

/** The schema minus `required` entries for the given fields, at the root and in conditional branches. */
function withoutRequired(node: JsonSchemaNode, drop: Set<string>): JsonSchemaNode {
  const out: JsonSchemaNode = { ...node };
  if (out.required) out.required = out.required.filter((f) => !drop.has(f));
  for (const key of ["then", "else"] as const) if (out[key]) out[key] = withoutRequired(out[key]!, drop);
  for (const key of ["allOf", "anyOf", "oneOf"] as const)
    if (out[key]) out[key] = out[key]!.map((n) => withoutRequired(n, drop));
  return out;
}

function compiled(key: string, build: () => JsonSchemaNode): ValidateFunction {
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(build());
    cache.set(key, validate);
  }
  return validate;
}

/**
 * create: the schema as is. update: write-only fields (passwords, secrets) may be left out to keep
 * them; server-managed ones (read-only, states) and immutable ones (fixed at creation, possibly empty
 * as the root agent's superior) are the server's, not the client's, to supply.
 */
export function validatorFor(model: EntityModel, mode: "create" | "update"): ValidateFunction {
  if (mode === "create") return ajv.getSchema(model.name)!;
  return compiled(`${model.name}#update`, () => {
    const serverOwned = new Set([
      ...model.writeOnly,
      ...model.readOnly,
      ...model.stateFields.keys(),
      ...model.immutable,
    ]);
    const { $id: _id, ...schema } = withoutRequired(model.schema, serverOwned);
    return { ...schema, $id: `${model.name}__update` };
  });
}

/** A transition's input: only its fields, its required ones required. */
export function transitionValidator(
  model: EntityModel,
  action: string,
  input: string[],
  required: string[],
): ValidateFunction {
  return compiled(`${model.name}#${action}`, () => ({
    type: "object",
    additionalProperties: false,
    required,
    properties: Object.fromEntries(input.map((f) => [f, model.schema.properties[f]])),
  }));
}

/** Fields every record has, and list parameters: their labels live in common:fields. */
const COMMON_FIELDS = new Set([...SYSTEM_COLUMNS, "page", "limit", "sort", "order", "action"]);

/** Translation key of a field's label, following nested objects and arrays of objects. */
function labelKey(model: EntityModel, segments: string[]): string {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  if (names.length === 1 && COMMON_FIELDS.has(names[0]) && !model.fields.has(names[0]))
    return `common:fields.${names[0]}`;
  return `${model.name}:fields.${names.join(".fields.")}.label`;
}

export function localizeErrors(model: EntityModel, errors: ErrorObject[], lng: Language): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === "if") continue; // the branch's own errors say what is wrong
    const params = error.params as Record<string, unknown>;
    let path = error.instancePath;
    if (error.keyword === "required") path += `/${String(params.missingProperty)}`;
    if (error.keyword === "additionalProperties") path += `/${String(params.additionalProperty)}`;
    const segments = path.split("/").filter(Boolean);
    const field = segments.join("/");
    const known = error.keyword !== "additionalProperties";
    const label = known && segments.length ? translate(lng, labelKey(model, segments)) : field;
    const message =
      error.keyword === "x-compare"
        ? translate(lng, `${model.name}:rules.${String(params.rule)}`)
        : translate(lng, `validation:${error.keyword}`, {
            field: label,
            limit: params.limit,
            format: params.format,
            other: params.other ? translate(lng, labelKey(model, [String(params.other)])) : undefined,
          });
    const id = `${field} ${error.keyword}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ field, keyword: error.keyword, message });
  }
  return out;
}

/** The localized field errors of data, none when it is valid. */
export function validationErrors(
  model: EntityModel,
  validate: ValidateFunction,
  data: unknown,
  lng: Language,
): FieldError[] {
  return validate(data) ? [] : localizeErrors(model, validate.errors ?? [], lng);
}

/** Validates or throws a 400 with the localized field errors (and any found before). */
export function assertValid(
  model: EntityModel,
  validate: ValidateFunction,
  data: unknown,
  lng: Language,
  earlier: FieldError[] = [],
): void {
  const errors = [...earlier, ...validationErrors(model, validate, data, lng)];
  if (errors.length) throw badRequest(errors);
}

/** An error about a request's own parameters (id, version, action), labelled from common:fields. */
export function paramError(field: "id" | "version" | "action", keyword: string, lng: Language): FieldError {
  return {
    field,
    keyword,
    message: translate(lng, `validation:${keyword}`, { field: translate(lng, `common:fields.${field}`) }),
  };
}

/** A field error raised by the engine itself (read-only, immutable, ...), in the same shape. */
export function fieldError(model: EntityModel, field: string, keyword: string, lng: Language): FieldError {
  return {
    field,
    keyword,
    message: translate(lng, `validation:${keyword}`, { field: translate(lng, labelKey(model, [field])) }),
  };
}

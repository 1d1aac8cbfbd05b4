// Validates bodies and queries with the one ajv setup and the schema files themselves (entities and
// operations), and turns ajv's errors into per-field messages in the caller's language.
import type { ErrorObject, ValidateFunction } from "ajv";
import { createAjv } from "../../src/schema/ajv.ts";
import { defsSchema, documentSchemas, entitySchemas } from "../../src/generated/schemas.ts";
import { operationSchemas } from "../../src/generated/operations.ts";
import {
  commonFieldKey,
  documentFieldKey,
  fieldLabelKey,
  isCommonField,
  operationKeyBase,
  ruleKey,
} from "../../src/schema/keys.ts";
import { amountText } from "../core/money.ts";
import { resolveDefs } from "../../src/schema/refs.ts";
import type { JsonSchemaNode, JsonSchemaOperation } from "../../src/schema/types.ts";
import { badRequest, type FieldError } from "../core/errors.ts";
import { hasTranslation, translate, type Language } from "../core/i18n.ts";
import type { EntityModel } from "../model/model.ts";
import { currencyOf } from "../db/settings.ts";
import { sqlOf, type Ctx } from "./context.ts";

const ajv = createAjv([
  defsSchema,
  ...documentSchemas,
  ...Object.values(entitySchemas),
  ...Object.values(operationSchemas),
]);
const cache = new Map<string, ValidateFunction>();

/** What names a schema's fields in messages: its translation key base and its own fields. */
export interface Labelled {
  /** "<entity>:" or an operation's "<namespace>:operations.<call>." */
  base: string;
  fields: { has(name: string): boolean };
  /** The schema, so a money field's limits read in currency units (1.00, not 100). */
  schema?: JsonSchemaNode;
}

/** The node at an instance path ("settings/0/amount"), following properties and items. */
function nodeAt(schema: JsonSchemaNode | undefined, segments: string[]): JsonSchemaNode | undefined {
  let node = schema;
  for (const segment of segments) {
    if (!node) return undefined;
    node = resolveDefs(defsSchema, node).node;
    node = /^\d+$/.test(segment) ? node.items : node.properties?.[segment];
  }
  return node ? resolveDefs(defsSchema, node).node : undefined;
}

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

/** An operation's input validator: its schema file as it is. */
export const operationValidator = (call: string): ValidateFunction => ajv.getSchema(call)!;

/** What an operation must answer, where its schema spells it out (`x-operation.answer` as a schema). */
export function answerValidator(call: string): ValidateFunction | undefined {
  const answer = operationSchemas[call as keyof typeof operationSchemas]?.["x-operation"].answer;
  if (typeof answer !== "object") return undefined;
  return compiled(`${call}#answer`, () => ({ $ref: `${call}#/x-operation/answer` }));
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

/** What names an operation's fields in its messages: its key base and its input fields. */
export const operationLabels = (operation: JsonSchemaOperation): Labelled => ({
  base: operationKeyBase(operation),
  fields: new Set(Object.keys(operation.properties)),
  schema: operation,
});

/** Translation key of a field's label: request parameters and system columns are labelled in common. */
export function labelKeyOf(target: Labelled, segments: string[]): string {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  const own = fieldLabelKey(target.base, names);
  // A common field (an id, a version) that the call declares without a label of its own (a hidden id).
  if (names.length === 1 && isCommonField(names[0]) && (!target.fields.has(names[0]) || !hasTranslation(own)))
    return commonFieldKey(names[0]);
  return own;
}

/**
 * The keys that may name a field, best first: its own label; a document's field by its name (a layout
 * module's "count"); the nearest enclosing field's label ("Layout" for a setting without one); a
 * request parameter's or system column's common label.
 */
function labelKeysOf(target: Labelled, segments: string[]): string[] {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  const keys = [labelKeyOf(target, segments)];
  const document = names.length > 1 ? target.schema?.properties?.[names[0]]?.$ref : undefined;
  const inDocument = document === undefined ? undefined : documentFieldKey(document, names[names.length - 1]);
  if (inDocument) keys.push(inDocument);
  for (let n = names.length - 1; n > 0; n--) keys.push(fieldLabelKey(target.base, names.slice(0, n)));
  keys.push(commonFieldKey(names[names.length - 1] ?? ""));
  return keys;
}

/** A field's label in the caller's language: words, never a translation key nor the field's own name. */
function labelOf(target: Labelled, segments: string[], lng: Language): string {
  const key = labelKeysOf(target, segments).find(hasTranslation);
  return translate(lng, key ?? "common:form.thisField");
}

/** The value at an instance path ("/modules/0"). */
function valueAt(data: unknown, instancePath: string): unknown {
  let value = data;
  for (const segment of instancePath.split("/").filter(Boolean))
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

/** The validator of the document definition whose discriminator `property` is `value` (a banner module). */
function branchValidator(property: string, value: unknown): ValidateFunction | undefined {
  for (const document of documentSchemas)
    for (const [name, node] of Object.entries(document.definitions ?? {}))
      if (node.properties?.[property]?.const === value)
        return compiled(`${document.$id}#${name}`, () => ({ $ref: `${document.$id}#/definitions/${name}` }));
  return undefined;
}

/**
 * A value that matches none of a union's branches (a layout module) is judged by the branch its
 * discriminator (a `const` property such as `type`) names, or refused on the discriminator alone when it
 * names none; ajv lists every branch's complaints (a banner asked for a grid's columns, in six shapes).
 */
function chosenBranch(errors: ErrorObject[], data: unknown): ErrorObject[] {
  let kept = errors;
  for (const union of errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")) {
    const at = union.instancePath;
    const under = (e: ErrorObject) => e.instancePath === at || e.instancePath.startsWith(`${at}/`);
    const tag = kept.find(
      (e) =>
        e.keyword === "const" &&
        e.instancePath.startsWith(`${at}/`) &&
        !e.instancePath.slice(at.length + 1).includes("/"),
    );
    if (!tag) continue;
    const property = tag.instancePath.slice(at.length + 1);
    const value = valueAt(data, at);
    const validate = branchValidator(property, (value as Record<string, unknown> | undefined)?.[property]);
    const judged = !validate
      ? [tag]
      : validate(value)
        ? []
        : (validate.errors ?? []).map((e) => ({ ...e, instancePath: `${at}${e.instancePath}` }));
    kept = [...kept.filter((e) => !under(e)), ...judged];
  }
  return kept;
}

/** The errors in the caller's words; an amount limit as an amount of `currency` (the settings'). */
export function localizeErrors(
  target: Labelled,
  errors: ErrorObject[],
  lng: Language,
  currency?: string,
  /** The data validated: a union's value is judged by its own branch. */
  data?: unknown,
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of chosenBranch(errors, data)) {
    if (error.keyword === "if") continue; // the branch's own errors say what is wrong
    const params = error.params as Record<string, unknown>;
    let path = error.instancePath;
    if (error.keyword === "required") path += `/${String(params.missingProperty)}`;
    if (error.keyword === "additionalProperties") path += `/${String(params.additionalProperty)}`;
    const segments = path.split("/").filter(Boolean);
    const field = segments.join("/");
    // A field the schema does not have is named as the caller sent it (its name, not its path).
    const label =
      error.keyword === "additionalProperties"
        ? String(params.additionalProperty)
        : segments.length
          ? labelOf(target, segments, lng)
          : translate(lng, "common:form.thisField");
    const money = typeof params.limit === "number" && nodeAt(target.schema, segments)?.["x-money"];
    // A relation left unchosen (missing, or 0 for none): "nothing selected", not a number's limits.
    const unchosen =
      (error.keyword === "required" || (error.keyword === "minimum" && params.limit === 1)) &&
      Boolean(nodeAt(target.schema, segments)?.["x-relation"]);
    const message =
      error.keyword === "x-compare"
        ? translate(lng, ruleKey(target.base, String(params.rule)))
        : unchosen
          ? translate(lng, "validation:notChosen", { field: label })
          : translate(lng, `validation:${error.keyword}`, {
              field: label,
              limit: money ? amountText(Number(params.limit), lng, currency) : params.limit,
              // The format by its name in the caller's language ("date"), else as the schema names it.
              format: hasTranslation(`validation:formats.${String(params.format)}`)
                ? translate(lng, `validation:formats.${String(params.format)}`)
                : params.format,
              other: params.other ? labelOf(target, [String(params.other)], lng) : undefined,
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
  target: Labelled,
  validate: ValidateFunction,
  data: unknown,
  lng: Language,
  currency?: string,
): FieldError[] {
  return validate(data) ? [] : localizeErrors(target, validate.errors ?? [], lng, currency, data);
}

/**
 * Validates or throws a 400 with the localized field errors (and any found before), amounts in the
 * settings' currency (read only when there is an error to word).
 */
export async function assertValid(
  ctx: Ctx,
  target: Labelled,
  validate: ValidateFunction,
  data: unknown,
  earlier: FieldError[] = [],
): Promise<void> {
  // Taken before the settings are read: another call may run the same validator meanwhile.
  const found = validate(data) ? [] : [...(validate.errors ?? [])];
  if (!found.length && !earlier.length) return;
  const currency = found.length ? await currencyOf(sqlOf(ctx)) : undefined;
  throw badRequest([...earlier, ...localizeErrors(target, found, ctx.lng, currency, data)]);
}

/** An error about a request's own parameters (id, version, action), labelled from common:fields. */
export function paramError(field: string, keyword: string, lng: Language, params: Record<string, unknown> = {}) {
  return {
    field,
    keyword,
    message: translate(lng, `validation:${keyword}`, {
      field: translate(lng, hasTranslation(commonFieldKey(field)) ? commonFieldKey(field) : "common:form.thisField"),
      ...params,
    }),
  };
}

/** A field error raised by the server itself (read-only, immutable, unique, ...), in the same shape. */
export function fieldError(
  target: Labelled,
  field: string,
  keyword: string,
  lng: Language,
  params: Record<string, unknown> = {},
): FieldError {
  return {
    field,
    keyword,
    message: translate(lng, `validation:${keyword}`, {
      field: labelOf(target, field.split("/"), lng),
      ...params,
    }),
  };
}

/** A field error with a message of its own (errors:<key>), e.g. a restock beyond the lane's free space. */
export function fieldMessage(field: string, key: string, lng: Language, params: Record<string, unknown> = {}) {
  return { field, keyword: key, message: translate(lng, key.includes(":") ? key : `errors:${key}`, params) };
}

// Checks the schemas before anything is generated from them: the meta-schema (every keyword known,
// every x- keyword well-formed), ajv strict compilation, and the facts that span files (relations,
// state machines, rules and calls that name fields and entities). Each problem names file and path.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ErrorObject } from "ajv";
import { createAjv } from "../src/schema/ajv.ts";
import type { EntitySchema, Project, SchemaNode } from "./model.ts";
import { SYSTEM_FIELDS } from "./model.ts";
import { resolveRef } from "./keys.ts";

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export interface Problem {
  file: string;
  path: string;
  message: string;
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === "unevaluatedProperties" || error.keyword === "additionalProperties") {
    const name = String(p.unevaluatedProperty ?? p.additionalProperty);
    return name.startsWith("x-") ? `unknown x- keyword "${name}"` : `unknown keyword "${name}"`;
  }
  if (error.keyword === "enum") return `${error.message}: ${JSON.stringify(p.allowedValues)}`;
  if (error.keyword === "const") return `must be ${JSON.stringify(p.allowedValue)}`;
  return error.message ?? error.keyword;
}

/** Meta-schema errors, most specific first, without the umbrella errors of enclosing keywords. */
function metaProblems(file: string, errors: ErrorObject[] | null | undefined): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const error of errors ?? []) {
    if (["if", "oneOf", "anyOf", "$ref"].includes(error.keyword)) continue;
    const problem = { file, path: error.instancePath || "/", message: describe(error) };
    const key = `${problem.path} ${problem.message}`;
    if (!seen.has(key)) out.push(problem);
    seen.add(key);
  }
  return out;
}

export function lintProject(project: Project): Problem[] {
  const problems: Problem[] = [];
  const meta = new Ajv2020({ allErrors: true, strict: false });
  addFormats(meta);
  meta.addSchema(project.meta as object);
  const metaId = String(project.meta.$id);
  const validateEntity = meta.getSchema(`${metaId}#/$defs/entity`)!;
  const validateDefs = meta.getSchema(`${metaId}#/$defs/defsFile`)!;

  if (!validateDefs(project.defs)) problems.push(...metaProblems("schemas/defs.json", validateDefs.errors));
  const names = new Set(project.entities.map((e) => e.$id));
  for (const doc of project.documents) names.add(String(doc.$id));

  for (const schema of project.entities) {
    const file = project.schemaFiles.get(schema.$id) ?? `schemas/${schema.$id}.json`;
    const expected = `schemas/${String(schema.$id).replaceAll("_", "-")}.json`;
    if (file !== expected)
      problems.push({ file, path: "/$id", message: `file of entity "${schema.$id}" must be ${expected}` });
    if (!validateEntity(schema)) {
      problems.push(...metaProblems(file, validateEntity.errors));
      continue;
    }
    problems.push(...entityProblems(project, schema, file, names));
  }

  const calls = new Map<string, string>();
  for (const schema of project.entities) {
    const file = project.schemaFiles.get(schema.$id)!;
    const owned = [
      ...Object.entries(schema["x-entity"].calls ?? {}).map(
        ([kind, call]) => [`/x-entity/calls/${kind}`, call] as const,
      ),
      ...Object.entries(schema["x-states"] ?? {}).flatMap(([field, m]) =>
        m.transitions.map((t, i) => [`/x-states/${field}/transitions/${i}/call`, t.call] as const),
      ),
    ];
    const own = new Set<string>();
    for (const [path, call] of owned) {
      const key = `${schema["x-entity"].basePath ?? "/merchant"}/${call}`;
      const other = calls.get(key);
      // Transitions of one entity may share a call (an action parameter tells them apart).
      if (other && !own.has(key)) problems.push({ file, path, message: `call "${call}" is already used by ${other}` });
      calls.set(key, schema.$id);
      own.add(key);
    }
  }

  if (problems.length === 0) {
    // Only a meta-valid set is worth compiling; ajv strict catches what the meta-schema cannot.
    try {
      const ajv = createAjv([project.defs, ...project.documents, ...project.entities]);
      for (const schema of project.entities) {
        const file = project.schemaFiles.get(schema.$id)!;
        try {
          const validate = ajv.getSchema(schema.$id)!;
          (schema.examples ?? []).forEach((example, i) => {
            if (!validate(example)) {
              for (const e of validate.errors ?? []) {
                problems.push({
                  file,
                  path: `/examples/${i}${e.instancePath}`,
                  message: `example is invalid: ${e.message}`,
                });
              }
            }
          });
        } catch (error) {
          problems.push({ file, path: "/", message: `ajv: ${(error as Error).message}` });
        }
      }
    } catch (error) {
      problems.push({ file: "schemas", path: "/", message: `ajv: ${(error as Error).message}` });
    }
  }
  return problems;
}

function entityProblems(project: Project, schema: EntitySchema, file: string, names: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ file, path, message });
  const props = schema.properties;
  const fields = new Set(Object.keys(props));
  const entity = schema["x-entity"];
  const resolved = (field: string): SchemaNode => resolveRef(project, props[field]).node;

  for (const sys of SYSTEM_FIELDS)
    if (fields.has(sys)) add(`/properties/${sys}`, `"${sys}" is a system column; do not declare it`);
  if (entity.titleField && !fields.has(entity.titleField))
    add("/x-entity/titleField", `no property "${entity.titleField}"`);
  if (entity.defaultSort) {
    const f = entity.defaultSort.field;
    if (!fields.has(f) && !(SYSTEM_FIELDS as readonly string[]).includes(f))
      add("/x-entity/defaultSort/field", `no property "${f}"`);
  }
  const calls = entity.calls;
  if (entity.recycle) {
    for (const kind of ["delete", "recycleList", "recover", "destroy"] as const) {
      if (!calls[kind]) add(`/x-entity/calls`, `recycle: true needs a "${kind}" call`);
    }
  }
  if (entity.storage === "singleton" && (!calls.get || !calls.set))
    add("/x-entity/calls", `a singleton needs "get" and "set" calls`);
  if (entity.storage !== "singleton" && (calls.get || calls.set))
    add("/x-entity/calls", `"get"/"set" are for singletons`);

  const checkRequired = (node: SchemaNode | undefined, path: string) => {
    if (!node) return;
    (node.required ?? []).forEach((f, i) => {
      if (!fields.has(f)) add(`${path}/required/${i}`, `required field "${f}" is not a property`);
    });
    for (const key of ["then", "else"] as const) checkRequired(node[key], `${path}/${key}`);
    for (const key of ["allOf", "anyOf", "oneOf"] as const)
      node[key]?.forEach((n, i) => checkRequired(n, `${path}/${key}/${i}`));
  };
  checkRequired(schema, "");

  for (const [field, raw] of Object.entries(props)) {
    const path = `/properties/${field}`;
    let node: SchemaNode;
    try {
      node = resolveRef(project, raw).node;
    } catch (error) {
      add(path, (error as Error).message);
      continue;
    }
    const relation = raw["x-relation"];
    if (relation && !names.has(relation.entity)) add(`${path}/x-relation/entity`, `no entity "${relation.entity}"`);
    if (raw.$ref && !raw.$ref.startsWith("defs#") && !names.has(raw.$ref))
      add(`${path}/$ref`, `no schema "${raw.$ref}"`);
    const ui = raw["x-ui"];
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    if (ui?.filter === "like" && type !== "string")
      add(`${path}/x-ui/filter`, `"like" filters text; "${field}" is ${type}`);
    if (ui?.filter === "range" && !(type === "integer" || type === "number" || node.format?.startsWith("date"))) {
      add(`${path}/x-ui/filter`, `"range" filters numbers and dates; "${field}" is ${type}`);
    }
    if (ui?.sortable && (type === "object" || type === "array"))
      add(`${path}/x-ui/sortable`, `cannot sort on a ${type}`);
    if (ui?.column && node.writeOnly) add(`${path}/x-ui/column`, `a writeOnly field cannot be a column`);
  }

  for (const [field, machine] of Object.entries(schema["x-states"] ?? {})) {
    const path = `/x-states/${field}`;
    if (!fields.has(field)) {
      add(path, `no property "${field}"`);
      continue;
    }
    const node = resolved(field);
    if (!node.enum) add(path, `state field "${field}" must be an enum`);
    if (!props[field].readOnly)
      add(path, `state field "${field}" must be readOnly (it changes only through transitions)`);
    const values = new Set(node.enum ?? []);
    const actions = new Set<string>();
    machine.transitions.forEach((t, i) => {
      const tp = `${path}/transitions/${i}`;
      if (actions.has(t.action)) add(`${tp}/action`, `duplicate action "${t.action}"`);
      actions.add(t.action);
      t.from.forEach((v, j) => {
        if (!values.has(v)) add(`${tp}/from/${j}`, `${JSON.stringify(v)} is not a value of "${field}"`);
      });
      if (!values.has(t.to)) add(`${tp}/to`, `${JSON.stringify(t.to)} is not a value of "${field}"`);
      for (const key of ["input", "requiredInput"] as const) {
        (t[key] ?? []).forEach((f, j) => {
          if (!fields.has(f)) add(`${tp}/${key}/${j}`, `no property "${f}"`);
        });
      }
      for (const f of t.requiredInput ?? []) {
        if (!(t.input ?? []).includes(f)) add(`${tp}/requiredInput`, `"${f}" must also be listed in input`);
      }
    });
  }
  (schema["x-compare"] ?? []).forEach((rule, i) => {
    for (const key of ["field", "other"] as const) {
      if (!fields.has(rule[key])) add(`/x-compare/${i}/${key}`, `no property "${rule[key]}"`);
    }
  });
  return problems;
}

// Checks the schemas before anything is generated from them: the meta-schema (every keyword known,
// every x- keyword well-formed), ajv strict compilation, and the facts that span files (relations,
// state machines, rules and calls that name fields and entities). Each problem names file and path.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ErrorObject } from "ajv";
import { createAjv } from "../src/schema/ajv.ts";
import type { EntitySchema, OperationSchema, Project, SchemaNode } from "./model.ts";
import { SYSTEM_FIELDS } from "./model.ts";
import { resolveRef } from "./keys.ts";
import { elementOf } from "../src/schema/refs.ts";
import { entityPermissions, operationPermission } from "../src/schema/permissions.ts";

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
  // A node that breaks a rule (a string without maxLength) also fails unevaluatedProperties, at its path
  // and its parents': its keywords then read as unknown. The rule's own message is the one to show.
  const real = out.filter((p) => !p.message.startsWith("unknown keyword"));
  const within = (path: string, inner: string) => inner === path || inner.startsWith(path === "/" ? "/" : `${path}/`);
  return out.filter((p) => !p.message.startsWith("unknown keyword") || !real.some((r) => within(p.path, r.path)));
}

export function lintProject(project: Project): Problem[] {
  const problems: Problem[] = [];
  const meta = new Ajv2020({ allErrors: true, strict: false });
  addFormats(meta);
  meta.addSchema(project.meta as object);
  const metaId = String(project.meta.$id);
  const validateEntity = meta.getSchema(`${metaId}#/$defs/entity`)!;
  const validateDefs = meta.getSchema(`${metaId}#/$defs/defsFile`)!;
  const validateOperation = meta.getSchema(`${metaId}#/$defs/operation`)!;

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

  const entities = new Map(project.entities.map((e) => [e.$id, e]));
  for (const operation of project.operations) {
    const file = project.schemaFiles.get(operation.$id) ?? `schemas/operations/${operation.$id}.json`;
    const expected = `schemas/operations/${String(operation.$id)}.json`;
    if (file !== expected)
      problems.push({ file, path: "/$id", message: `file of operation "${operation.$id}" must be ${expected}` });
    if (!validateOperation(operation)) {
      problems.push(...metaProblems(file, validateOperation.errors));
      continue;
    }
    if (names.has(operation.$id))
      problems.push({ file, path: "/$id", message: `"${operation.$id}" is an entity's name; name the call` });
    problems.push(...operationProblems(project, operation, file, entities));
  }

  const calls = new Map<string, string>();
  for (const operation of project.operations) {
    const file = project.schemaFiles.get(operation.$id)!;
    const key = `${operation["x-operation"].basePath ?? "/merchant"}/${operation.$id}`;
    if (calls.has(key)) problems.push({ file, path: "/$id", message: `call "${operation.$id}" is declared twice` });
    calls.set(key, `operation ${operation.$id}`);
  }
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
      const ajv = createAjv([project.defs, ...project.documents, ...project.entities, ...project.operations]);
      for (const schema of [...project.entities, ...project.operations]) {
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

/**
 * A `when` that lists several values of a field declaring value groups (x-groups) lists one of the groups
 * exactly: a set of states that rules share is written once, in the schema.
 */
function whenProblems(
  entity: EntitySchema,
  when: Record<string, (string | number)[]> | undefined,
  path: string,
  add: (path: string, message: string) => void,
) {
  for (const [field, values] of Object.entries(when ?? {})) {
    const groups = Object.values(entity.properties[field]?.["x-groups"] ?? {});
    if (!groups.length || values.length < 2) continue;
    const same = (group: string[]) => group.length === values.length && values.every((v) => group.includes(String(v)));
    if (!groups.some(same))
      add(`${path}/${field}`, `lists several values of "${field}" that are none of its x-groups: name the set there`);
  }
}

/** An account entity's fixed permissions name permission keys, and its switches name its own fields. */
function signInProblems(
  project: Project,
  signIn: NonNullable<EntitySchema["x-entity"]["signIn"]>,
  fields: Set<string>,
  add: (path: string, message: string) => void,
) {
  const known = new Set([
    ...project.entities.flatMap((e) => entityPermissions(e)),
    ...project.operations.flatMap((o) => operationPermission(o) ?? []),
  ]);
  const check = (keys: string[], path: string) =>
    keys.forEach((key, i) => {
      if (!known.has(key)) add(`${path}/${i}`, `no permission "${key}"`);
    });
  check(signIn.permissions, "/x-entity/signIn/permissions");
  for (const [field, keys] of Object.entries(signIn.whileOn ?? {})) {
    if (!fields.has(field)) add(`/x-entity/signIn/whileOn/${field}`, `no property "${field}"`);
    check(keys, `/x-entity/signIn/whileOn/${field}`);
  }
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
  (entity.unique ?? []).forEach((set, i) =>
    set.forEach((f, j) => {
      // A scoped entity's owner column may be part of a set: unique per agent.
      if (!fields.has(f) && !(f === "agent_id" && entity.scope === "agent"))
        add(`/x-entity/unique/${i}/${j}`, `no property "${f}"`);
    }),
  );
  for (const [name, node] of Object.entries(props)) {
    const needs = node["x-needs"] as { all: string[]; anyOf?: string[][] } | undefined;
    if (!needs) continue;
    const path = `/properties/${name}/x-needs`;
    if (resolved(name).type !== "integer") add(path, `x-needs belongs on a switch (0 or 1)`);
    needs.all.forEach((f, i) => fields.has(f) || add(`${path}/all/${i}`, `no property "${f}"`));
    (needs.anyOf ?? []).forEach((set, i) =>
      set.forEach((f, j) => fields.has(f) || add(`${path}/anyOf/${i}/${j}`, `no property "${f}"`)),
    );
  }
  (entity.related ?? []).forEach((r, i) => {
    const path = `/x-entity/related/${i}`;
    const other = project.entities.find((e) => e.$id === r.entity);
    if (!other) return add(`${path}/entity`, `no entity "${r.entity}"`);
    if (!other["x-entity"].calls.list) add(`${path}/entity`, `entity "${r.entity}" has no list call`);
    const field = other.properties[r.field];
    if (!field) return add(`${path}/field`, `entity "${r.entity}" has no field "${r.field}"`);
    if (field["x-relation"]?.entity !== schema.$id)
      add(`${path}/field`, `"${r.entity}.${r.field}" is not a relation to "${schema.$id}"`);
    if (field["x-ui"]?.filter !== "eq") add(`${path}/field`, `"${r.entity}.${r.field}" needs x-ui.filter "eq"`);
    if (!calls.detail && !calls.list) add(path, `related records show on a detail screen: "${schema.$id}" has none`);
  });
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
  if (entity.signIn) signInProblems(project, entity.signIn, fields, add);

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
    if (relation?.history) {
      // History keeps the title it was written with: a field of the row, on a relation of one id.
      const copy = relation.titleCopy;
      const target = project.entities.find((e) => e.$id === relation.entity);
      if (node.type !== "integer") add(`${path}/x-relation/history`, `a history relation holds one id`);
      if (copy && (!props[copy] || !["string", "integer"].includes(resolved(copy).type as string)))
        add(`${path}/x-relation/titleCopy`, `"${copy}" is not a text or number property`);
      if (!copy && target?.["x-entity"].titleField)
        add(`${path}/x-relation`, `history of a titled record keeps its title: name the field in titleCopy`);
    }
    if (raw.$ref && !raw.$ref.startsWith("defs#") && !names.has(raw.$ref))
      add(`${path}/$ref`, `no schema "${raw.$ref}"`);
    for (const [group, values] of Object.entries(raw["x-groups"] ?? {}))
      values.forEach((value, j) => {
        if (!node.enum?.includes(value))
          add(`${path}/x-groups/${group}/${j}`, `"${value}" is not a value of "${field}"`);
      });
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
    if (ui?.search) {
      // The search box reads stored text the caller may list; a secret or a figure is never searched.
      const store = raw["x-store"];
      if (type !== "string" || node.format || node.writeOnly || store || node["x-upload"] || raw["x-upload"])
        add(`${path}/x-ui/search`, `the search box finds stored text; "${field}" is not`);
      if (!calls.list || entity.storage === "singleton")
        add(`${path}/x-ui/search`, `"${schema.$id}" has no list call to be searched in`);
    }
    for (const [other, values] of Object.entries(ui?.when ?? {})) {
      if (!fields.has(other)) add(`${path}/x-ui/when/${other}`, `no property "${other}"`);
      else if (other === field) add(`${path}/x-ui/when/${other}`, `a field cannot depend on itself`);
      else
        values.forEach((value, j) => {
          if (!resolved(other).enum?.includes(value))
            add(`${path}/x-ui/when/${other}/${j}`, `"${value}" is not a value of "${other}"`);
        });
    }
    if (raw["x-store"] === "derived") {
      if (!raw.readOnly && !node.readOnly)
        add(`${path}/x-store`, `a derived field is readOnly (the server works it out)`);
      if ((ui?.sortable || ui?.filter) && !schema["x-entity"]?.live)
        add(
          `${path}/x-ui`,
          `a derived field is worked out on read, after the query: sorting or filtering on it needs x-entity.live`,
        );
    }
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
    (machine.initial ?? []).forEach((v, j) => {
      if (!values.has(v)) add(`${path}/initial/${j}`, `${JSON.stringify(v)} is not a value of "${field}"`);
    });
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
      for (const f of Object.keys(t.when ?? {})) if (!fields.has(f)) add(`${tp}/when`, `no property "${f}"`);
      whenProblems(schema, t.when, `${tp}/when`, add);
    });
  }
  (schema["x-compare"] ?? []).forEach((rule, i) => {
    for (const key of ["field", "other"] as const) {
      if (!fields.has(rule[key])) add(`/x-compare/${i}/${key}`, `no property "${rule[key]}"`);
    }
  });
  return problems;
}

/** Cross-file facts of an operation: the entity, fields and permission it names exist and fit. */
function operationProblems(
  project: Project,
  operation: OperationSchema,
  file: string,
  entities: Map<string, EntitySchema>,
): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ file, path, message });
  const x = operation["x-operation"];
  const props = operation.properties;
  const entity = x.entity === undefined ? undefined : entities.get(x.entity);
  if (x.entity !== undefined && !entity) add("/x-operation/entity", `no entity "${x.entity}"`);
  if (x.permission !== "public" && x.permission !== "signed-in") {
    const owner = x.permission.split(".")[0];
    if (!entities.has(owner)) add("/x-operation/permission", `"${x.permission}" names no entity "${owner}"`);
  }
  if (x.body && x.method !== "POST") add("/x-operation/body", `only a POST has a body`);
  (operation.required ?? []).forEach((f, i) => {
    if (!(f in props)) add(`/required/${i}`, `required field "${f}" is not a property`);
  });
  for (const [field, raw] of Object.entries(props)) {
    const relation = raw["x-relation"];
    if (relation && !entities.has(relation.entity))
      add(`/properties/${field}/x-relation/entity`, `no entity "${relation.entity}"`);
    if (x.method !== "POST") {
      // Query strings carry text: scalars, and lists of scalars as comma lists.
      const node = elementOf(project.defs, raw).node;
      const type = Array.isArray(node.type) ? node.type[0] : node.type;
      if (type === "object") add(`/properties/${field}`, `a ${x.method} takes its input in the query: no objects`);
    }
  }
  const ui = x.ui;
  if (ui && ui.placement !== "none" && !entity)
    add("/x-operation/ui", `the console offers operations on an entity's screens: name the entity`);
  if (ui?.placement === "row" || ui?.placement === "bulk") {
    if (!props.id) add("/x-operation/ui/placement", `a ${ui.placement} operation takes the record's "id"`);
  }
  for (const [key, fields] of [
    ["when", Object.keys(ui?.when ?? {})],
    ["summary", ui?.summary ?? []],
  ] as const) {
    for (const f of fields)
      if (entity && !(f in entity.properties) && !SYSTEM_FIELDS.includes(f as never))
        add(`/x-operation/ui/${key}`, `entity "${entity.$id}" has no field "${f}"`);
  }
  if (entity) whenProblems(entity, ui?.when, "/x-operation/ui/when", add);
  if (ui?.load) {
    const loader = project.operations.find((o) => o.$id === ui.load);
    if (!loader || loader["x-operation"].method !== "GET" || !loader.properties.id)
      add("/x-operation/ui/load", `"${ui.load}" is not a GET operation taking the record's "id"`);
  }
  if (typeof x.answer === "string" && ["record", "page", "records"].includes(x.answer) && !entity)
    add("/x-operation/answer", `"${x.answer}" answers the entity's records: name the entity`);
  (operation["x-compare"] ?? []).forEach((rule, i) => {
    for (const key of ["field", "other"] as const) {
      if (!(rule[key] in props)) add(`/x-compare/${i}/${key}`, `no property "${rule[key]}"`);
    }
  });
  return problems;
}

// The generic operations every entity gets from its schema: list, detail, pickers, add, update, delete to
// the recycle bin, recover, destroy, state transitions, singleton settings. Beside it: rows as the API
// answers them (answer.ts), the audit trail and a record's history (audit.ts), passwords (core/passwords.ts).
import type { Queryable } from "../db/db.ts";
import { uniqueIndexName } from "../db/migrate.ts";
import { badRequest, conflict, HttpError, notFound, type FieldError } from "../core/errors.ts";
import { isSystemColumn, MASK } from "../../src/schema/constants.ts";
import { permissionOfTransition } from "../../src/schema/permissions.ts";
import type { JsonSchemaNode, Transition } from "../../src/schema/types.ts";
import { inTransaction, scopeOn, requirePermission, sqlOf, type Ctx } from "./context.ts";
import type { EntityHooks } from "./domain.ts";
import { modelOf, resolveNode, type EntityModel } from "../model/model.ts";
import { refuseInUse, unnamed } from "./references.ts";
import * as repo from "./repository.ts";
import type { ListQuery, Row } from "./repository.ts";
import { asId, asVersion } from "./query.ts";
import { titlesOf } from "./titles.ts";
import { toApi } from "./answer.ts";
import { audit, auditMany } from "./audit.ts";
import { hashPassword } from "../core/passwords.ts";
import { translate } from "../core/i18n.ts";
import { assertValid, fieldError, paramError, transitionValidator, validatorFor, type Labelled } from "./validation.ts";
import { fieldLabelKey } from "../../src/schema/keys.ts";

export { MASK };

const hooksOf = (ctx: Ctx, entity: string): EntityHooks => ctx.domain.hooks.get(entity) ?? {};

function defaultsOf(model: EntityModel): Row {
  const out: Row = {};
  for (const field of model.fields.values()) if (field.node.default !== undefined) out[field.name] = field.node.default;
  return out;
}

const redact = (model: EntityModel, field: string, value: unknown) =>
  model.writeOnly.has(field) ? "[redacted]" : value;

// ---------------------------------------------------------------- input checks shared by add and update

function asObject(body: unknown): Row {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "badQuery");
  return body as Row;
}

/** Fields a client may never set: system columns, read-only fields, state fields. */
function forbiddenOnCreate(model: EntityModel, body: Row, ctx: Ctx): FieldError[] {
  return Object.keys(body).flatMap((f) => {
    // A state a new record may start in (x-states initial) is chosen on the add form.
    const initial = model.schema["x-states"]?.[f]?.initial;
    if (initial) return initial.includes(body[f] as string | number) ? [] : [fieldError(model, f, "enum", ctx.lng)];
    return isSystemColumn(f) || model.readOnly.has(f) || model.stateFields.has(f)
      ? [fieldError(model, f, "readOnly", ctx.lng)]
      : [];
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Values to store: stored fields only, passwords hashed, documents as JSON. */
async function storable(model: EntityModel, data: Row): Promise<Row> {
  const out: Row = {};
  for (const [name, value] of Object.entries(data)) {
    const field = model.fields.get(name);
    if (!field || !field.stored) continue;
    out[name] = model.hashed.has(name) && typeof value === "string" ? await hashPassword(value) : value;
  }
  return out;
}

/** A new password needs its confirmation: the never-stored partner of an x-compare eq rule. */
function missingConfirmations(model: EntityModel, changes: Row, ctx: Ctx): FieldError[] {
  return (model.schema["x-compare"] ?? [])
    .filter(
      (rule) => rule.op === "eq" && model.hashed.has(rule.other) && rule.other in changes && !(rule.field in changes),
    )
    .map((rule) => fieldError(model, rule.field, "required", ctx.lng));
}

/** Every x-relation value in the data, at any depth (a channel plan's lanes name goods): path, entity, id. */
function relationsIn(node: JsonSchemaNode, value: unknown, path: string[], out: [string, string, unknown][]): void {
  if (value === null || value === undefined) return;
  const resolved = resolveNode(node);
  const relation = resolved["x-relation"] ?? (resolved.items ? resolveNode(resolved.items)["x-relation"] : undefined);
  if (relation) {
    for (const id of Array.isArray(value) ? value : [value]) out.push([path.join("/"), relation.entity, id]);
    return;
  }
  if (Array.isArray(value) && resolved.items)
    value.forEach((item, i) => relationsIn(resolved.items!, item, [...path, String(i)], out));
  else if (typeof value === "object" && resolved.properties)
    for (const [name, child] of Object.entries(value as Row))
      if (resolved.properties[name]) relationsIn(resolved.properties[name], child, [...path, name], out);
}

/**
 * Every relation, at any depth, points at a record the caller may see: one query per related entity,
 * whatever the number of values. The error lands on the field that holds the id (lanes/2/goods_id).
 */
export async function checkRelations(
  tx: Queryable,
  ctx: Ctx,
  target: Labelled & { schema: { properties: Record<string, JsonSchemaNode> } },
  values: Row,
): Promise<void> {
  const found: [string, string, unknown][] = [];
  for (const [name, value] of Object.entries(values))
    if (target.schema.properties[name]) relationsIn(target.schema.properties[name], value, [name], found);
  if (found.length === 0) return;
  const byEntity = new Map<string, Set<number>>();
  for (const [, entity, id] of found) {
    if (typeof id !== "number") continue; // the schema's own check reports a wrong type
    byEntity.set(entity, (byEntity.get(entity) ?? new Set()).add(id));
  }
  const existing = new Map<string, Set<number>>();
  // Locked (key share) until the write commits: a record cannot be deleted for good under a new reference.
  for (const [entity, ids] of byEntity) {
    const model = modelOf(entity);
    existing.set(entity, await repo.existing(tx, model, scopeOn(model, ctx.principal), [...ids], "key share"));
  }
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [path, entity, id] of found) {
    if (typeof id !== "number" || existing.get(entity)!.has(id) || seen.has(path)) continue;
    seen.add(path);
    errors.push(fieldError(target, path, "x-relation", ctx.lng));
  }
  if (errors.length) throw badRequest(errors);
}

/**
 * Runs a write; a row that would share one of the entity's unique sets (x-entity.unique, a unique index,
 * so it holds however many writes race) is refused with 400 on the set's last field.
 */
async function uniquely<T>(
  ctx: Ctx,
  model: EntityModel,
  write: () => Promise<T>,
  refusal: (field: string) => HttpError = (field) => badRequest([fieldError(model, field, "unique", ctx.lng)]),
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    const set =
      code === "23505" ? (model.x.unique ?? []).find((s) => uniqueIndexName(model, s) === constraint) : undefined;
    if (set) throw refusal(set[set.length - 1]);
    throw error;
  }
}

/** A 409 naming the first record of `ids` whose unique value a live record took while it was in the bin. */
async function refuseTaken(tx: Queryable, ctx: Ctx, model: EntityModel, ids: number[]): Promise<void> {
  const taken = await repo.takenInBin(tx, model, ids);
  if (!taken) return;
  const node = model.schema.properties[taken.field];
  const target = node?.["x-relation"]?.entity;
  // A value that points at a record is named by that record's title (goods copied from “Cola”).
  let value = taken.value ?? "";
  if (target && taken.value !== null) {
    const titles = await titlesOf(tx, model, [{ [taken.field]: Number(taken.value) }]);
    value = titles[target]?.[Number(taken.value)] ?? value;
  }
  throw new HttpError(409, "recoverTaken", {
    title: taken.title || unnamed(ctx.lng, model.name),
    field: translate(ctx.lng, fieldLabelKey(model.base, taken.field)),
    value,
  });
}

/** A written row as reads show it: through the entity's live view when it has one (its derived fields). */
async function readBack(tx: Queryable, model: EntityModel, row: Row): Promise<Row> {
  if (!model.x.live) return row;
  return (await repo.findById(tx, model, {}, row.id as number, Boolean(row.deleted_at))) ?? row;
}

/** Works out the derived fields of rows about to be shown (the entity's derive hook). */
export async function derive(ctx: Ctx, model: EntityModel, rows: Row[]): Promise<void> {
  if (model.derived.size && rows.length) await hooksOf(ctx, model.name).derive?.(ctx, rows);
}

// ---------------------------------------------------------------- operations

export async function listRecords(
  ctx: Ctx,
  model: EntityModel,
  query: ListQuery,
  recycled: boolean,
  narrow: Partial<repo.Scope> = {},
) {
  // The titles of what the rows point at come with them (one statement, beside the count), and the
  // screen needs no other call.
  const { after: titles, ...result } = await repo.list(
    sqlOf(ctx),
    model,
    { ...scopeOn(model, ctx.principal), ...narrow },
    query,
    recycled,
    async (rows) => {
      await derive(ctx, model, rows);
      return titlesOf(sqlOf(ctx), model, rows);
    },
  );
  return { ...result, list: result.list.map((row) => toApi(model, row)), titles: titles! };
}

export async function detail(ctx: Ctx, model: EntityModel, id: number): Promise<Row> {
  const row = await repo.findById(sqlOf(ctx), model, scopeOn(model, ctx.principal), id);
  if (!row) throw notFound();
  await derive(ctx, model, [row]);
  return toApi(model, row);
}

/** Options for pickers: { id, title } by title search, or for given ids (a list page's relations). */
export async function pick(ctx: Ctx, model: EntityModel, filter: { search?: string; ids?: number[] }): Promise<Row[]> {
  return repo.options(sqlOf(ctx), model, scopeOn(model, ctx.principal), filter);
}

export async function add(ctx: Ctx, model: EntityModel, rawBody: unknown): Promise<Row> {
  const body = asObject(rawBody);
  // Everything wrong is reported at once: fields the client may not set, and the schema's rules.
  const refused = forbiddenOnCreate(model, body, ctx);
  const data = {
    ...defaultsOf(model),
    ...Object.fromEntries(Object.entries(body).filter(([f]) => !refused.some((e) => e.field === f))),
  };
  await assertValid(ctx, model, validatorFor(model, "create"), data, refused);
  const hooks = hooksOf(ctx, model.name);
  return inTransaction(ctx, async (ctx) => {
    const { tx } = ctx;
    await checkRelations(tx, ctx, model, data);
    const values = await storable(model, data);
    if (model.scoped) Object.assign(values, { agent_id: ctx.principal.agentId, agent_path: ctx.principal.agentPath });
    if (model.owned) Object.assign(values, { owner_kind: ctx.principal.kind, owner_id: ctx.principal.id });
    await hooks.beforeWrite?.(ctx, tx, values);
    let row = await uniquely(ctx, model, () => repo.insert(tx, model, values));
    if (hooks.afterInsert) row = await hooks.afterInsert(ctx, tx, row);
    await hooks.afterWrite?.(ctx, tx, row);
    row = await readBack(tx, model, row);
    await audit(
      tx,
      ctx,
      model.name,
      row.id as number,
      "create",
      Object.fromEntries(Object.keys(data).map((f) => [f, redact(model, f, data[f])])),
    );
    await derive(ctx, model, [row]);
    return toApi(model, row);
  });
}

export async function update(ctx: Ctx, model: EntityModel, rawBody: unknown): Promise<Row> {
  const body = asObject(rawBody);
  const id = asId(body.id);
  const version = asVersion(body.version);
  const missing: FieldError[] = [];
  if (id === undefined) missing.push(paramError("id", body.id === undefined ? "required" : "type", ctx.lng));
  if (version === undefined)
    missing.push(paramError("version", body.version === undefined ? "required" : "type", ctx.lng));
  if (id === undefined || version === undefined) throw badRequest(missing);
  return inTransaction(ctx, async (ctx) => {
    const { tx } = ctx;
    const existing = await repo.findById(tx, model, scopeOn(model, ctx.principal, true), id);
    if (!existing) throw notFound();
    if (existing.version !== version) throw conflict();
    // As read, derived fields too: a record sent back as read changes none of them.
    await derive(ctx, model, [existing]);
    const current = toApi(model, existing);
    const refused: FieldError[] = [];
    const changes: Row = {};
    for (const [name, value] of Object.entries(body)) {
      if (name === "id" || name === "version") continue;
      const isField = model.fields.has(name);
      const serverManaged = isSystemColumn(name) || model.readOnly.has(name) || model.stateFields.has(name);
      if (!isField && !isSystemColumn(name)) continue; // unknown: the validator names it below
      if (serverManaged) {
        if (!same(value, current[name])) refused.push(fieldError(model, name, "readOnly", ctx.lng));
        continue;
      }
      if (model.writeOnly.has(name) && (value === MASK || value === null || value === undefined)) continue;
      if (model.immutable.has(name) && !same(value, current[name])) {
        refused.push(fieldError(model, name, "x-immutable", ctx.lng));
        continue;
      }
      if (!same(value, current[name])) changes[name] = value;
    }
    // The record as it will be, minus what the client cannot know (secrets) unless it sets them.
    const merged: Row = {};
    for (const [name, value] of Object.entries(current)) {
      if (
        model.fields.has(name) &&
        !model.writeOnly.has(name) &&
        !model.readOnly.has(name) &&
        !model.stateFields.has(name)
      )
        merged[name] = value;
    }
    for (const name of Object.keys(body))
      if (!model.fields.has(name) && !isSystemColumn(name) && name !== "version") merged[name] = body[name];
    Object.assign(merged, changes);
    refused.push(...missingConfirmations(model, changes, ctx));
    await assertValid(ctx, model, validatorFor(model, "update"), merged, refused);
    if (Object.keys(changes).length === 0) return current;
    await checkRelations(tx, ctx, model, changes);
    const values = await storable(model, changes);
    const hooks = hooksOf(ctx, model.name);
    await hooks.beforeWrite?.(ctx, tx, values, existing);
    const written = await uniquely(ctx, model, () =>
      repo.updateAt(tx, model, scopeOn(model, ctx.principal, true), id, version, values),
    );
    if (!written) throw conflict();
    await hooks.afterWrite?.(ctx, tx, written, existing);
    const row = await readBack(tx, model, written);
    await audit(
      tx,
      ctx,
      model.name,
      id,
      "update",
      Object.fromEntries(
        Object.keys(changes).map((f) => [f, [redact(model, f, current[f]), redact(model, f, changes[f])]]),
      ),
    );
    await derive(ctx, model, [row]);
    return toApi(model, row);
  });
}

type BulkOp = "delete" | "recover" | "destroy";

/** All or nothing: if any id is missing from the caller's scope (or not in the bin), nothing changes. */
export async function bulk(ctx: Ctx, model: EntityModel, op: BulkOp, ids: number[]): Promise<{ count: number }> {
  if (ids.length === 0) throw badRequest([paramError("id", "required", ctx.lng)]);
  const unique = [...new Set(ids)];
  return inTransaction(ctx, async (ctx) => {
    const { tx } = ctx;
    const scope = scopeOn(model, ctx.principal, true);
    await hooksOf(ctx, model.name).beforeBulk?.(ctx, op, unique);
    // Deleting for good: never a record others still point at (references.ts).
    if (op === "destroy" || (op === "delete" && !model.recycle)) {
      await repo.lockRows(tx, model, unique);
      // Another agent's record is not found, before the refusal could name it or what uses it.
      if ((await repo.countInScope(tx, model, scope, unique)) !== unique.length) throw notFound();
      await refuseInUse(tx, ctx, model, unique);
    }
    // Recovering: never into a unique value a live record has taken meanwhile (the unique index holds
    // it; the check names the record, and a write that races the check is a conflict).
    if (op === "recover") await refuseTaken(tx, ctx, model, unique);
    const touched =
      op === "delete"
        ? await repo.remove(tx, model, scope, unique, ctx.principal.id)
        : op === "recover"
          ? await uniquely(
              ctx,
              model,
              () => repo.recover(tx, model, scope, unique),
              () => conflict(),
            )
          : await repo.destroy(tx, model, scope, unique);
    if (touched.length !== unique.length) {
      if (op === "destroy") {
        // Which of them are still live: one statement for all the ids, not one per id.
        if ((await repo.existing(tx, model, scope, unique)).size) throw new HttpError(409, "notInRecycleBin");
      }
      throw notFound();
    }
    const action = op === "delete" && model.recycle ? "recycle" : op;
    await auditMany(tx, ctx, model.name, touched, action);
    return { count: touched.length };
  });
}

/** Finds the transition a call runs: the only one, or the one named by `action` when several share a call. */
export function transitionsOfCall(model: EntityModel, call: string): { field: string; transition: Transition }[] {
  const found: { field: string; transition: Transition }[] = [];
  for (const [field, transitions] of model.stateFields)
    for (const t of transitions) if (t.call === call) found.push({ field, transition: t });
  return found;
}

export async function runTransition(ctx: Ctx, model: EntityModel, call: string, rawBody: unknown): Promise<Row> {
  const body = asObject(rawBody);
  const candidates = transitionsOfCall(model, call);
  const chosen =
    candidates.length === 1 && body.action === undefined
      ? candidates[0]
      : candidates.find((c) => c.transition.action === body.action);
  if (!chosen) {
    throw badRequest([
      paramError("action", "enum", ctx.lng, { allowed: candidates.map((c) => c.transition.action).join(", ") }),
    ]);
  }
  const { field, transition: t } = chosen;
  requirePermission(ctx, permissionOfTransition(model.name, t.action));
  const { id: rawId, action: _action, version: rawVersion, ...input } = body;
  const ids = (Array.isArray(rawId) ? rawId : [rawId]).map(asId);
  const id = ids.length === 1 ? ids[0] : undefined;
  if (id === undefined) throw badRequest([paramError("id", "required", ctx.lng)]);
  const version = rawVersion === undefined ? undefined : asVersion(rawVersion);
  if (rawVersion !== undefined && version === undefined) throw badRequest([paramError("version", "type", ctx.lng)]);
  await assertValid(ctx, model, transitionValidator(model, t.action, t.input ?? [], t.requiredInput ?? []), input);
  return inTransaction(ctx, async (ctx) => {
    const { tx } = ctx;
    const scope = scopeOn(model, ctx.principal, true);
    const before = await repo.findById(tx, model, scope, id);
    if (!before) throw notFound();
    // Cross-field rules see the record as it will be (e.g. deduction <= estimated income).
    await assertValid(ctx, model, validatorFor(model, "update"), {
      ...pickFields(model, toApi(model, before)),
      ...input,
    });
    const after = await repo.transition(tx, model, scope, id, {
      field,
      from: t.from,
      to: t.to,
      when: t.when,
      input,
      version,
    });
    if (!after) throw conflict(version !== undefined && before.version !== version ? "staleVersion" : "stateConflict");
    const effect = ctx.domain.effects.get(permissionOfTransition(model.name, t.action));
    const answered =
      (await effect?.(ctx, { transition: t, before, after, input })) ?? (await readBack(tx, model, after));
    await audit(tx, ctx, model.name, id, t.action, { [field]: [before[field], t.to], ...input });
    await derive(ctx, model, [answered]);
    return toApi(model, answered);
  });
}

function pickFields(model: EntityModel, record: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(record))
    if (model.fields.has(name) && !model.writeOnly.has(name)) out[name] = value;
  return out;
}

const singletonKey = (ctx: Ctx, model: EntityModel) => (model.scoped ? ctx.principal.agentPath : "global");

export async function getSingleton(ctx: Ctx, model: EntityModel): Promise<Row> {
  const row = await repo.singleton(sqlOf(ctx), model, singletonKey(ctx, model));
  return row ? toApi(model, row) : { ...defaultsOf(model), version: 0 };
}

export async function setSingleton(ctx: Ctx, model: EntityModel, rawBody: unknown): Promise<Row> {
  const body = asObject(rawBody);
  const { id: _id, version: rawVersion, created_at: _c, updated_at: _u, agent_id: _a, ...fields } = body;
  const key = singletonKey(ctx, model);
  return inTransaction(ctx, async (ctx) => {
    const { tx } = ctx;
    const version = asVersion(rawVersion ?? 0);
    if (version === undefined) throw badRequest([paramError("version", "type", ctx.lng)]);
    const existing = await repo.singleton(tx, model, key);
    if ((existing?.version ?? 0) !== version) throw conflict();
    const shown = existing ? toApi(model, existing) : {};
    const current = existing ? pickFields(model, shown) : defaultsOf(model);
    const system = { id: _id, created_at: _c, updated_at: _u, agent_id: _a };
    const refused = [
      ...Object.entries(system)
        .filter(([f, v]) => v !== undefined && !same(v, shown[f]))
        .map(([f]) => f),
      ...Object.keys(fields).filter(
        (f) => (model.readOnly.has(f) || isSystemColumn(f)) && !same(fields[f], current[f]),
      ),
    ];
    if (refused.length) throw badRequest(refused.map((f) => fieldError(model, f, "readOnly", ctx.lng)));
    const merged: Row = { ...current };
    for (const [name, value] of Object.entries(fields)) {
      if (model.readOnly.has(name)) continue;
      if (model.writeOnly.has(name) && (value === MASK || value === null)) continue;
      merged[name] = value;
    }
    await assertValid(ctx, model, validatorFor(model, "update"), merged);
    await checkRelations(tx, ctx, model, merged);
    const values = await storable(
      model,
      Object.fromEntries(Object.entries(merged).filter(([f]) => !model.readOnly.has(f))),
    );
    // The rules across fields the schema cannot say (what a payment provider in use needs) see every
    // value the row will hold: the ones sent and the ones kept.
    await hooksOf(ctx, model.name).beforeWrite?.(ctx, tx, values, existing);
    let row: Row | undefined;
    if (existing) row = await repo.updateAt(tx, model, {}, existing.id as number, version, values);
    else {
      const owner = model.scoped ? { agent_id: ctx.principal.agentId, agent_path: ctx.principal.agentPath } : {};
      // The first save: two at once (PostgreSQL runs them side by side) must not both insert. The loser
      // finds the key taken and is told the record changed meanwhile, as any stale version is.
      row = await repo.insertSingleton(tx, model, { ...values, ...owner, singleton_key: key });
    }
    if (!row) throw conflict();
    await audit(
      tx,
      ctx,
      model.name,
      row.id as number,
      existing ? "update" : "create",
      Object.fromEntries(Object.keys(fields).map((f) => [f, redact(model, f, fields[f])])),
    );
    await derive(ctx, model, [row]);
    return toApi(model, row);
  });
}

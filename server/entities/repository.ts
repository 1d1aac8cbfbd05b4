// All SQL of the generic engine. Every statement carries the caller's scope in its WHERE clause, so a
// row outside the caller's subtree is never read, changed, deleted, recovered or destroyed.
import type { Queryable } from "../db/db.ts";
import { readRelation } from "../db/live.ts";
import { LIST_COUNT_CAP } from "../../src/schema/constants.ts";
import { q } from "../core/sql.ts";
import { modelOf, type EntityModel } from "../model/model.ts";
import { rollupCount } from "./rollup-totals.ts";

export type Row = Record<string, unknown>;

export interface Scope {
  /** Agent path prefix the caller may see ("/1/5/"); undefined for the platform admin. */
  path?: string;
  /**
   * Operators see only the devices bound to them, what belongs to those devices, their own records, and
   * of other entities what those devices name.
   */
  operatorId?: number;
  /**
   * Outlet managers see only the outlets they manage (still their agent's), the devices standing at them,
   * what belongs to those devices, their own account, and of other entities what those devices name.
   */
  managerId?: number;
  /** Only rows of the agents below this path, not the path's own (a superior's "subordinate goods"). */
  below?: string;
  /** On an owned entity (model.owned) the caller, whose rows alone it reads and writes, and reads shared. */
  owner?: Owner;
}

export interface Owner {
  kind: "agent" | "operator" | "manager";
  id: number;
  agentPath: string;
  /** Reading: an agent reads too the rows its superiors' agents shared (shared = true); writing: only its own. */
  write: boolean;
}

export type Condition = { field: string; op: "eq" | "like" | "gte" | "lte" | "in"; value: unknown };

export interface ListQuery {
  page: number;
  limit: number;
  sort: string;
  order: "asc" | "desc";
  /** Further sort keys, after the first (a review queue: pending first, then the oldest). */
  then?: { field: string; order: "asc" | "desc" }[];
  where: Condition[];
  /** Count every matching row, past COUNT_CAP (asked for: the total is then exact whatever its size). */
  exact?: boolean;
}

export interface ListResult {
  list: Row[];
  total: number;
  /** false when total is a count past COUNT_CAP held from an earlier call (ESTIMATE_REUSE_MS). */
  total_exact: boolean;
  page: number;
  limit: number;
}

/**
 * A total up to this many rows is exact at every call; a larger one is counted to the last row and then
 * held (ESTIMATE_REUSE_MS), shown as an estimate ("About N") while it is: the pager reaches only the rows
 * counted at every call (the console's LIST_COUNT_CAP), so a held figure never leads to an empty page.
 */
export const COUNT_CAP = LIST_COUNT_CAP;

/**
 * How long a filter counted past COUNT_CAP keeps its count, per database: for that time its lists (any
 * page, any caller with the same scope) count no more and show the figure they had, marked as an estimate
 * (another instance, a hand or a timer may have changed the rows since). The count reads every matching
 * row (about 2 ms over the demo's 20,000 orders on PostgreSQL), so it is not run at every page. The hold ends
 * at once when this instance answers a write (`forgetLargeResults`), and for the filter when a page beyond
 * the first comes back empty (its rows were removed elsewhere). Smaller results are counted at every call.
 * One count of a filter runs at a time: lists that need it meanwhile take the same one, and once a held
 * figure runs out, the lists beside its next count answer it a moment longer.
 * The planner's estimate is no longer used: it scales the rows last analyzed by the pages the table has
 * now, dead rows included (the demo said 28,859 for 20,000 orders after its seed updated 8,705 of them),
 * and cannot see through an operator's binding subquery (1,001 for 1,200).
 */
export const ESTIMATE_REUSE_MS = 10_000;
/** Counts held at most per database; past it the oldest goes. */
const ESTIMATES_HELD = 1_000;

interface LargeResults {
  /** Per filter: its count past the cap, until when it is held. */
  held: Map<string, { rows: number; until: number }>;
  /**
   * Per filter: the count running now. Every list of the filter that needs a count meanwhile takes this one
   * (never a second at once: 50 lists of one filter past the cap used to run 50 counts of its rows together,
   * 725 ms each over a million orders, and the pool's other work waited behind them); one whose held figure
   * has just run out answers that figure, still an estimate, while another's count runs.
   */
  counting: Map<string, Promise<number>>;
  /** Counted up at each write answered; a count begun before one is not kept, nor joined. */
  generation: number;
}
const largeResults = new WeakMap<Queryable, LargeResults>();

function largeResultsOf(db: Queryable): LargeResults {
  let results = largeResults.get(db);
  if (!results) largeResults.set(db, (results = { held: new Map(), counting: new Map(), generation: 0 }));
  return results;
}

/**
 * The count of a filter counted past the cap within ESTIMATE_REUSE_MS, if any; or the one before, while
 * its next count runs.
 */
function heldCount(results: LargeResults, key: string): number | undefined {
  const found = results.held.get(key);
  if (found && (Date.now() < found.until || results.counting.has(key))) return found.rows;
}

/** Keeps a count past the cap, begun at `generation`, if no write was answered since it began. */
function hold(results: LargeResults, key: string, generation: number, rows: number): void {
  if (generation !== results.generation) return;
  const { held: map } = results;
  map.delete(key);
  if (map.size >= ESTIMATES_HELD) map.delete(map.keys().next().value!);
  map.set(key, { rows, until: Date.now() + ESTIMATE_REUSE_MS });
}

/**
 * Every filter of the database is counted again at its next list: called when the server answers a
 * write, after its transaction, before the answer leaves (the writer's next list is exact).
 */
export function forgetLargeResults(db: Queryable): void {
  const results = largeResults.get(db);
  if (!results) return;
  results.generation++;
  results.held.clear();
  results.counting.clear();
}

class Params {
  readonly values: unknown[] = [];
  /** Placeholders continue after the first `offset` parameters of the statement. */
  constructor(private readonly offset = 0) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function scopeConditions(model: EntityModel, scope: Scope, p: Params): string[] {
  if (model.owned) return [ownerCondition(model, scope.owner, p)];
  const conditions: string[] = [];
  if (model.scoped && scope.path !== undefined)
    conditions.push(`${q("agent_path")} like ${p.add(`${escapeLike(scope.path)}%`)}`);
  if (model.scoped && scope.below !== undefined) {
    conditions.push(`${q("agent_path")} like ${p.add(`${escapeLike(scope.below)}%`)}`);
    conditions.push(`${q("agent_path")} <> ${p.add(scope.below)}`);
  }
  if (scope.operatorId !== undefined) {
    // Each condition adds its own parameter, and only the condition used: a statement must use every
    // parameter it is given (an unused one is refused by the server), whatever entity it reads.
    const bound = () =>
      `(select machine_id from ${q("operator_binding")} where operator_id = ${p.add(scope.operatorId)})`;
    if (model.name === "machine") conditions.push(`id in ${bound()}`);
    else if (model.fields.has("operator_id")) conditions.push(`operator_id = ${p.add(scope.operatorId)}`);
    else if (model.fields.has("machine_id")) conditions.push(`machine_id in ${bound()}`);
    else if (model.name === "operator") conditions.push(`id = ${p.add(scope.operatorId)}`);
    else if (model.scoped) {
      // Of any other entity only what its bound devices name (their outlet, plans, owner): never the
      // rest of its agent's records.
      const named = deviceFieldsNaming(model.name).map(
        (field) => `select ${q(field)} from ${q("machine")} where deleted_at is null and id in ${bound()}`,
      );
      conditions.push(named.length ? `id in (${named.join(" union ")})` : "false");
    }
  }
  if (scope.managerId !== undefined) {
    // Read at every statement: an outlet taken off the manager, or moved to another agent, leaves its view
    // at once.
    const outlets = () =>
      `(select s.id from ${q("shop")} s join ${q("shop_manager")} m on m.id = ${p.add(scope.managerId)}
         where m.deleted_at is null and s.deleted_at is null and s.agent_id = m.agent_id
           and s.id in (select (jsonb_array_elements_text(m.shop_ids))::bigint))`;
    const devices = () => `(select id from ${q("machine")} where deleted_at is null and shop_id in ${outlets()})`;
    if (model.name === "machine") conditions.push(`shop_id in ${outlets()}`);
    else if (model.name === "shop") conditions.push(`id in ${outlets()}`);
    else if (model.name === "shop_manager") conditions.push(`id = ${p.add(scope.managerId)}`);
    else if (model.fields.has("machine_id")) conditions.push(`machine_id in ${devices()}`);
    else if (model.fields.has("shop_id")) conditions.push(`shop_id in ${outlets()}`);
    else if (model.scoped) {
      const named = deviceFieldsNaming(model.name).map(
        (field) => `select ${q(field)} from ${q("machine")} where deleted_at is null and shop_id in ${outlets()}`,
      );
      conditions.push(named.length ? `id in (${named.join(" union ")})` : "false");
    }
  }
  return conditions;
}

/**
 * An owned row: the caller's own, or (read by an agent) one an agent above it shared, where the entity has a
 * boolean field `shared`. The admin, too, reads
 * only its own; a call without an owner reads nothing.
 */
function ownerCondition(model: EntityModel, owner: Owner | undefined, p: Params): string {
  if (!owner) return "false";
  const own = `(owner_kind = ${p.add(owner.kind)} and owner_id = ${p.add(owner.id)})`;
  if (owner.write || owner.kind !== "agent" || !model.fields.has("shared")) return own;
  // Strictly above: the sharer's path is a proper prefix of the reader's (paths are digits and slashes).
  const shared = `(shared and owner_kind = 'agent' and ${p.add(owner.agentPath)} like ${q("agent_path")} || '_%')`;
  return `(${own} or ${shared})`;
}

/** The device's columns that name a record of the entity (x-relation): its outlet, its plans, its owner. */
function deviceFieldsNaming(entity: string): string[] {
  return [...modelOf("machine").fields.values()]
    .filter((f) => f.stored && f.node["x-relation"]?.entity === entity)
    .map((f) => f.name);
}

/**
 * The caller's scope on an entity, as SQL for a domain module's own statement: " and ..." conditions
 * whose placeholders follow the statement's first `offset` parameters, and their values.
 */
export function scopeClause(model: EntityModel, scope: Scope, offset: number): { sql: string; values: unknown[] } {
  const p = new Params(offset);
  const conditions = scopeConditions(model, scope, p);
  return { sql: conditions.map((c) => ` and ${c}`).join(""), values: p.values };
}

function baseConditions(model: EntityModel, scope: Scope, p: Params, recycled: boolean): string[] {
  const conditions = scopeConditions(model, scope, p);
  if (model.recycle) conditions.push(recycled ? "deleted_at is not null" : "deleted_at is null");
  return conditions;
}

const where = (conditions: string[]) => (conditions.length ? ` where ${conditions.join(" and ")}` : "");

function filterCondition(c: Condition, p: Params): string {
  const column = q(c.field);
  switch (c.op) {
    case "eq":
      return `${column} = ${p.add(c.value)}`;
    case "like":
      return `${column} ilike ${p.add(`%${escapeLike(String(c.value))}%`)}`;
    case "gte":
      return `${column} >= ${p.add(c.value)}`;
    case "lte":
      return `${column} <= ${p.add(c.value)}`;
    case "in":
      return `${column} = any(${p.add(c.value)})`;
  }
}

/**
 * A page of rows, its total, and what `afterPage` reads for the page's rows (their titles): the page and
 * `afterPage` run beside the count and its estimate, so on PostgreSQL the answer waits for the longer of
 * the two, not for both.
 */
export async function list<T = undefined>(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  query: ListQuery,
  recycled = false,
  afterPage?: (rows: Row[]) => Promise<T>,
): Promise<ListResult & { after: T | undefined }> {
  const p = new Params();
  const conditions = [...baseConditions(model, scope, p, recycled), ...query.where.map((c) => filterCondition(c, p))];
  const from = `from ${q(readRelation(model))}${where(conditions)}`;
  const filterParams = [...p.values];
  const keys = [{ field: query.sort, order: query.order }, ...(query.then ?? [])];
  const idKey = keys.some((k) => k.field === "id") ? "" : `, id ${query.order}`;
  const order = `order by ${keys.map((k) => `${q(k.field)} ${k.order}`).join(", ")}${idKey}`;
  const page = db
    .query<Row>(`select * ${from} ${order} limit ${query.limit} offset ${(query.page - 1) * query.limit}`, filterParams)
    .then(async ({ rows }) => ({ rows, after: await afterPage?.(rows) }));
  const results = largeResultsOf(db);
  const key = JSON.stringify([from, filterParams]);
  // One count of a filter at a time (LargeResults.counting): a list that needs one meanwhile takes it.
  const countAll = (): Promise<number> => {
    const running = results.counting.get(key);
    if (running) return running;
    const generation = results.generation;
    const count = db
      .query<{ n: number }>(`select count(*)::int as n ${from}`, filterParams)
      .then(({ rows: [all] }) => {
        const n = Number(all.n);
        if (n > COUNT_CAP) hold(results, key, generation, n);
        return n;
      })
      .finally(() => {
        if (results.counting.get(key) === count) results.counting.delete(key);
      });
    results.counting.set(key, count);
    return count;
  };
  const counted = (async (): Promise<{ total: number; exact: boolean; held?: boolean }> => {
    if (query.exact) {
      const all = await db.query<{ n: number }>(`select count(*)::int as n ${from}`, filterParams);
      return { total: Number(all.rows[0].n), exact: true };
    }
    // A roll-up that knows the total exactly (the order list's, as the dashboard counts it).
    const rollup = recycled ? undefined : rollupCount(model, scope, query.where);
    if (rollup) {
      const known = await db.query<{ n: number }>(rollup.sql, rollup.params);
      return { total: Number(known.rows[0].n), exact: true };
    }
    const held = heldCount(results, key);
    if (held !== undefined) return { total: held, exact: false, held: true };
    const total = await countAll();
    return { total, exact: total <= COUNT_CAP };
  })();
  const [{ rows, after }, count] = await Promise.all([page, counted]);
  let { total, exact } = count;
  // A page past the first found empty under a held count: the rows were removed elsewhere; counted again.
  if (count.held && !rows.length && query.page > 1) {
    results.held.delete(key);
    total = await countAll();
    exact = total <= COUNT_CAP;
  }
  return { list: rows, total, total_exact: exact, page: query.page, limit: query.limit, after };
}

export async function findById(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  id: number,
  recycled = false,
): Promise<Row | undefined> {
  const p = new Params();
  const conditions = [`id = ${p.add(id)}`, ...baseConditions(model, scope, p, recycled)];
  const { rows } = await db.query<Row>(`select * from ${q(readRelation(model))}${where(conditions)}`, p.values);
  return rows[0];
}

/** Which of the ids name live records in the caller's scope: one statement, whatever their number. */
export async function existing(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  ids: number[],
  /** "key share": the records cannot be deleted for good until the transaction ends (a write pointing at them). */
  lock?: "key share",
): Promise<Set<number>> {
  const p = new Params();
  const conditions = [`id = any(${p.add(ids)})`, ...baseConditions(model, scope, p, false)];
  const { rows } = await db.query<{ id: number }>(
    `select id from ${q(model.table)}${where(conditions)}${lock ? ` for ${lock}` : ""}`,
    p.values,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** Locks the rows of the ids (whatever their scope) for the rest of the transaction, before a delete. */
export async function lockRows(db: Queryable, model: EntityModel, ids: number[]): Promise<void> {
  await db.query(`select id from ${q(model.table)} where id = any($1) order by id for update`, [ids]);
}

/** How many of the ids are records in the caller's scope, live or in the recycle bin. */
export async function countInScope(db: Queryable, model: EntityModel, scope: Scope, ids: number[]): Promise<number> {
  const p = new Params();
  const conditions = [`id = any(${p.add(ids)})`, ...scopeConditions(model, scope, p)];
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from ${q(model.table)}${where(conditions)}`,
    p.values,
  );
  return Number(rows[0].n);
}

/** id and title of every record the caller may pick; `search` narrows by title. */
export async function options(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  filter: { search?: string; ids?: number[] } = {},
  limit = 500,
): Promise<{ id: number; title: string }[]> {
  const p = new Params();
  const title = model.titleField ?? "id";
  const conditions = baseConditions(model, scope, p, false);
  if (filter.search) conditions.push(`${q(title)}::text ilike ${p.add(`%${escapeLike(filter.search)}%`)}`);
  if (filter.ids) conditions.push(`id = any(${p.add(filter.ids)})`);
  const { rows } = await db.query<{ id: number; title: string }>(
    `select id, ${q(title)}::text as title from ${q(model.table)}${where(conditions)} order by ${q(title)} limit ${limit}`,
    p.values,
  );
  return rows;
}

const jsonValue = (model: EntityModel, field: string, value: unknown) =>
  model.fields.get(field)?.kind === "json" && value !== null && value !== undefined ? JSON.stringify(value) : value;

export async function insert(db: Queryable, model: EntityModel, values: Row): Promise<Row> {
  const p = new Params();
  const columns = Object.keys(values);
  const placeholders = columns.map((c) => p.add(jsonValue(model, c, values[c])));
  const sql = columns.length
    ? `insert into ${q(model.table)} (${columns.map(q).join(", ")}) values (${placeholders.join(", ")}) returning *`
    : `insert into ${q(model.table)} default values returning *`;
  return (await db.query<Row>(sql, p.values)).rows[0];
}

/** A singleton's first row; undefined when another transaction has just made it (its key is unique). */
export async function insertSingleton(db: Queryable, model: EntityModel, values: Row): Promise<Row | undefined> {
  const p = new Params();
  const columns = Object.keys(values);
  const placeholders = columns.map((c) => p.add(jsonValue(model, c, values[c])));
  const sql = `insert into ${q(model.table)} (${columns.map(q).join(", ")}) values (${placeholders.join(", ")})
               on conflict (singleton_key) do nothing returning *`;
  return (await db.query<Row>(sql, p.values)).rows[0];
}

/** One row's update in one statement: in scope, not recycled, at the version if given, plus `extra`. */
async function updateOne(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  id: number,
  values: Row,
  version?: number,
  extra?: (p: Params) => string,
): Promise<Row | undefined> {
  const p = new Params();
  const sets = Object.keys(values).map((c) => `${q(c)} = ${p.add(jsonValue(model, c, values[c]))}`);
  sets.push("version = version + 1", "updated_at = now()");
  const conditions = [`id = ${p.add(id)}`, ...baseConditions(model, scope, p, false)];
  if (extra) conditions.push(extra(p));
  if (version !== undefined) conditions.push(`version = ${p.add(version)}`);
  const sql = `update ${q(model.table)} set ${sets.join(", ")}${where(conditions)} returning *`;
  return (await db.query<Row>(sql, p.values)).rows[0];
}

/** Updates one row at the given version; undefined when no row matched (missing, out of scope or stale). */
export function updateAt(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  id: number,
  version: number | undefined,
  values: Row,
) {
  return updateOne(db, model, scope, id, values, version);
}

/**
 * The state change of a transition, only from an allowed state (and, with `when`, only for records
 * whose fields hold one of the given values): atomic in one statement.
 */
export function transition(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  id: number,
  change: {
    field: string;
    from: unknown[];
    to: unknown;
    input: Row;
    version?: number;
    when?: Record<string, unknown[]>;
    set?: Row;
  },
): Promise<Row | undefined> {
  const values: Row = { ...change.input, ...change.set, [change.field]: change.to };
  return updateOne(db, model, scope, id, values, change.version, (p) =>
    [
      `${q(change.field)} = any(${p.add(change.from)})`,
      ...Object.entries(change.when ?? {}).map(([field, allowed]) => `${q(field)} = any(${p.add(allowed)})`),
    ].join(" and "),
  );
}

/** Soft delete (recycle) or delete; returns the ids it touched. */
export async function remove(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  ids: number[],
  actor: number,
): Promise<number[]> {
  const p = new Params();
  const conditions = [`id = any(${p.add(ids)})`, ...baseConditions(model, scope, p, false)];
  const sql = model.recycle
    ? `update ${q(model.table)} set deleted_at = now(), deleted_by = ${p.add(actor)}, version = version + 1${where(conditions)} returning id`
    : `delete from ${q(model.table)}${where(conditions)} returning id`;
  return (await db.query<{ id: number }>(sql, p.values)).rows.map((r) => r.id);
}

export async function recover(db: Queryable, model: EntityModel, scope: Scope, ids: number[]): Promise<number[]> {
  const p = new Params();
  const conditions = [`id = any(${p.add(ids)})`, ...baseConditions(model, scope, p, true)];
  const sql = `update ${q(model.table)} set deleted_at = null, deleted_by = null, version = version + 1, updated_at = now()${where(conditions)} returning id`;
  return (await db.query<{ id: number }>(sql, p.values)).rows.map((r) => r.id);
}

/**
 * The first of `ids` (in the recycle bin) that a live record now shares one of the entity's unique sets
 * with (a device code given to a new device meanwhile): its id, title, and the set's last field and value.
 * One statement per unique set.
 */
export async function takenInBin(
  db: Queryable,
  model: EntityModel,
  ids: number[],
): Promise<{ id: number; title: string | null; field: string; value: string | null } | undefined> {
  if (!model.recycle) return undefined;
  for (const set of model.x.unique ?? []) {
    const field = set[set.length - 1];
    const title = model.titleField ? `r.${q(model.titleField)}::text` : "null";
    const { rows } = await db.query<{ id: number; title: string | null; value: string | null }>(
      `select r.id, ${title} as title, r.${q(field)}::text as value from ${q(model.table)} r
        where r.id = any($1) and r.deleted_at is not null
          and exists (select 1 from ${q(model.table)} l
                       where l.deleted_at is null and ${set.map((f) => `l.${q(f)} = r.${q(f)}`).join(" and ")})
        order by r.id limit 1`,
      [ids],
    );
    if (rows[0]) return { ...rows[0], id: Number(rows[0].id), field };
  }
  return undefined;
}

export async function destroy(db: Queryable, model: EntityModel, scope: Scope, ids: number[]): Promise<number[]> {
  const p = new Params();
  const conditions = [`id = any(${p.add(ids)})`, ...baseConditions(model, scope, p, true)];
  return (
    await db.query<{ id: number }>(`delete from ${q(model.table)}${where(conditions)} returning id`, p.values)
  ).rows.map((r) => r.id);
}

export async function singleton(db: Queryable, model: EntityModel, key: string): Promise<Row | undefined> {
  return (await db.query<Row>(`select * from ${q(model.table)} where singleton_key = $1`, [key])).rows[0];
}

/**
 * The rows after `after` in the list's order (its sort keys, then id), `limit` of them: keyset paging,
 * so reading every page of a long list (an export) costs each page, not the rows before it. NULLs sort
 * as PostgreSQL sorts them (last ascending, first descending). Each row carries its keys as the
 * database's own text (KEYSET_FIELD0, ...), and `after` is compared by those: a timestamp read into
 * JavaScript keeps milliseconds only, and rows sharing a time to the microsecond would be skipped.
 */
/** The prefix of the key columns listAfter adds to each row. */
export const KEYSET_FIELD = "__keyset_";

export async function listAfter(
  db: Queryable,
  model: EntityModel,
  scope: Scope,
  query: ListQuery,
  after: Row | undefined,
  limit: number,
): Promise<Row[]> {
  const p = new Params();
  const conditions = [...baseConditions(model, scope, p, false), ...query.where.map((c) => filterCondition(c, p))];
  const keys = [{ field: query.sort, order: query.order }, ...(query.then ?? [])];
  if (!keys.some((k) => k.field === "id")) keys.push({ field: "id", order: query.order });
  const idAt = keys.findIndex((k) => k.field === "id");
  const used = keys.slice(0, idAt + 1);
  if (after) {
    const beyond = (i: number): string => {
      const { field, order } = used[i];
      const column = q(field);
      const value = after[`${KEYSET_FIELD}${i}`];
      const isNull = value === null || value === undefined;
      const strictly = isNull
        ? order === "asc"
          ? "false"
          : `${column} is not null`
        : order === "asc"
          ? `(${column} > ${p.add(value)} or ${column} is null)`
          : `${column} < ${p.add(value)}`;
      if (i === used.length - 1) return strictly;
      const equal = isNull ? `${column} is null` : `${column} = ${p.add(value)}`;
      return `(${strictly} or (${equal} and ${beyond(i + 1)}))`;
    };
    conditions.push(beyond(0));
  }
  const order = `order by ${used.map((k) => `${q(k.field)} ${k.order}`).join(", ")}`;
  const keyColumns = used.map((k, i) => `${q(k.field)}::text as ${q(`${KEYSET_FIELD}${i}`)}`).join(", ");
  const { rows } = await db.query<Row>(
    `select *, ${keyColumns} from ${q(readRelation(model))}${where(conditions)} ${order} limit ${limit}`,
    p.values,
  );
  return rows;
}

// Generic fixtures for the API tests: a valid record of any entity, made from its schema's example, with
// every relation pointing at a record that exists and that the owner may see. Nothing here is written per
// entity: the schemas (through the runtime models) say what to create and how.
import { permissionOfCall } from "../../src/schema/permissions.ts";
import type { CallKind, JsonSchemaNode, Transition } from "../../src/schema/types.ts";
import { toApi } from "../../server/entities/answer.ts";
import { modelOf, resolveNode, type EntityModel, type Field } from "../../server/model/model.ts";
import { isSystemColumn } from "../../src/schema/constants.ts";
import * as repo from "../../server/entities/repository.ts";
import { validatorFor } from "../../server/entities/validation.ts";
import { client, type Client, type Reply, type TestApp } from "./helper.ts";
import { post as postLedger } from "../../server/domain/money/ledger.ts";
import { requestWithdrawal, type WithdrawalRequest } from "../../server/domain/money/withdrawals.ts";
import { operationSchemas } from "../../src/generated/operations.ts";

export type Row = Record<string, unknown>;
export type Owner = "admin" | "agent_a" | "agent_a1" | "agent_b";
export interface ListData {
  list: Row[];
  total: number;
  page: number;
  limit: number;
}
export interface FieldErrors {
  errors: { field: string; keyword: string; message: string }[];
}

/** The path of one of an entity's calls. */
export const urlOf = (model: EntityModel, kind: CallKind | string): string =>
  `${model.x.basePath ?? "/merchant"}/${model.x.calls[kind as CallKind] ?? kind}`;

export const has = (model: EntityModel, kind: CallKind): boolean => model.x.calls[kind] !== undefined;

export const relationOf = (model: EntityModel, field: string): string | undefined =>
  model.schema.properties[field]?.["x-relation"]?.entity;

/** Fields a client may send on add: not system columns, read-only or state fields. */
export const clientField = (model: EntityModel, field: string): boolean =>
  !isSystemColumn(field) && !model.readOnly.has(field) && !model.stateFields.has(field);

export const exampleOf = (model: EntityModel): Row => structuredClone(model.schema.examples![0]) as Row;

/** Every transition of the entity, with the state field it moves. */
export const transitionsOf = (model: EntityModel): { field: string; tr: Transition }[] =>
  [...model.stateFields].flatMap(([field, list]) => list.map((tr) => ({ field, tr })));

/** The body of a transition call: the record, the action when several share the call, required input. */
export function transitionBody(model: EntityModel, tr: Transition, id: unknown): Row {
  const shared = transitionsOf(model).filter((x) => x.tr.call === tr.call).length > 1;
  const example = exampleOf(model);
  const input = Object.fromEntries(
    (tr.requiredInput ?? []).map((f) => [f, example[f] ?? sampleOf(model.fields.get(f)!)]),
  );
  return { id, ...(shared ? { action: tr.action } : {}), ...input };
}

/** Field names of the errors of a 400 reply. */
export const errorFields = (reply: Reply): string[] =>
  ((reply.body.data as FieldErrors | null)?.errors ?? []).map((e) => e.field);

/** A value the field's schema accepts, when the example has none. */
export function sampleOf(field: Field): unknown {
  const node = field.node;
  if (node.enum) return node.enum[0];
  switch (field.kind) {
    case "integer":
    case "number":
      return node.minimum !== undefined && node.minimum > 1 ? node.minimum : 1;
    case "boolean":
      return true;
    case "datetime":
      return "2026-03-01T08:00:00.000Z";
    case "date":
      return "2026-03-01";
    case "string":
      return "Sample text";
    default:
      return node.type === "array" ? [] : {};
  }
}

/** Another value of the field's type than `current` (for "change this field" checks). */
export function otherValueOf(field: Field, current: unknown): unknown[] {
  const node = field.node;
  if (node.enum) return node.enum.filter((v) => v !== current);
  switch (field.kind) {
    case "integer":
      return typeof current === "number" ? [current + 1, current - 1] : [1, 2];
    case "number":
      return typeof current === "number" ? [current + 1, current / 2] : [0.5, 1];
    case "boolean":
      return [!current];
    case "datetime":
      return ["2020-01-02T03:04:05.000Z"];
    case "date":
      return ["2020-01-02"];
    case "string":
      return typeof current === "string" && current !== ""
        ? [`${current}X`, `X${current}`, "Updated", "/uploads/updated.png"]
        : ["Updated", "/uploads/updated.png"];
    default:
      return [];
  }
}

/**
 * A change the schema accepts to one editable field of the record: a plain field (not read-only, state,
 * immutable, write-only, a relation or system-managed), validated on the example with the change.
 */
export function editOf(model: EntityModel, record: Row): { field: string; value: unknown } | undefined {
  const validate = validatorFor(model, "create");
  const example = exampleOf(model);
  // Plain values first: a date left as it was must survive the round trip too.
  const order = ["string", "integer", "number", "boolean", "datetime", "date"];
  const fields = [...model.fields.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const field of fields) {
    const name = field.name;
    if (!field.stored || !clientField(model, name) || model.immutable.has(name) || model.writeOnly.has(name)) continue;
    if (relationOf(model, name) || field.kind === "json") continue;
    for (const value of otherValueOf(field, record[name] ?? example[name])) {
      if (validate({ ...example, [name]: value })) return { field: name, value };
    }
  }
  return undefined;
}

interface OwnerInfo {
  id: number;
  path: string;
  /** undefined for the platform admin, who may do everything. */
  permissions?: Set<string>;
}

export class Fixtures {
  private clients = new Map<string, Promise<Client>>();
  private related = new Map<string, Promise<number>>();
  private ownerInfo = new Map<string, Promise<OwnerInfo>>();
  private counter = 0;

  constructor(readonly t: TestApp) {}

  /** A signed-in client per account, reused by every test of the file. */
  client(account: string): Promise<Client> {
    if (!this.clients.has(account)) this.clients.set(account, this.t.as(account));
    return this.clients.get(account)!;
  }

  /** The account's client speaking another language (the Locale header). */
  async clientIn(account: string, lng: string): Promise<Client> {
    return client(this.t.app, (await this.client(account)).token, lng);
  }

  owner(account: Owner): Promise<OwnerInfo> {
    if (!this.ownerInfo.has(account)) {
      this.ownerInfo.set(
        account,
        this.t.db
          .query<{ id: number; agent_path: string; pid: number | null; permissions: string[] | null }>(
            `select a.id, a.agent_path, a.pid, r.permissions from "agent" a left join "role" r on r.id = a.role_id where a.account = $1`,
            [account],
          )
          .then(({ rows: [row] }) => ({
            id: Number(row.id),
            path: row.agent_path,
            permissions: row.pid === null ? undefined : new Set(row.permissions ?? []),
          })),
      );
    }
    return this.ownerInfo.get(account)!;
  }

  async may(account: Owner, permission: string): Promise<boolean> {
    const { permissions } = await this.owner(account);
    return !permissions || permissions.has(permission);
  }

  /**
   * A valid record of the entity for the owner: the schema's example with every relation id replaced by
   * an existing record the owner may see, unique fields made unique. "api" leaves out what a client may
   * not send (system, read-only and state fields); "sql" keeps them and leaves out unstored fields.
   */
  async makeRecord(entity: string, owner: Owner, mode: "api" | "sql" = "api", resolving: string[] = []): Promise<Row> {
    const model = modelOf(entity);
    const record = exampleOf(model);
    const { id: ownerId } = await this.owner(owner);
    for (const name of Object.keys(record)) {
      const field = model.fields.get(name);
      if (mode === "api" && !clientField(model, name)) delete record[name];
      if (mode === "sql" && !field?.stored) delete record[name];
    }
    for (const [name, value] of Object.entries(record)) {
      const target = relationOf(model, name);
      if (!target) continue;
      let id: number | undefined;
      if (target === "agent") id = ownerId;
      // An agent's role is the one of the next level down from its superior's (the platform admin's agents are
      // level-1 agents); other records name the narrow viewer's role.
      else if (target === "role")
        id = entity === "agent" && owner === "admin" ? this.t.ids.roleAgent : this.t.ids.roleNarrow;
      else if (target !== entity && !resolving.includes(target))
        id = await this.relatedId(target, owner, [...resolving, entity]);
      if (id === undefined) {
        // A relation back to itself (a category's parent): left out, as a top-level record would.
        if (model.schema.required?.includes(name)) throw new Error(`${entity}.${name}: required relation cycle`);
        delete record[name];
      } else record[name] = Array.isArray(value) ? [id] : id;
    }
    // Relations inside lists and objects (a channel plan's lanes name goods) point at real records too.
    for (const [name, value] of Object.entries(record)) {
      if (relationOf(model, name) || typeof value !== "object" || value === null) continue;
      record[name] = await this.nestedRelations(model.schema.properties[name], value, owner, [...resolving, entity]);
    }
    // A unique set (an operator bound to a device once): fresh related records each time, so that tests
    // setting one of the fields to another record's value do not make two records share the set.
    // A set with a relation is made unique by its fresh related record; its other fields stay as they are
    // (a stock row's date stays a date).
    const relational = new Set((model.x.unique ?? []).filter((set) => set.some((f) => relationOf(model, f))).flat());
    for (const field of new Set((model.x.unique ?? []).flat())) {
      const target = relationOf(model, field);
      if (!(field in record)) continue;
      // A unique text (a device code, a hardware id): the example's with a number of its own.
      if (!target && !relational.has(field) && typeof record[field] === "string")
        record[field] = `${record[field] as string}${++this.counter}`;
      if (!target) continue;
      const owner2 = modelOf(target).scoped ? owner : "admin";
      record[field] = (await this.createRecord(target, owner2, {}, [...resolving, entity])).id as number;
    }
    for (const name of Object.keys(record)) {
      if (model.schema.properties[name].$ref === "defs#/definitions/account")
        record[name] = `${record[name] as string}_${++this.counter}`;
    }
    return record;
  }

  private async nestedRelations(
    node: JsonSchemaNode,
    value: unknown,
    owner: Owner,
    resolving: string[],
  ): Promise<unknown> {
    const resolved = resolveNode(node);
    const target = resolved["x-relation"]?.entity;
    if (target && typeof value === "number") return this.relatedId(target, owner, resolving);
    if (Array.isArray(value) && resolved.items) {
      const out: unknown[] = [];
      for (const item of value) out.push(await this.nestedRelations(resolved.items, item, owner, resolving));
      return out;
    }
    if (value && typeof value === "object" && resolved.properties) {
      const out: Row = {};
      for (const [key, child] of Object.entries(value as Row))
        out[key] = resolved.properties[key]
          ? await this.nestedRelations(resolved.properties[key], child, owner, resolving)
          : child;
      return out;
    }
    return value;
  }

  /** The id of one record of the entity the owner may see, created once and reused. */
  relatedId(entity: string, owner: Owner, resolving: string[] = []): Promise<number> {
    const model = modelOf(entity);
    const key = `${entity}@${model.scoped ? owner : "admin"}`;
    if (!this.related.has(key)) {
      this.related.set(
        key,
        this.createRecord(entity, model.scoped ? owner : "admin", {}, resolving).then((row) => row.id as number),
      );
    }
    return this.related.get(key)!;
  }

  /**
   * Creates a record owned by the owner: through the API when the entity has an add call the owner may use,
   * otherwise directly in SQL (with the owner's agent_id and agent_path on scoped tables).
   * Answers the record as the API shows it.
   */
  /** manager_a: agent_a's outlet manager (agent_a's password) for these outlets of agent_a's. */
  async outletManager(shopIds: number[]): Promise<void> {
    await this.t.db.query(
      `insert into "shop_manager" (nickname, account, password, shop_ids, agent_id, agent_path)
       select 'Manager A', 'manager_a', password, $1::jsonb, id, agent_path from "agent" where account = 'agent_a'`,
      [JSON.stringify(shopIds)],
    );
  }

  async createRecord(entity: string, owner: Owner, overrides: Row = {}, resolving: string[] = []): Promise<Row> {
    const model = modelOf(entity);
    if (entity === "withdrawal") return this.createWithdrawal(owner, overrides);
    if (has(model, "add") && (await this.may(owner, permissionOfCall(entity, "add")))) {
      const body = { ...(await this.makeRecord(entity, owner, "api", resolving)), ...overrides };
      const reply = await (await this.client(owner)).post<Row>(urlOf(model, "add"), body);
      if (reply.status !== 200) throw new Error(`${entity} add as ${owner}: ${reply.status} ${reply.raw}`);
      return reply.body.data;
    }
    return this.insertRecord(entity, owner, overrides, resolving);
  }

  /**
   * A withdrawal as the money area makes one (its amount moved from the owner's balance to pending, as
   * the refuse and confirm transitions expect): the owner is first credited the amount through the ledger.
   */
  async createWithdrawal(owner: Owner, overrides: Row = {}): Promise<Row> {
    const body = { ...(await this.makeRecord("withdrawal", owner, "api")), ...overrides } as Row;
    const amount = Number(body.amount);
    const { id } = await this.owner(owner);
    await this.t.db.transaction((tx) =>
      postLedger(tx, [{ agentId: id, kind: "order_income", amount, balance: amount, revenue: amount }]),
    );
    const apply = Object.fromEntries(
      Object.entries(body).filter(([k]) => k in operationSchemas["data-withdraw-apply"].properties),
    );
    // An agent whose role may not apply (the narrow viewer role) gets its request as the money area makes it.
    if (!(await this.may(owner, "withdrawal.apply"))) {
      const { path } = await this.owner(owner);
      const row = await this.t.db.transaction((tx) =>
        requestWithdrawal(tx, { id, path }, apply as unknown as WithdrawalRequest),
      );
      return toApi(modelOf("withdrawal"), row);
    }
    const reply = await (await this.client(owner)).post<Row>("/merchant/data-withdraw-apply", apply);
    if (reply.status !== 200) throw new Error(`withdrawal apply as ${owner}: ${reply.status} ${reply.raw}`);
    return reply.body.data;
  }

  /** Inserts a record directly in SQL, owned by the owner when the table is scoped. */
  async insertRecord(entity: string, owner: Owner, overrides: Row = {}, resolving: string[] = []): Promise<Row> {
    const model = modelOf(entity);
    const values = { ...(await this.makeRecord(entity, owner, "sql", resolving)), ...overrides };
    const { id, path } = await this.owner(owner);
    if (model.scoped) Object.assign(values, { agent_id: id, agent_path: path });
    // A user's own row (a saved view): the owner agent's, as the server writes it.
    if (model.owned) Object.assign(values, { owner_kind: "agent", owner_id: id });
    // History keeps the title of what it names as it is now (x-relation.titleCopy), as the server writes it.
    for (const field of model.fields.values()) {
      const relation = field.node["x-relation"];
      const copy = relation?.titleCopy;
      if (!copy || copy in overrides || typeof values[field.name] !== "number") continue;
      const target = modelOf(relation.entity);
      const { rows } = await this.t.db.query<{ title: unknown }>(
        `select "${target.titleField!}" as title from "${target.table}" where id = $1`,
        [values[field.name]],
      );
      values[copy] = rows[0]?.title ?? null;
    }
    let row = await repo.insert(this.t.db, model, values);
    if (entity === "agent") {
      // An agent's own row carries its place in the tree, below its superior's path.
      const own = `${path}${row.id as number}/`;
      row = (
        await this.t.db.query<Row>(`update "agent" set agent_path = $1, agent_id = $2 where id = $2 returning *`, [
          own,
          row.id,
        ])
      ).rows[0];
    }
    return toApi(model, row);
  }

  /** The stored row, exactly as in the database (for "unchanged" checks). */
  /** `n` copies of a record, made by SQL in one statement (a list past the counting cap). */
  async copies(entity: string, id: unknown, n: number): Promise<void> {
    const table = modelOf(entity).table;
    const { rows } = await this.t.db.query<{ name: string }>(
      `select column_name as name from information_schema.columns
        where table_name = $1 and table_schema = current_schema() and column_name <> 'id'`,
      [table],
    );
    const list = rows.map((c) => `"${c.name}"`).join(", ");
    await this.t.db.query(
      `insert into "${table}" (${list}) select ${list} from "${table}" cross join generate_series(1, $1) where id = $2`,
      [n, id],
    );
  }

  async row(entity: string, id: unknown): Promise<Row | undefined> {
    const model = modelOf(entity);
    return (await this.t.db.query<Row>(`select * from "${model.table}" where id = $1`, [id])).rows[0];
  }

  async count(entity: string): Promise<number> {
    const model = modelOf(entity);
    return (await this.t.db.query<{ n: number }>(`select count(*)::int as n from "${model.table}"`)).rows[0].n;
  }

  async setColumn(entity: string, id: unknown, column: string, value: unknown): Promise<void> {
    const model = modelOf(entity);
    const json = model.fields.get(column)?.kind === "json" && value !== null ? JSON.stringify(value) : value;
    await this.t.db.query(`update "${model.table}" set "${column}" = $1 where id = $2`, [json, id]);
  }

  /** The record as the caller reads it: from detail when the entity has one, else from its list. */
  async read(entity: string, account: Owner | "operator_a", id: unknown): Promise<Row | undefined> {
    const model = modelOf(entity);
    const client = await this.client(account);
    if (has(model, "detail")) {
      const reply = await client.get<Row>(`${urlOf(model, "detail")}?id=${id}`);
      return reply.status === 200 ? reply.body.data : undefined;
    }
    const reply = await client.get<ListData>(`${urlOf(model, "list")}?id=${id}`);
    return reply.body.data?.list?.[0];
  }

  /** Ids in the caller's list (or recycle list) among the given ones. */
  async listed(entity: string, account: Owner | "operator_a", ids: unknown[], recycled = false): Promise<unknown[]> {
    const model = modelOf(entity);
    const reply = await (
      await this.client(account)
    ).get<ListData>(`${urlOf(model, recycled ? "recycleList" : "list")}?id=${ids.join(",")}`);
    if (reply.status !== 200) throw new Error(`${entity} list as ${account}: ${reply.status} ${reply.raw}`);
    return reply.body.data.list.map((r) => r.id);
  }
}

// Refine's data provider over the /merchant contract (DESIGN §4). The resource is the entity name;
// `meta.call` names another call of the same entity (recycle list, goods-down, destroy, ...).
//
//   getList    GET    <list>?page&limit&sort&order&<filters>   sort=a,b&order=desc,asc for several keys;
//                                                              filters: eq → f, contains → f_like,
//                                                              gte/lte → f_gte/f_lte, in → f=a,b
//   getMany    GET    <list>?id=1,2,3
//   getOne     GET    <detail>?id=7             singletons: GET <get>; no detail call: <list>?id=7
//   create     POST   <add>     record
//   update     POST   <update>  { ...record, id }   singletons: POST <set>
//   deleteOne  DELETE <delete>?id=7            meta.call: "destroy" for the recycle bin
//   deleteMany DELETE <delete>?id=1,2,3
//   custom     any call: url = call name, method, query, payload
import type { BaseRecord, CrudFilter, CrudSort, DataProvider } from "@refinedev/core";
import type { CallKind, XEntity } from "../../schema/types.ts";
import i18n from "i18next";
import { api, ApiError, download, type Query } from "../api.ts";

type Calls = Record<string, { calls: XEntity["calls"]; base: string }>;
let registry: Promise<Calls> | undefined;

/** Every entity's calls, loaded with the schemas on the first data call (not on the login page). */
function callsOf(): Promise<Calls> {
  registry ??= import("../../generated/schemas.ts").then(({ entitySchemas }) =>
    Object.fromEntries(
      Object.entries(entitySchemas).map(([name, schema]) => [
        name,
        { calls: schema["x-entity"].calls, base: schema["x-entity"].basePath ?? "/merchant" },
      ]),
    ),
  );
  return registry;
}

/** The call for an operation: meta.call as a call kind ("recycleList") or a call name ("goods-down"). */
async function resolve(resource: string, kinds: CallKind[], override?: unknown) {
  const entity = (await callsOf())[resource];
  if (!entity) throw new Error(`unknown resource ${resource}`);
  if (typeof override === "string") {
    const byKind = entity.calls[override as CallKind];
    return { call: byKind ?? override, base: entity.base, kind: byKind ? (override as CallKind) : undefined };
  }
  for (const kind of kinds) {
    const call = entity.calls[kind];
    if (call) return { call, base: entity.base, kind };
  }
  throw new Error(`${resource} has no ${kinds.join("/")} call`);
}

const SUFFIX: Partial<Record<string, string>> = { eq: "", in: "", contains: "_like", gte: "_gte", lte: "_lte" };

export function listQuery(filters: CrudFilter[] = [], sorters: CrudSort[] = []): Query {
  const query: Query = {};
  for (const filter of filters) {
    if (!("field" in filter)) continue;
    const suffix = SUFFIX[filter.operator];
    if (suffix === undefined) throw new Error(`filter operator ${filter.operator} is not supported`);
    const empty = filter.value === undefined || filter.value === null || filter.value === "";
    if (empty || (Array.isArray(filter.value) && filter.value.length === 0)) continue;
    query[`${filter.field}${suffix}`] = filter.value;
  }
  if (sorters.length)
    Object.assign(query, { sort: sorters.map((s) => s.field).join(","), order: sorters.map((s) => s.order).join(",") });
  return query;
}

/** Downloads a list's export (the entity's export call) as the list is filtered and sorted on screen. */
export const downloadList = (call: string, filters: CrudFilter[], sorters: CrudSort[]): Promise<void> =>
  download(call, listQuery(filters, sorters));

interface ListAnswer<T> {
  list: T[];
  total: number;
  total_exact?: boolean;
  /** Titles of the records the rows point at (target entity → id → title). */
  titles?: Record<string, Record<number, string>>;
}

export const dataProvider: DataProvider = {
  getApiUrl: () => "/merchant",

  async getList({ resource, pagination, sorters, filters, meta }) {
    const { call, base } = await resolve(resource, ["list"], meta?.call);
    const page =
      pagination?.mode === "off" ? {} : { page: pagination?.currentPage ?? 1, limit: pagination?.pageSize ?? 10 };
    const count = meta?.count === "exact" ? { count: "exact" } : {};
    const answer = await api<ListAnswer<never>>(call, {
      base,
      query: { ...page, ...count, ...listQuery(filters, sorters) },
    });
    return {
      data: answer.list,
      total: answer.total,
      totalExact: answer.total_exact !== false,
      titles: answer.titles,
    };
  },

  async getMany({ resource, ids, meta }) {
    const { call, base } = await resolve(resource, ["list"], meta?.call);
    const answer = await api<ListAnswer<never>>(call, { base, query: { id: ids.map(String), limit: ids.length } });
    return { data: answer.list };
  },

  async getOne({ resource, id, meta }) {
    const { call, base, kind } = await resolve(resource, ["detail", "get", "list"], meta?.call);
    if (kind !== "list") return { data: await api(call, { base, query: kind === "get" ? {} : { id } }) };
    // Entities without a detail call (categories, specs, ...): the list answers one id as well.
    const answer = await api<ListAnswer<never>>(call, { base, query: { id, limit: 1 } });
    if (!answer.list[0]) throw new ApiError(404, i18n.t("errors:notFound"));
    return { data: answer.list[0] };
  },

  async create({ resource, variables, meta }) {
    const { call, base } = await resolve(resource, ["add"], meta?.call);
    return { data: await api(call, { base, method: "POST", body: variables }) };
  },

  async update({ resource, id, variables, meta }) {
    const { call, base, kind } = await resolve(resource, ["update", "set"], meta?.call);
    const body = kind === "set" ? variables : { ...(variables as object), id: Number(id) };
    return { data: await api(call, { base, method: "POST", body }) };
  },

  async deleteOne({ resource, id, meta }) {
    const { call, base } = await resolve(resource, ["delete"], meta?.call);
    return { data: await api(call, { base, method: "DELETE", query: { id } }) };
  },

  async deleteMany({ resource, ids, meta }) {
    const { call, base } = await resolve(resource, ["delete"], meta?.call);
    await api(call, { base, method: "DELETE", query: { id: ids.map(String) } });
    return { data: [] };
  },

  async custom<T extends BaseRecord>({
    url,
    method,
    query,
    payload,
    meta,
  }: Parameters<NonNullable<DataProvider["custom"]>>[0]) {
    const base = typeof meta?.base === "string" ? meta.base : "/merchant";
    const data = await api<T>(url, {
      base,
      method: method.toUpperCase() as "GET" | "POST" | "DELETE",
      query: query as Query | undefined,
      body: payload,
    });
    return { data };
  },
};

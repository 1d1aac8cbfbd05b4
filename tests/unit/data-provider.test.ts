// @vitest-environment jsdom
// src/app/providers/data-provider.ts: Refine's calls mapped onto the /merchant API, checked on the
// requests a stubbed fetch receives.
import type { CrudFilter } from "@refinedev/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/app/api.ts";
import { dataProvider, listQuery } from "../../src/app/providers/data-provider.ts";
import { clearSession } from "../../src/app/session.ts";
import { setupI18n, signIn } from "./dom-setup.ts";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

let sent: Sent[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { code: 200, message: "ok", data: {} } };

function stubFetch() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({
        url,
        method: init.method ?? "GET",
        headers: init.headers as Record<string, string>,
        body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      });
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
}

const ok = (data: unknown) => (answer = { status: 200, body: { code: 200, message: "ok", data } });
const last = () => sent[sent.length - 1];
/** The path and the decoded query of the last request. */
const lastUrl = () => {
  const url = new URL(last().url, "http://console");
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
};

beforeAll(async () => {
  await setupI18n(["common"]);
});

beforeEach(() => {
  signIn();
  sent = [];
  ok({});
  stubFetch();
});

afterAll(() => clearSession());

describe("listQuery", () => {
  it("maps each operator to the API's filter names", () => {
    const filters: CrudFilter[] = [
      { field: "shop_id", operator: "eq", value: 3 },
      { field: "title", operator: "contains", value: "Cola" },
      { field: "unit_price", operator: "gte", value: 150 },
      { field: "unit_price", operator: "lte", value: 325 },
      { field: "pay_status", operator: "in", value: ["paid", "refund_requested"] },
    ];
    expect(listQuery(filters, [{ field: "order_time", order: "desc" }])).toEqual({
      shop_id: 3,
      title_like: "Cola",
      unit_price_gte: 150,
      unit_price_lte: 325,
      pay_status: ["paid", "refund_requested"],
      sort: "order_time",
      order: "desc",
    });
  });

  it("skips empty values and empty lists", () => {
    expect(
      listQuery([
        { field: "a", operator: "eq", value: "" },
        { field: "b", operator: "eq", value: null },
        { field: "c", operator: "eq", value: undefined },
        { field: "d", operator: "in", value: [] },
        { field: "e", operator: "eq", value: 0 },
      ]),
    ).toEqual({ e: 0 });
  });

  it("sends several sorters as comma lists, in order, and refuses operators the API lacks", () => {
    expect(
      listQuery(
        [],
        [
          { field: "status", order: "desc" },
          { field: "request_time", order: "asc" },
        ],
      ),
    ).toEqual({ sort: "status,request_time", order: "desc,asc" });
    expect(listQuery([], [{ field: "id", order: "asc" }])).toEqual({ sort: "id", order: "asc" });
    expect(() => listQuery([{ field: "a", operator: "ne", value: 1 }])).toThrow(/ne/);
  });
});

describe("dataProvider", () => {
  it("getList calls the list with page, limit, filters and sort, and answers total", async () => {
    ok({ list: [{ id: 1 }, { id: 2 }], total: 42, total_exact: true, page: 2, limit: 20 });
    const result = await dataProvider.getList({
      resource: "goods",
      pagination: { currentPage: 2, pageSize: 20 },
      filters: [
        { field: "title", operator: "contains", value: "Cola" },
        { field: "unit_price", operator: "gte", value: 150 },
        { field: "cate_id", operator: "in", value: [1, 2] },
      ],
      sorters: [{ field: "unit_price", order: "asc" }],
    });
    expect(lastUrl()).toEqual({
      path: "/merchant/goods-list",
      query: {
        page: "2",
        limit: "20",
        title_like: "Cola",
        unit_price_gte: "150",
        cate_id: "1,2",
        sort: "unit_price",
        order: "asc",
      },
    });
    expect(last().method).toBe("GET");
    expect(result).toEqual({ data: [{ id: 1 }, { id: 2 }], total: 42, totalExact: true });
  });

  it("getList reports an estimated total", async () => {
    ok({ list: [], total: 1_000_000, total_exact: false });
    const result = await dataProvider.getList({ resource: "order" });
    expect(lastUrl()).toEqual({ path: "/merchant/order-list", query: { page: "1", limit: "10" } });
    expect(result).toMatchObject({ total: 1_000_000, totalExact: false });
  });

  it("getList with meta.call recycleList calls the recycle bin's list", async () => {
    ok({ list: [], total: 0 });
    await dataProvider.getList({ resource: "goods", meta: { call: "recycleList" } });
    expect(lastUrl().path).toBe("/merchant/goods-recycle-list");
  });

  it("getList with meta.call naming a call uses that call", async () => {
    ok({ list: [], total: 0 });
    await dataProvider.getList({ resource: "goods", meta: { call: "goods-down" } });
    expect(lastUrl().path).toBe("/merchant/goods-down");
  });

  it("getOne calls detail with the id", async () => {
    ok({ id: 7, title: "Cola" });
    const result = await dataProvider.getOne({ resource: "goods", id: 7 });
    expect(lastUrl()).toEqual({ path: "/merchant/goods-detail", query: { id: "7" } });
    expect(result.data).toEqual({ id: 7, title: "Cola" });
  });

  it("getOne of a singleton calls its get without an id", async () => {
    ok({ site_name: "Mekong" });
    await dataProvider.getOne({ resource: "system_setting", id: 1 });
    expect(lastUrl()).toEqual({ path: "/merchant/setting-detail", query: {} });
  });

  it("getMany asks the list for the ids", async () => {
    ok({ list: [{ id: 1 }, { id: 3 }], total: 2 });
    const result = await dataProvider.getMany!({ resource: "goods", ids: [1, 3] });
    expect(lastUrl()).toEqual({ path: "/merchant/goods-list", query: { id: "1,3", limit: "2" } });
    expect(result.data).toHaveLength(2);
  });

  it("create posts the record to add", async () => {
    ok({ id: 9 });
    const result = await dataProvider.create({ resource: "goods", variables: { title: "Cola", unit_price: 350 } });
    expect(lastUrl().path).toBe("/merchant/goods-add");
    expect(last().method).toBe("POST");
    expect(last().body).toEqual({ title: "Cola", unit_price: 350 });
    expect(result.data).toEqual({ id: 9 });
  });

  it("update posts the record with its numeric id", async () => {
    await dataProvider.update({ resource: "goods", id: "7", variables: { title: "Cola", version: 3 } });
    expect(lastUrl().path).toBe("/merchant/goods-update");
    expect(last().method).toBe("POST");
    expect(last().body).toEqual({ title: "Cola", version: 3, id: 7 });
  });

  it("update of a singleton posts to its set without an id", async () => {
    await dataProvider.update({ resource: "system_setting", id: 1, variables: { site_name: "Mekong" } });
    expect(lastUrl().path).toBe("/merchant/setting-update");
    expect(last().method).toBe("POST");
    expect(last().body).toEqual({ site_name: "Mekong" });
  });

  it("deleteOne and deleteMany send DELETE with the ids", async () => {
    await dataProvider.deleteOne({ resource: "goods", id: 7 });
    expect(lastUrl()).toEqual({ path: "/merchant/goods-delete", query: { id: "7" } });
    expect(last().method).toBe("DELETE");
    const result = await dataProvider.deleteMany!({ resource: "goods", ids: [1, 2, 3] });
    expect(lastUrl()).toEqual({ path: "/merchant/goods-delete", query: { id: "1,2,3" } });
    expect(last().method).toBe("DELETE");
    expect(result.data).toEqual([]);
  });

  it("deleteMany with meta.call destroy empties the recycle bin", async () => {
    await dataProvider.deleteMany!({ resource: "goods", ids: [4, 5], meta: { call: "destroy" } });
    expect(lastUrl()).toEqual({ path: "/merchant/goods-recycle-destroy", query: { id: "4,5" } });
    expect(last().method).toBe("DELETE");
  });

  it("custom calls any call by name, with method, query and payload", async () => {
    ok({ done: true });
    const result = await dataProvider.custom!({
      url: "order-refund",
      method: "post",
      payload: { id: 5, refund_money: 100 },
    });
    expect(lastUrl().path).toBe("/merchant/order-refund");
    expect(last().method).toBe("POST");
    expect(last().body).toEqual({ id: 5, refund_money: 100 });
    expect(result.data).toEqual({ done: true });

    await dataProvider.custom!({ url: "version-list", method: "get", query: { page: 1 }, meta: { base: "/admin" } });
    expect(lastUrl()).toEqual({ path: "/admin/version-list", query: { page: "1" } });
    expect(last().method).toBe("GET");
    expect(last().body).toBeUndefined();
  });

  it("uses the entity's own base path", async () => {
    ok({ list: [], total: 0 });
    await dataProvider.getList({ resource: "version" });
    expect(lastUrl().path).toMatch(/^\/admin\//);
  });

  it("refuses an unknown resource", async () => {
    await expect(dataProvider.getList({ resource: "nope" })).rejects.toThrow(/unknown resource nope/);
    expect(sent).toHaveLength(0);
  });

  it("turns a 400 into an ApiError with the server's field errors", async () => {
    const errors = [{ field: "packages/0/fee", keyword: "minimum", message: "Fee must be at least 0" }];
    answer = { status: 400, body: { code: 400, message: "Check the fields", data: { errors } } };
    const failure = await dataProvider
      .create({ resource: "car_wash_plan", variables: { name: "x" } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ statusCode: 400, message: "Check the fields", fieldErrors: errors });
  });

  it("turns an envelope's error code into an ApiError", async () => {
    answer = { status: 200, body: { code: 409, message: "Stale version", data: null } };
    await expect(dataProvider.update({ resource: "goods", id: 1, variables: {} })).rejects.toMatchObject({
      statusCode: 409,
      message: "Stale version",
      fieldErrors: [],
    });
  });

  it("turns a network failure into a translated ApiError with status 0", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(dataProvider.getOne({ resource: "goods", id: 1 })).rejects.toMatchObject({
      statusCode: 0,
      message: "The server could not be reached",
    });
  });
});

describe("headers", () => {
  it("carry the language, the source and the signed-in token", async () => {
    signIn([], "secret-token");
    await dataProvider.getOne({ resource: "goods", id: 1 });
    expect(last().headers).toMatchObject({
      Locale: "en",
      Source: "pc",
      Authorization: "Bearer secret-token",
      "Content-Type": "application/json",
    });
  });

  it("follow the chosen language", async () => {
    const i18n = await setupI18n(["common"]);
    await i18n.changeLanguage("zh");
    try {
      await dataProvider.getOne({ resource: "goods", id: 1 });
      expect(last().headers.Locale).toBe("zh");
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("without a session, public calls go out without Authorization and others are refused unsent", async () => {
    clearSession();
    ok({ version: "1.0.0", digits: [1, 0, 0], latest: null, can_update: 0 });
    await dataProvider.custom!({ url: "version-check", method: "get" });
    expect(last().headers).not.toHaveProperty("Authorization");
    sent = [];
    await expect(dataProvider.getOne({ resource: "goods", id: 1 })).rejects.toMatchObject({ statusCode: 401 });
    expect(sent).toHaveLength(0);
  });
});

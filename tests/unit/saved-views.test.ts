// A saved view's state as a list takes it (src/crud/list/saved-views.ts): what it names that the list still
// has is put back in its order; a filter, the sort or a column of a field removed from the schema is left
// out and named.
import { describe, expect, it } from "vitest";
import { viewState, type StoredView } from "../../src/crud/list/saved-views.ts";

const columns = ["name", "phone", "address", "created_at", "id", "actions"].map((key) => ({ key, title: key }));
const view = (over: Partial<StoredView>): StoredView => ({
  id: 1,
  version: 1,
  name: "Mine",
  list: "shop_list",
  ...over,
});

describe("a saved view's state", () => {
  it("is put back whole when the list has all it names", () => {
    const state = viewState(
      view({
        filters: { name: [{ operator: "contains", value: "Market" }] },
        sort: { field: "created_at", order: "asc" },
        columns: [
          { key: "address", shown: true, width: 240 },
          { key: "name", shown: true },
          { key: "phone", shown: false },
        ],
        page_size: 30,
      }),
      new Set(["name", "phone"]),
      new Set(["created_at", "id"]),
      columns,
    );
    expect(state).toEqual({
      filters: [{ field: "name", operator: "contains", value: "Market" }],
      sorters: [{ field: "created_at", order: "asc" }],
      choice: {
        shown: { address: true, name: true, phone: false },
        order: ["address", "name", "phone"],
        widths: { address: 240 },
      },
      pageSize: 30,
      missing: [],
    });
  });

  it("leaves out and names a filter, the sort and a column of a field the list no longer has", () => {
    const state = viewState(
      view({
        filters: { name: [{ operator: "contains", value: "M" }], fax: [{ operator: "eq", value: "1" }] },
        sort: { field: "fax", order: "desc" },
        columns: [
          { key: "fax", shown: true },
          { key: "name", shown: true },
        ],
        page_size: 15,
      }),
      new Set(["name"]),
      new Set(["created_at"]),
      columns,
    );
    expect(state.missing).toEqual(["fax"]);
    expect(state.filters).toEqual([{ field: "name", operator: "contains", value: "M" }]);
    expect(state.sorters).toBeUndefined();
    expect(state.choice.order).toEqual(["name"]);
    expect(state.pageSize).toBe(10);
  });
});

// @vitest-environment jsdom
// src/crud/list-screen.tsx: the generated list inside Refine with the real data provider over a stubbed
// fetch: translated headers, formatted values, row actions limited by permissions, the pager's total.
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Suspense } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataProvider } from "../../src/app/providers/data-provider.ts";
import { i18nProvider } from "../../src/app/providers/i18n-provider.ts";
import { clearSession } from "../../src/app/session.ts";
import { PAGE_SIZES, ListScreen } from "../../src/crud/list-screen.tsx";
import { setCurrency } from "../../src/crud/format.ts";
import { resources } from "../../src/generated/resources.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn, viewport } from "./dom-setup.ts";

const refineResources = resources.map((r) => ({ ...r, meta: { ...r.meta, label: undefined, hide: true } }));

const GOODS = [
  {
    id: 11,
    title: "Cola 330ml",
    cate_id: 2,
    pic_url: "/uploads/goods/cola.jpg",
    unit_price: 350,
    cost_price: 180,
    down_price: 250,
    stock: 120,
    created_at: "2026-01-02T03:04:05Z",
  },
  {
    id: 12,
    title: "Green tea",
    cate_id: 3,
    pic_url: "/uploads/goods/tea.jpg",
    unit_price: 12345,
    cost_price: 100,
    down_price: 200,
    stock: 0,
    created_at: "2026-01-03T03:04:05Z",
  },
];

const NOTICES = [
  { id: 21, title: "Closed on Sunday", status: 0, sort: 1, version: 4 },
  { id: 22, title: "New drinks", status: 1, sort: 2, version: 1 },
];

const ORDERS = [
  {
    id: 31,
    order_no: "202611210930120001",
    order_time: "2026-11-21T09:30:12Z",
    pay_status: "paid",
    money: 350,
    refund_money: 0,
    refundable_money: 350,
    is_drop: 0,
    use_status: "none",
    version: 2,
  },
];

const WITHDRAWALS = [
  {
    id: 41,
    agent_id: 5,
    legal_name: "Kim Sophal",
    amount: 82900,
    fee: 500,
    final_amount: 82400,
    payout_method: "bank_transfer",
    account_number: "0012 3456 789",
    status: "pending",
    request_time: "2026-11-21T09:30:12Z",
    version: 3,
  },
];

const MACHINES = [
  { id: 51, mac_name: "VM-PP-0012", mac_id: "860000000012", kind: "vending", agent_id: 5, version: 2 },
  { id: 52, mac_name: "VM-PP-0013", mac_id: "860000000013", kind: "vending", agent_id: 7, version: 1 },
];

const AGENTS = [
  { id: 5, title: "Agent A" },
  { id: 6, title: "Agent B" },
  { id: 7, title: "Agent C" },
];

let requests: { url: URL; method: string; body: unknown }[] = [];
let listAnswer: Record<string, unknown> = {};
/** The goods list's answer by page, when a test says. */
let answerPage: ((page: string | null) => Record<string, unknown>) | undefined;
/** How the next calls fail: a status the server answers with, or no connection at all. */
let failWith: number | "offline" | undefined;

/** The stubbed API: each call's answer by path. */
function answerTo(path: string, url: URL): unknown {
  switch (path) {
    case "/merchant/data-withdraw-list":
      return { list: WITHDRAWALS, total: 1 };
    case "/merchant/data-withdraw-action":
      return { ...WITHDRAWALS[0], status: "approved", version: 4 };
    case "/merchant/machine-list":
      return { list: MACHINES, total: 2, titles: { agent: { 5: "Agent A", 7: "Agent C" } } };
    case "/merchant/manage-all": {
      const ids = url.searchParams.get("id")?.split(",").map(Number);
      return ids ? AGENTS.filter((a) => ids.includes(a.id)) : AGENTS;
    }
    case "/merchant/goods-list":
    case "/merchant/goods-recycle-list":
      // The server's answer to "Count exactly": every row counted.
      return url.searchParams.get("count") === "exact"
        ? { ...listAnswer, total: 12_345, total_exact: true }
        : (answerPage?.(url.searchParams.get("page")) ?? listAnswer);
    case "/merchant/goods-cate-all":
      return [
        { id: 2, title: "Drinks" },
        { id: 3, title: "Tea" },
      ];
    case "/merchant/notice-list-list":
      return { list: NOTICES, total: 2 };
    case "/merchant/order-list":
      return { list: ORDERS, total: 1 };
    default:
      return null;
  }
}

function stubApi() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, "http://console");
      requests.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (failWith === "offline") throw new TypeError("Failed to fetch");
      if (failWith)
        return new Response(JSON.stringify({ code: failWith, message: "Internal error", data: null }), {
          status: failWith,
        });
      return new Response(JSON.stringify({ code: 200, message: "ok", data: answerTo(url.pathname, url) }));
    }),
  );
}

const calls = (path: string) => requests.filter((r) => r.url.pathname === path);

function renderList(path = "/goods/list") {
  return render(
    <AntdRoot>
      <MemoryRouter initialEntries={[path]}>
        <Refine
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          i18nProvider={i18nProvider}
          resources={refineResources}
          options={{
            syncWithLocation: true,
            disableTelemetry: true,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <Suspense fallback={<p>loading</p>}>
            <Routes>
              <Route path="/goods/list" element={<ListScreen resource="goods_list" />} />
              <Route path="/goods/recoveryList" element={<ListScreen resource="goods_recycle" />} />
              <Route path="/setting/noticeList" element={<ListScreen resource="setting_notice_list" />} />
              <Route path="/order/applicationList" element={<ListScreen resource="order_application_list" />} />
              <Route path="/data/withdrawalReview" element={<ListScreen resource="data_withdrawal_review" />} />
              <Route path="/machine/list" element={<ListScreen resource="machine_list" />} />
            </Routes>
          </Suspense>
        </Refine>
      </MemoryRouter>
    </AntdRoot>,
  );
}

/** The data rows of the table (not its header or the measure row). */
const rows = () => screen.getAllByRole("row").filter((row) => row.getAttribute("data-row-key"));

/** What a row's "More" menu offers, in order (the menu opened by a click, as a user does). */
async function moreOf(user: ReturnType<typeof userEvent.setup>, row: HTMLElement): Promise<string[]> {
  await user.click(within(row).getByRole("button", { name: "More" }));
  const menu = await screen.findByRole("menu");
  return within(menu)
    .getAllByRole("menuitem")
    .map((item) => item.textContent ?? "");
}

beforeAll(async () => {
  await setupI18n(["common", "defs", "validation", "permissions", "goods", "goods_category"]);
});

beforeEach(() => {
  requests = [];
  listAnswer = { list: GOODS, total: 42, total_exact: true, page: 1, limit: 10 };
  answerPage = undefined;
  failWith = undefined;
  viewport.width = 1440;
  stubApi();
});

afterEach(() => setCurrency(undefined));

afterAll(() => clearSession());

describe("PAGE_SIZES", () => {
  it("offers the page sizes of SPEC §2", () => {
    expect(PAGE_SIZES).toEqual([10, 20, 30, 40]);
  });
});

describe("ListScreen", () => {
  it("shows the columns' translated headers and formatted values", async () => {
    signIn(["goods.list", "goods_category.all"]);
    renderList();
    await screen.findByText("Cola 330ml");
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    for (const title of ["Title", "Category", "Main image", "Retail price", "Cost price", "Stock", "Created at"]) {
      expect(headers).toContain(title);
    }
    // A column of priority 3 shows only from 1600 px wide; the test's screen is 1440. The record's number
    // waits to be asked for.
    expect(headers).not.toContain("Wholesale price");
    expect(headers).not.toContain("ID");
    const [cola, tea] = rows();
    expect(within(cola).getByText("3.50")).toBeTruthy();
    expect(within(tea).getByText("123.45")).toBeTruthy();
    // Related records by their titles, fetched in one call.
    expect(await within(cola).findByText("Drinks")).toBeTruthy();
    expect(within(tea).getByText("Tea")).toBeTruthy();
    expect(calls("/merchant/goods-cate-all").map((r) => r.url.searchParams.get("id"))).toContain("2,3");
  });

  it("names related records from the titles the list answer carries, with no call of their own", async () => {
    signIn(["goods.list"]); // no goods_category.all: the answer's titles are all there is
    listAnswer = { ...listAnswer, titles: { goods_category: { 2: "Cold drinks", 3: "Hot tea" } } };
    renderList();
    const [cola, tea] = await waitFor(() => {
      const found = rows();
      expect(found).toHaveLength(2);
      return found;
    });
    expect(await within(cola).findByText("Cold drinks")).toBeTruthy();
    expect(within(tea).getByText("Hot tea")).toBeTruthy();
    expect(calls("/merchant/goods-cate-all")).toHaveLength(0);
  });

  it("on a phone shows each row as a card with its key fields and actions, and no table", async () => {
    viewport.width = 390;
    signIn(["order.list", "order.refund", "order.detail"]);
    const { container } = renderList("/order/applicationList");
    const card = (await screen.findByText("202611210930120001")).closest(".row-card") as HTMLElement;
    expect(card).toBeTruthy();
    expect(container.querySelector(".ant-table")).toBeNull();
    const labels = [...card.querySelectorAll(".ant-descriptions-item-label")].map((l) => l.textContent);
    expect(labels).toEqual(["Order time", "Pay status", "Amount"]);
    expect(within(card).getByText("Paid")).toBeTruthy();
    expect(within(card).getByText("3.50")).toBeTruthy();
    // The record's id is no word for a user: the card is named by the order's number alone.
    expect(card.textContent).not.toContain("#31");
    expect(within(card).getByRole("button", { name: "Refund" })).toBeTruthy();
    // The filters: a search box for the order's number, every other filter in a sheet.
    expect(container.querySelector(".filter-bar-phone input")).toBeTruthy();
    expect(screen.getByRole("button", { name: /Filters/ })).toBeTruthy();
  });

  it("says a server error in words with a retry, and a lost connection as being offline", async () => {
    signIn(["goods.list"]);
    failWith = 500;
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList();
    expect(await screen.findByText("The server had a problem")).toBeTruthy();
    expect(screen.queryByText("No data")).toBeNull();
    failWith = "offline";
    await user.click(screen.getByRole("button", { name: /Retry/ }));
    expect(await screen.findByText("You are offline")).toBeTruthy();
    failWith = undefined;
    await user.click(screen.getByRole("button", { name: /Retry/ }));
    expect(await screen.findByText("Cola 330ml")).toBeTruthy();
    expect(screen.queryByText("You are offline")).toBeNull();
  });

  it("asks for the first page in the entity's default order and shows the total in the pager", async () => {
    signIn(["goods.list"]);
    renderList();
    expect(await screen.findByText("42 in all")).toBeTruthy();
    expect(Object.fromEntries(calls("/merchant/goods-list")[0].url.searchParams)).toEqual({
      page: "1",
      limit: "10",
      sort: "created_at",
      order: "desc",
    });
    // Page sizes of SPEC §2, ten first.
    expect(screen.getByText("10 / page")).toBeTruthy();
  });

  it("says the total is an estimate when the server does", async () => {
    listAnswer = { ...listAnswer, total: 1_000_000, total_exact: false };
    signIn(["goods.list"]);
    renderList();
    expect(await screen.findByText("About 1000000")).toBeTruthy();
  });

  it("lets the pager reach only the pages counted under an estimate, and counts exactly on a click", async () => {
    // An estimate above the rows there may be: the pager stops at the 1,001 rows the server counted.
    listAnswer = { ...listAnswer, total: 1_000_000, total_exact: false };
    signIn(["goods.list"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList();
    await screen.findByText("About 1000000");
    expect(screen.getByTitle("101")).toBeTruthy();
    expect(screen.queryByTitle("102")).toBeNull();
    expect(screen.queryByTitle("100000")).toBeNull();
    expect(screen.queryByText("1000000 in all")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Count exactly" }));
    // The exact total, every page of it, and no estimate or link any more.
    expect(await screen.findByText("12345 in all")).toBeTruthy();
    expect(calls("/merchant/goods-list").at(-1)!.url.searchParams.get("count")).toBe("exact");
    expect(screen.getByTitle("1235")).toBeTruthy();
    expect(screen.queryByText(/About/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Count exactly" })).toBeNull();
  });

  it("moves to the last page when the page asked for lies past it (rows removed since the total was counted)", async () => {
    // The server's answer to page 101 under a held estimate whose rows were removed: none, 1,000 in all.
    listAnswer = { ...listAnswer, total: 1_001, total_exact: false };
    const first = listAnswer;
    const past = { list: [], total: 1_000, total_exact: true };
    answerPage = (page) => (page === "101" ? past : first);
    signIn(["goods.list"]);
    renderList(`/goods/list?currentPage=101&pageSize=10`);
    expect(await screen.findByText("1000 in all")).toBeTruthy();
    await waitFor(() => expect(calls("/merchant/goods-list").at(-1)!.url.searchParams.get("page")).toBe("100"));
    expect(calls("/merchant/goods-list").map((c) => c.url.searchParams.get("page"))).toEqual(["101", "100"]);
  });

  it("words the estimate, its link and the exact total apart in the five languages", async () => {
    const i18n = await setupI18n(["common"]);
    for (const lng of ["en", "zh", "km", "th", "tw"]) {
      await i18n.changeLanguage(lng);
      const exact = i18n.t("common:pager.total", { total: 20000 });
      const about = i18n.t("common:pager.approx", { total: 20000 });
      const link = i18n.t("common:pager.countExactly");
      expect(new Set([exact, about, link]).size, lng).toBe(3);
      for (const words of [exact, about, link]) expect(words, lng).not.toMatch(/pager\.|\{\{/);
      expect(exact, lng).toContain("20000");
      expect(about, lng).toContain("20000");
    }
    await i18n.changeLanguage("en");
  });

  it("offers only the actions the user is permitted", async () => {
    signIn(["goods.list", "goods.detail"]);
    renderList();
    await screen.findByText("Cola 330ml");
    const [cola] = rows();
    expect(within(cola).getByRole("button", { name: "Details" })).toBeTruthy();
    expect(within(cola).queryByRole("button", { name: "Edit" })).toBeNull();
    expect(within(cola).queryByRole("button", { name: "Delete" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Add/ })).toBeNull();
    // No bulk delete, so no row selection.
    expect(within(cola).queryByRole("checkbox")).toBeNull();
  });

  it("offers edit on the row, details and delete under More, and add, to a user who may do them", async () => {
    signIn(["goods.list", "goods.detail", "goods.update", "goods.delete", "goods.add"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList();
    await screen.findByText("Cola 330ml");
    const [cola] = rows();
    expect(within(cola).getByRole("button", { name: "Edit" }).closest("a")?.getAttribute("href")).toBe(
      "/goods/list/edit/11",
    );
    expect(within(cola).queryByRole("button", { name: "Details" })).toBeNull();
    expect(await moreOf(user, cola)).toEqual(["Details", "Delete"]);
    expect(screen.getByRole("menuitem", { name: "Details" }).querySelector("a")?.getAttribute("href")).toBe(
      "/goods/list/show/11",
    );
    expect(within(cola).getByRole("checkbox")).toBeTruthy();
    expect(screen.getByRole("button", { name: /Add/ })).toBeTruthy();
  });

  it("shows the columns the user chooses, the record's number too, and keeps the choice", async () => {
    signIn(["goods.list"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const headers = () => screen.getAllByRole("columnheader").map((h) => h.textContent);
    const { unmount } = renderList();
    await screen.findByText("Cola 330ml");
    await user.click(screen.getByRole("button", { name: "Columns" }));
    const chooser = await screen.findByRole("tooltip");
    await user.click(within(chooser).getByRole("checkbox", { name: "ID" }));
    await user.click(within(chooser).getByRole("checkbox", { name: "Category" }));
    await waitFor(() => expect(headers()).toContain("ID"));
    expect(headers()).not.toContain("Category");
    expect(within(rows()[0]).getByText("11")).toBeTruthy();
    unmount();
    renderList();
    await screen.findByText("Cola 330ml");
    expect(headers()).toContain("ID");
    expect(headers()).not.toContain("Category");
    await user.click(screen.getByRole("button", { name: "Columns" }));
    await user.click(within(await screen.findByRole("tooltip")).getByRole("button", { name: "Default columns" }));
    await waitFor(() => expect(headers()).toContain("Category"));
    expect(headers()).not.toContain("ID");
  });

  it("lists the recycle bin from its own call, with restore and permanent delete", async () => {
    signIn(["goods.recycle_list", "goods.recover", "goods.destroy", "goods.detail", "goods.update"]);
    listAnswer = { list: [{ ...GOODS[0], deleted_at: "2026-02-01T00:00:00Z" }], total: 1 };
    renderList("/goods/recoveryList");
    await screen.findByText("Cola 330ml");
    expect(calls("/merchant/goods-recycle-list")).not.toHaveLength(0);
    expect(calls("/merchant/goods-list")).toHaveLength(0);
    const [cola] = rows();
    expect(within(cola).getByRole("button", { name: "Restore" })).toBeTruthy();
    // A deleted record is neither shown nor edited from the bin.
    expect(await moreOf(userEvent.setup({ delay: null, pointerEventsCheck: 0 }), cola)).toEqual(["Delete permanently"]);
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toContain("Deleted at");
  });

  it("applies the filters and page in the address, in the API's terms", async () => {
    signIn(["goods.list"]);
    const query =
      "filters[0][field]=title&filters[0][operator]=contains&filters[0][value]=Cola" +
      "&filters[1][field]=unit_price&filters[1][operator]=gte&filters[1][value]=150" +
      "&currentPage=2&pageSize=20&sorters[0][field]=unit_price&sorters[0][order]=asc";
    renderList(`/goods/list?${encodeURI(query)}`);
    await waitFor(() => expect(calls("/merchant/goods-list")).not.toHaveLength(0));
    expect(Object.fromEntries(calls("/merchant/goods-list")[0].url.searchParams)).toEqual({
      page: "2",
      limit: "20",
      title_like: "Cola",
      unit_price_gte: "150",
      sort: "unit_price",
      order: "asc",
    });
  });

  it("says what is empty: none yet without filters, none for these filters with them, and clears them", async () => {
    signIn(["goods.list"]);
    listAnswer = { list: [], total: 0, total_exact: true, page: 1, limit: 10 };
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const query = "filters[0][field]=title&filters[0][operator]=contains&filters[0][value]=Fanta";
    renderList(`/goods/list?${encodeURI(query)}`);
    expect(await screen.findByText("No goods found for these filters")).toBeTruthy();
    expect(document.querySelector(".ant-empty-description")!.textContent).toBe("No goods found for these filters");
    expect((screen.getByPlaceholderText("Title") as HTMLInputElement).value).toBe("Fanta");

    await user.click(screen.getByRole("button", { name: /Clear filters/ }));
    expect(await screen.findByText("No goods yet")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Clear filters/ })).toBeNull();
    expect((screen.getByPlaceholderText("Title") as HTMLInputElement).value).toBe("");
    expect(Object.fromEntries(calls("/merchant/goods-list").at(-1)!.url.searchParams)).toEqual({
      page: "1",
      limit: "10",
      sort: "created_at",
      order: "desc",
    });
  });

  it("lists with the filter bar's values once the user searches", async () => {
    signIn(["goods.list"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList();
    await screen.findByText("Cola 330ml");
    await user.type(screen.getByPlaceholderText("Title"), "Cola");
    await user.type(screen.getByRole("spinbutton", { name: "Retail price From" }), "1.5");
    await user.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() =>
      expect(calls("/merchant/goods-list").map((r) => r.url.searchParams.get("title_like"))).toContain("Cola"),
    );
    expect(Object.fromEntries(calls("/merchant/goods-list").at(-1)!.url.searchParams)).toMatchObject({
      title_like: "Cola",
      unit_price_gte: "150",
      page: "1",
    });
  });

  it("offers a row's state actions allowed from its state and permitted, and runs them", async () => {
    signIn(["notice.list", "notice.enable"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/setting/noticeList");
    await screen.findByText("Closed on Sunday");
    const [disabled, enabled] = rows();
    expect(within(disabled).getByRole("button", { name: "Enable" })).toBeTruthy();
    // Enabled already, and the user may not disable.
    expect(within(enabled).queryByRole("button", { name: "Enable" })).toBeNull();
    expect(within(enabled).queryByRole("button", { name: "Disable" })).toBeNull();

    await user.click(within(disabled).getByRole("button", { name: "Enable" }));
    await waitFor(() => expect(calls("/merchant/notice-list-enable")).toHaveLength(1));
    const [run] = calls("/merchant/notice-list-enable");
    expect(run.method).toBe("POST");
    expect(run.body).toEqual({ id: 21, action: "enable", version: 4 });
    expect(await screen.findByText("Enable: done for Notice “Closed on Sunday”")).toBeTruthy();
  });

  it("asks before a state action marked confirm", async () => {
    signIn(["notice.list", "notice.disable"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/setting/noticeList");
    await screen.findByText("New drinks");
    const [, enabled] = rows();
    await user.click(within(enabled).getByRole("button", { name: "Disable" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Disable Notice “New drinks”?")).toBeTruthy();
    expect(calls("/merchant/notice-list-disable")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Disable" }));
    await waitFor(() => expect(calls("/merchant/notice-list-disable")).toHaveLength(1));
    expect(calls("/merchant/notice-list-disable")[0].body).toEqual({ id: 22, action: "disable", version: 1 });
  });

  it("deletes for good, and says so, where the entity has no recycle bin", async () => {
    signIn(["notice.list", "notice.delete"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/setting/noticeList");
    await screen.findByText("New drinks");
    const [first] = rows();
    await user.click(within(first).getByRole("button", { name: "Delete permanently" }));
    const pop = await screen.findByRole("dialog");
    // The confirmation names the record and says it cannot be undone.
    expect(within(pop).getByText("Delete Notice “Closed on Sunday” for good? This cannot be undone.")).toBeTruthy();
    await user.click(within(pop).getByRole("button", { name: "Delete permanently" }));
    await waitFor(() => expect(calls("/merchant/notice-list-delete")).toHaveLength(1));
    expect(calls("/merchant/notice-list-delete")[0].url.searchParams.get("id")).toBe("21");
    expect(calls("/merchant/notice-list-delete")[0].method).toBe("DELETE");
  });

  it("asks an operation's input in a dialog, in stored units, showing the record's figures", async () => {
    signIn(["order.list", "order.refund", "order.check"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/order/applicationList");
    await screen.findByText("202611210930120001");
    const [order] = rows();
    // Paid: a refund may be made; there is no refund request to refuse.
    expect(within(order).queryByRole("button", { name: "Refuse the refund request" })).toBeNull();
    await user.click(within(order).getByRole("button", { name: "Refund" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Refundable")).toBeTruthy();
    expect(
      within(dialog).getByText(
        "Refund order 202611210930120001: 3.50 paid, 0.00 refunded so far, 3.50 can still be refunded.",
      ),
    ).toBeTruthy();
    // The form itself loads with the dialog.
    await user.click(await within(dialog).findByRole("button", { name: "Refund" }));
    expect(await within(dialog).findByText("Amount to refund is required")).toBeTruthy();
    expect(calls("/merchant/order-refund")).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Amount to refund"), "1.25");
    await user.click(within(dialog).getByRole("button", { name: "Refund" }));
    await waitFor(() => expect(calls("/merchant/order-refund")).toHaveLength(1));
    expect(calls("/merchant/order-refund")[0].body).toEqual({ id: 31, refund_money: 125 });
    // The message says what happened: how much, of which order.
    expect(await screen.findByText("Refunded 1.25 of order 202611210930120001")).toBeTruthy();
  });

  it("gives the focus to the dialog's first field as it opens", async () => {
    signIn(["order.list", "order.refund"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/order/applicationList");
    await screen.findByText("202611210930120001");
    await user.click(within(rows()[0]).getByRole("button", { name: "Refund" }));
    const dialog = await screen.findByRole("dialog");
    const amount = await within(dialog).findByLabelText("Amount to refund");
    await waitFor(() => expect(document.activeElement).toBe(amount));
  });

  it("names the amount and the person when approving a withdrawal, asking and when done", async () => {
    setCurrency("USD");
    signIn(["withdrawal.list", "withdrawal.approve"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/data/withdrawalReview");
    await screen.findByText("Kim Sophal");
    await user.click(within(rows()[0]).getByRole("button", { name: "Approve" }));
    const confirm = await screen.findByRole("dialog");
    expect(
      await within(confirm).findByText(
        "Approve the withdrawal of $829.00 to Kim Sophal (Bank transfer, 0012 3456 789)?",
      ),
    ).toBeTruthy();
    await user.click(within(confirm).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(calls("/merchant/data-withdraw-action")).toHaveLength(1));
    expect(calls("/merchant/data-withdraw-action")[0].body).toEqual({ id: 41, action: "approve", version: 3 });
    expect(await screen.findByText("Approved $829.00 to Kim Sophal")).toBeTruthy();
  });

  it("names the devices to bind, their agent and the agent chosen, and says where they went", async () => {
    signIn(["machine.list", "machine.bind", "agent.all"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/machine/list");
    await screen.findByText("VM-PP-0012");
    await user.click(within(rows()[0]).getByRole("checkbox"));
    await user.click(screen.getByRole("button", { name: "Bind to agent" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Move VM-PP-0012 from Agent A to the agent chosen below.")).toBeTruthy();
    // The agent chosen is named as soon as it is chosen.
    await user.click(await within(dialog).findByRole("combobox"));
    await user.click(await screen.findByTitle("Agent B"));
    expect(await within(dialog).findByText("Move VM-PP-0012 from Agent A to Agent B?")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Bind to agent" }));
    await waitFor(() => expect(calls("/merchant/machine-bind-manage")).toHaveLength(1));
    expect(calls("/merchant/machine-bind-manage")[0].body).toEqual({ id: [51], agent_id: 6 });
    expect(await screen.findByText("Moved VM-PP-0012 to Agent B")).toBeTruthy();
  });

  it("names several devices and their agents in the bind dialog, counted in words", async () => {
    signIn(["machine.list", "machine.bind", "agent.all"]);
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderList("/machine/list");
    await screen.findByText("VM-PP-0012");
    for (const row of rows()) await user.click(within(row).getByRole("checkbox"));
    await user.click(screen.getByRole("button", { name: "Bind to agent" }));
    const dialog = await screen.findByRole("dialog");
    expect(
      await within(dialog).findByText(
        "Move 2 devices (VM-PP-0012 and VM-PP-0013) from Agent A and Agent C to the agent chosen below.",
      ),
    ).toBeTruthy();
  });
});

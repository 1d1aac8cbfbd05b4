// @vitest-environment jsdom
// src/extensions/statistics: the device statistics and stock consumption views over a stubbed API: the
// totals and the breakdown as the answer has them, the trend's days, the period and breakdown sent as
// chosen (and kept in the address), and the breakdown as cards on a phone.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSession } from "../../src/app/session.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn, viewport } from "./dom-setup.ts";

// Canvas charts do not draw in jsdom: the chart shows what it was given to draw.
vi.mock("../../src/extensions/dashboard/chart.tsx", () => ({
  Chart: ({
    option,
    label,
  }: {
    option: { xAxis: { data: string[] }; series: { name: string; data: number[] }[] };
    label: string;
  }) => (
    <div role="img" aria-label={label}>
      {option.series.map((s) => (
        <p key={s.name} data-series={s.name}>
          {s.name}: {option.xAxis.data.map((day, i) => `${day}=${s.data[i]}`).join(" ")}
        </p>
      ))}
    </div>
  ),
}));

const { DeviceStatistics, StockStatistics } = await import("../../src/extensions/statistics/statistics-view.tsx");

const DEVICES = {
  from: "2026-11-26",
  to: "2026-11-28",
  today: "2026-11-28",
  totals: { takings: 145000, orders: 4, devices: 3, active_devices: 2 },
  trend: [
    { day: "2026-11-26", takings: 0, orders: 0 },
    { day: "2026-11-27", takings: 30000, orders: 1 },
    { day: "2026-11-28", takings: 115000, orders: 3 },
  ],
  breakdown: {
    total: 3,
    list: [
      { id: 7, name: "VA-1", outlet: "Riverside", devices: 1, takings: 125000, orders: 3 },
      { id: 9, name: "VA1-1", outlet: "Market Hall", devices: 1, takings: 20000, orders: 1 },
      { id: 8, name: "VA-2", outlet: null, devices: 1, takings: 0, orders: 0 },
    ],
  },
};
const BY_GOODS = {
  total: 2,
  list: [
    { id: 31, name: "Cola", devices: 1, takings: 125000, sold: 4 },
    { id: 32, name: "Water", devices: 1, takings: 20000, sold: 1 },
  ],
};
const STOCK = {
  from: "2026-11-28",
  to: "2026-11-28",
  today: "2026-11-28",
  totals: { sold: 4, takings: 115000, restocked: 5, goods: 2, devices: 2 },
  trend: [{ day: "2026-11-28", sold: 4, takings: 115000, restocked: 5 }],
  breakdown: { total: 1, list: [{ id: 31, name: "Cola", devices: 1, sold: 3, takings: 95000, restocked: 5 }] },
};

let requests: URL[] = [];
function stubApi() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(input, "http://console");
      requests.push(url);
      const data =
        url.pathname === "/merchant/statistics-stock"
          ? STOCK
          : url.searchParams.get("by") === "goods"
            ? { ...DEVICES, breakdown: BY_GOODS }
            : DEVICES;
      return new Response(JSON.stringify({ code: 200, message: "ok", data }));
    }),
  );
}

let address = "";
function Address() {
  const location = useLocation();
  address = location.pathname + location.search;
  return null;
}

function renderView(view: "devices" | "stock", path = "/machine/statistics") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntdRoot>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Address />
          {view === "devices" ? <DeviceStatistics /> : <StockStatistics />}
        </MemoryRouter>
      </QueryClientProvider>
    </AntdRoot>,
  );
}

/** A total's card by its figure: its title and value as one text. */
const total = (figure: string) =>
  document.querySelector(`.statistics-total[data-figure=${figure}]`)?.textContent?.replace(/\s+/g, " ").trim();
const rows = () => screen.getAllByRole("row").filter((row) => row.getAttribute("data-row-key"));
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);
const last = () => requests.at(-1)!.searchParams;

beforeAll(async () => {
  await setupI18n(["common", "statistics", "machine", "stock_consumption"]);
});
beforeEach(() => {
  requests = [];
  viewport.width = 1440;
  signIn(["machine.list", "stock_consumption.list"]);
  stubApi();
});
afterAll(() => clearSession());

describe("device statistics", () => {
  it("shows the period's totals, each day and the breakdown by device", async () => {
    renderView("devices");
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(total("takings")).toBe("Turnover1,450.00");
    expect(total("orders")).toBe("Paid orders4");
    expect(total("average")).toBe("Average per order362.50");
    expect(total("active_devices")).toBe("Devices with sales2of 3 devices");
    expect(screen.getByText("Business days · today is 2026-11-28")).toBeTruthy();
    const trend = screen.getByRole("img", { name: "Trend" });
    expect(within(trend).getByText("Turnover: 11-26=0 11-27=30000 11-28=115000")).toBeTruthy();
    expect(within(trend).getByText("Paid orders: 11-26=0 11-27=1 11-28=3")).toBeTruthy();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Device",
      "Outlet",
      "Turnover",
      "Paid orders",
    ]);
    expect(rows().map(cells)).toEqual([
      ["VA-1", "Riverside", "1,250.00", "3"],
      ["VA1-1", "Market Hall", "200.00", "1"],
      ["VA-2", "Not at an outlet", "0.00", "0"],
    ]);
    // The defaults, sent as such.
    expect(Object.fromEntries(last())).toMatchObject({ period: "last_7_days", by: "machine", sort: "takings" });
  });

  it("sends the breakdown and the period chosen, and keeps them in the address", async () => {
    const user = userEvent.setup();
    renderView("devices");
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByText("By goods"));
    await waitFor(() =>
      expect(rows().map(cells)).toEqual([
        ["Cola", "1,250.00", "4", "1"],
        ["Water", "200.00", "1", "1"],
      ]),
    );
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Goods",
      "Turnover",
      "Items sold",
      "Devices",
    ]);
    expect(last().get("by")).toBe("goods");
    await user.click(screen.getByRole("combobox", { name: "Period" }));
    await user.click(await screen.findByTitle("Yesterday"));
    await waitFor(() => expect(last().get("period")).toBe("yesterday"));
    expect(last().get("by")).toBe("goods");
    expect(address).toContain("period=yesterday");
    expect(address).toContain("by=goods");
    // Ordered by another figure: the server is asked, from the first page.
    await user.click(screen.getByRole("columnheader", { name: /Items sold/ }));
    await waitFor(() => expect(last().get("sort")).toBe("sold"));
    expect([last().get("order"), last().get("page")]).toEqual(["desc", "1"]);
  });

  it("shows each row as a card with its figures on a phone", async () => {
    viewport.width = 390;
    renderView("devices");
    const cards = await waitFor(() => {
      const found = [...document.querySelectorAll(".statistics-card")];
      expect(found).toHaveLength(3);
      return found as HTMLElement[];
    });
    expect(cards[0].textContent).toBe("VA-1RiversideTurnover1,250.00Paid orders3");
    expect(screen.queryByRole("table")).toBeNull();
  });
});

describe("stock consumption", () => {
  it("shows items sold, takings and restocked, and the breakdown by goods", async () => {
    renderView("stock", "/goods/stock?period=today");
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(total("sold")).toBe("Items sold4");
    expect(total("takings")).toBe("Turnover1,150.00");
    expect(total("restocked")).toBe("Items restocked5");
    expect(total("goods")).toBe("Goods sold2");
    expect(rows().map(cells)).toEqual([["Cola", "3", "950.00", "5", "1"]]);
    expect(Object.fromEntries(last())).toMatchObject({ period: "today", by: "goods", sort: "sold" });
    expect(requests.every((r) => r.pathname === "/merchant/statistics-stock")).toBe(true);
  });
});

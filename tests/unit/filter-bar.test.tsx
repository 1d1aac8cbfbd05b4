// @vitest-environment jsdom
// src/crud/filter-bar.tsx: the filters an entity declares, as a form whose search gives the values.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { datePresets, FilterBar } from "../../src/crud/filter-bar.tsx";
import { entityView } from "../../src/crud/model.ts";
import type { EntityName } from "../../src/generated/types.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn, viewport } from "./dom-setup.ts";

beforeAll(async () => {
  await setupI18n(["common", "defs", "goods", "order"]);
  signIn(["goods.list"]);
});

const NO_VALUES = {};

function renderBar(
  entity: EntityName,
  values: Record<string, unknown> = NO_VALUES,
  fixed: string[] = [],
  name = `filter_${entity}_list`,
) {
  const onChange = vi.fn();
  render(
    <AntdRoot>
      <QueryClientProvider client={new QueryClient()}>
        <FilterBar name={name} view={entityView(entity)} values={values} fixed={fixed} onChange={onChange} />
      </QueryClientProvider>
    </AntdRoot>,
  );
  return { onChange, user: userEvent.setup({ delay: null, pointerEventsCheck: 0 }) };
}

const labels = () => [...document.querySelectorAll(".ant-form-item-label label")].map((l) => l.textContent);

describe("FilterBar", () => {
  it("shows the state filters first, the rest behind More filters, leaving fixed and hidden ones out", async () => {
    const { user } = renderBar("order", NO_VALUES, ["shop_id"]);
    expect(labels()).toEqual(["Pay status", "Dropped order", "Order number", "Device code"]);
    expect(labels()).not.toContain("Pay type");
    await user.click(screen.getByRole("button", { name: /More filters/ }));
    expect(labels()).toEqual(
      expect.arrayContaining(["Order number", "Device code", "Order time", "Pay type", "Pay status"]),
    );
    expect(labels()).not.toContain("Outlet"); // fixed by the route
    expect(labels()).not.toContain("Device"); // x-ui.hidden
  });

  it("names its fields' ids after its form, so that two lists' bars in one page share no id", () => {
    renderBar("order", NO_VALUES, [], "filter_order_list");
    renderBar("order", NO_VALUES, [], "filter_order_recycle");
    const bars = [...document.querySelectorAll(".filter-bar")];
    expect(bars).toHaveLength(2);
    const ids = [...document.querySelectorAll(".filter-bar [id]")].map((el) => el.id);
    expect(ids).toContain("filter_order_list_pay_status");
    expect(ids).toContain("filter_order_recycle_pay_status");
    expect(new Set(ids).size).toBe(ids.length);
    // Each label names the field of its own bar.
    for (const bar of bars)
      for (const label of bar.querySelectorAll<HTMLLabelElement>(".ant-form-item-label label"))
        expect(bar.contains(document.getElementById(label.htmlFor))).toBe(true);
  });

  it("opens by itself when a filter beyond the first few is in use", () => {
    renderBar("order", { pay_type: [4] });
    expect(labels()).toContain("Pay type");
  });

  it("gives enum values chosen from the translated options", async () => {
    const { onChange, user } = renderBar("order");
    await user.click(screen.getByRole("button", { name: /More filters/ }));
    await user.click(screen.getByRole("combobox", { name: "Pay status" }));
    await user.click(await screen.findByTitle("Refund requested"));
    await user.click(await screen.findByTitle("Paid"));
    await user.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.calls[0][0]).toMatchObject({ pay_status: ["refund_requested", "paid"] });
  });

  it("gives no filters on reset", async () => {
    const { onChange, user } = renderBar("goods");
    await user.click(screen.getByRole("button", { name: /Reset/ }));
    expect(onChange).toHaveBeenCalledWith({});
  });

  // FilterInput sits between Form.Item and the input: the value and onChange Form.Item hands it must
  // reach the input, or Search reports {} and the list is never filtered (as in 696b98d).
  it("gives the typed values on search", async () => {
    const { onChange, user } = renderBar("goods");
    await user.type(screen.getByPlaceholderText("Title"), "Cola");
    await user.type(screen.getByRole("spinbutton", { name: "Retail price From" }), "1.5");
    await user.click(screen.getByRole("button", { name: /Search/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.calls[0][0]).toMatchObject({ title: "Cola", unit_price: [1.5, undefined] });
  });

  it("shows the values it is given (read back from the address)", () => {
    renderBar("goods", { title: "Cola", unit_price: [1.5, 3] });
    expect((screen.getByPlaceholderText("Title") as HTMLInputElement).value).toBe("Cola");
    expect((screen.getByRole("spinbutton", { name: "Retail price From" }) as HTMLInputElement).value).toBe("1.50");
    expect((screen.getByRole("spinbutton", { name: "Retail price To" }) as HTMLInputElement).value).toBe("3.00");
  });
});

describe("FilterBar on a phone", () => {
  afterEach(() => {
    viewport.width = 1440;
  });

  it("searches by the record's name from its box, and opens every other filter in a sheet", async () => {
    viewport.width = 390;
    const { onChange, user } = renderBar("goods", { title: "Cola" });
    // The sheet is closed: only the name's box and the Filters button are on the page.
    expect(labels()).toEqual([]);
    const box = screen.getByRole("searchbox", { name: "Title" }) as HTMLInputElement;
    expect(box.value).toBe("Cola");
    await user.clear(box);
    await user.type(box, "Water{Enter}");
    expect(onChange).toHaveBeenLastCalledWith({ title: "Water" });

    await user.click(screen.getByRole("button", { name: /Filters$/ }));
    await user.type(await screen.findByRole("spinbutton", { name: "Retail price From" }), "2");
    await user.click(screen.getByRole("button", { name: /Search/ }));
    // The sheet's values, with the name searched for as the list has it (its values, from the address).
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    expect(onChange.mock.calls[1][0]).toMatchObject({ title: "Cola", unit_price: [2, undefined] });
  });

  it("names how many filters of the sheet are in use, and its reset keeps the name searched for", async () => {
    viewport.width = 390;
    const { onChange, user } = renderBar("goods", { title: "Cola", unit_price: [1.5, 3] });
    await user.click(screen.getByRole("button", { name: /Filters \(1\)/ }));
    await user.click(await screen.findByRole("button", { name: /Reset/ }));
    expect(onChange).toHaveBeenCalledWith({ title: "Cola" });
  });
});

describe("datePresets (SPEC §9: last week, month, three months)", () => {
  it("gives whole days ending today, labelled in the user's language", async () => {
    const i18n = (await import("i18next")).default;
    vi.useFakeTimers({ now: new Date(2026, 2, 31, 15, 30), toFake: ["Date"] });
    try {
      const presets = datePresets(i18n.t.bind(i18n));
      const day = (d: { format(f: string): string }) => d.format("YYYY-MM-DD HH:mm:ss");
      expect(presets.map((p) => [p.label, day(p.value[0]), day(p.value[1])])).toEqual([
        ["Last week", "2026-03-25 00:00:00", "2026-03-31 23:59:59"],
        ["Last month", "2026-03-01 00:00:00", "2026-03-31 23:59:59"],
        ["Last three months", "2026-01-01 00:00:00", "2026-03-31 23:59:59"],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

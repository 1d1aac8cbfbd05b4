// @vitest-environment jsdom
// src/crud/conflict-dialog.tsx: the comparison a save at a stale version opens, as the user reads it: per
// field its label, who changed it, the value started from, the one saved meanwhile (by whom, when) and the
// one typed as the detail screen shows them (a category by its title, money as an amount, an enum by its
// label), each starting at the right choice; "Save again" hands back the choices, "Back" leaves.
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ConflictDialog } from "../../src/crud/conflict-dialog.tsx";
import { fieldConflicts, type FieldConflict } from "../../src/crud/conflict.ts";
import { setCurrency } from "../../src/crud/format.ts";
import { entityView } from "../../src/crud/model.ts";
import { setTimeZone } from "../../src/crud/time-zone.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;
beforeAll(async () => {
  i18n = await setupI18n(["common", "defs", "goods"]);
  signIn(["goods_category.all"]);
  setTimeZone("Asia/Bangkok");
  // "3 seconds ago": the clock stands still at 3 s past their save (only Date: React's timers run).
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-28T07:02:03.000Z"));
});
afterAll(() => {
  vi.useRealTimers();
  setTimeZone(undefined);
});
afterEach(async () => {
  setCurrency(undefined);
  if (i18n.language !== "en") await act(() => i18n.changeLanguage("en"));
});

const goods = entityView("goods");
const base = { title: "Cola 330ml", cate_id: 3, unit_price: 350, stock: 20, open_spec: 0, source_id: 40 };
const theirs = { ...base, title: "Cola Zero 330ml", cate_id: 4, unit_price: 380, source_id: 41 };
const mine = { ...base, title: "Cola Classic 330ml", unit_price: 400, open_spec: 1 };
const conflicts = fieldConflicts(goods, { base, loaded: base, theirs, mine }, [
  {
    id: 9,
    at: "2026-11-28T07:02:00.000Z",
    action: "update",
    action_label: "Edited",
    changes: { title: ["Cola 330ml", "Cola Zero 330ml"], cate_id: [3, 4], unit_price: [350, 380], source_id: [40, 41] },
    lines: [],
    actor_kind: "agent",
    actor_id: 1,
    actor_name: "Mekong Smart Retail HQ",
  },
]);

function renderDialog(rows: FieldConflict[] = conflicts) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The categories' titles, as the picker call answers them (asked for once, with every side's ids).
  queries.setQueryData(
    ["relation-titles", "goods_category", [3, 4]],
    [
      { id: 3, title: "Soft drinks" },
      { id: 4, title: "Sugar-free drinks" },
    ],
  );
  const onSave = vi.fn();
  const onCancel = vi.fn();
  render(
    <AntdRoot>
      <QueryClientProvider client={queries}>
        <ConflictDialog view={goods} conflicts={rows} onSave={onSave} onCancel={onCancel} />
      </QueryClientProvider>
    </AntdRoot>,
  );
  return { onSave, onCancel, user: userEvent.setup({ delay: null, pointerEventsCheck: 0 }) };
}

const section = (field: string) => document.querySelector<HTMLElement>(`.conflict-field[data-field="${field}"]`)!;
const side = (field: string, name: string) =>
  section(field).querySelector<HTMLElement>(`.conflict-side[data-side="${name}"]`)?.textContent ?? null;
const chosen = (field: string) =>
  section(field).querySelector<HTMLInputElement>(".conflict-choice input:checked")?.closest("label")?.textContent;

describe("the comparison dialog", () => {
  it("shows each field that differs with its three values as the screens show them, and who saved theirs", async () => {
    setCurrency("USD");
    renderDialog();
    await screen.findByText("Someone else saved this record meanwhile");
    expect([...document.querySelectorAll(".conflict-field")].map((s) => s.getAttribute("data-field"))).toEqual([
      "title",
      "cate_id",
      "unit_price",
      "open_spec",
      "source_id",
    ]);
    const by = "by Mekong Smart Retail HQ at 14:02, 3 seconds ago";
    expect(section("title").querySelector(".conflict-field-head")?.textContent).toBe("TitleChanged by both: choose");
    expect(side("title", "base")).toBe("You started fromCola 330ml");
    expect(side("title", "theirs")).toBe(`Saved meanwhileCola Zero 330ml${by}`);
    expect(side("title", "mine")).toBe("YoursCola Classic 330ml");
    // A category by its title.
    expect(section("cate_id").querySelector(".conflict-field-head")?.textContent).toBe("CategoryChanged by them");
    expect(side("cate_id", "base")).toBe("You started fromSoft drinks");
    expect(side("cate_id", "theirs")).toBe(`Saved meanwhileSugar-free drinks${by}`);
    expect(side("cate_id", "mine")).toBe("YoursSoft drinks");
    // Money as an amount.
    expect(side("unit_price", "base")).toBe("You started from$3.50");
    expect(side("unit_price", "theirs")).toBe(`Saved meanwhile$3.80${by}`);
    expect(side("unit_price", "mine")).toBe("Yours$4.00");
    // An enum by its label; changed by the user only.
    expect(section("open_spec").querySelector(".conflict-field-head")?.textContent).toBe(
      "Enable variantsChanged by you",
    );
    expect(side("open_spec", "base")).toBe("You started fromOff");
    expect(side("open_spec", "theirs")).toBe("Saved meanwhileOff");
    expect(side("open_spec", "mine")).toBe("YoursOn");
  });

  it("starts at theirs where only they changed, at yours otherwise; a field the form cannot change has no choice", async () => {
    renderDialog();
    await screen.findByText("Someone else saved this record meanwhile");
    expect(chosen("title")).toBe("Keep yours");
    expect(chosen("cate_id")).toBe("Take theirs");
    expect(chosen("unit_price")).toBe("Keep yours");
    expect(chosen("open_spec")).toBe("Keep yours");
    // The goods it was synced from is the server's to say: theirs, and nothing to choose.
    expect(section("source_id").querySelector(".conflict-field-head")?.textContent).toBe(
      "Synced fromChanged by them; not changed here",
    );
    expect(section("source_id").querySelector(".conflict-choice")).toBeNull();
    expect(side("source_id", "mine")).toBeNull();
    expect(section("source_id").querySelector(".conflict-chosen")?.getAttribute("data-side")).toBe("theirs");
  });

  it("hands back each choice as the user leaves or changes it on Save again; Back hands back nothing", async () => {
    const { onSave, onCancel, user } = renderDialog();
    await screen.findByText("Someone else saved this record meanwhile");
    await user.click(within(section("title")).getByText("Take theirs"));
    await user.click(within(section("cate_id")).getByText("Keep yours"));
    expect(section("title").querySelector(".conflict-chosen")?.getAttribute("data-side")).toBe("theirs");
    await user.click(screen.getByRole("button", { name: "Save again" }));
    expect(onSave).toHaveBeenCalledWith({
      title: "theirs",
      cate_id: "mine",
      unit_price: "mine",
      open_spec: "mine",
      source_id: "theirs",
    });
    await user.click(screen.getByRole("button", { name: "Back to the form" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it("says so when nothing differs any more, and reads in the user's language", async () => {
    await act(() => i18n.changeLanguage("zh"));
    renderDialog([]);
    await screen.findByText("此记录已被他人保存");
    expect(screen.getByText("您输入的内容与对方保存的一致：重新保存即可。")).toBeTruthy();
    expect(screen.getByRole("button", { name: "重新保存" })).toBeTruthy();
  });
});

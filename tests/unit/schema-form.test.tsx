// @vitest-environment jsdom
// src/crud/schema-form.tsx: the generated form as a user meets it: translated required errors, typed
// values submitted in stored units, cross-field rules, and the server's field errors.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { entityView, operationView, type FormView } from "../../src/crud/model.ts";
import { operationSchemas, type OperationCall } from "../../src/generated/operations.ts";
import { entitySchemas } from "../../src/generated/schemas.ts";
import { SchemaForm, formSchema } from "../../src/crud/schema-form.tsx";
import { setCurrency } from "../../src/crud/format.ts";
import type { FieldError } from "../../src/app/api.ts";
import { hasUnsaved } from "../../src/app/unsaved.tsx";
import type { EntityName } from "../../src/generated/types.ts";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;

beforeAll(async () => {
  i18n = await setupI18n([
    "common",
    "defs",
    "validation",
    "notice",
    "operations",
    "charge_pile_plan",
    "goods_setting",
    "charge_plan",
    "order",
    "page",
  ]);
});

// Back to English with the last test's components still mounted: they re-render, inside act.
afterEach(async () => {
  setCurrency(undefined);
  if (i18n.language !== "en") await act(() => i18n.changeLanguage("en"));
});

interface Options {
  mode?: "create" | "edit";
  initial?: Record<string, unknown>;
  serverErrors?: FieldError[];
  focusFirst?: boolean;
}

function renderForm(entity: string, { mode = "create", initial = {}, serverErrors, focusFirst }: Options = {}) {
  const view: FormView =
    entity in entitySchemas
      ? entityView(entity as EntityName)
      : operationView(operationSchemas[entity as OperationCall]);
  const schema = formSchema(view, mode);
  const onSubmit = vi.fn();
  // Relation pickers ask their options through react-query (none are answered here).
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  // No motion: messages appear and leave at once instead of after an animation jsdom never runs.
  const ui = (errors?: FieldError[], replace?: Record<string, unknown>) => (
    <AntdRoot>
      <QueryClientProvider client={queries}>
        <SchemaForm
          view={view}
          schema={schema}
          initial={initial}
          mode={mode}
          serverErrors={errors}
          focusFirst={focusFirst}
          replace={replace}
          onSubmit={onSubmit}
        />
      </QueryClientProvider>
    </AntdRoot>
  );
  const result = render(ui(serverErrors));
  return {
    onSubmit,
    rerender: (errors?: FieldError[], replace?: Record<string, unknown>) => result.rerender(ui(errors, replace)),
    user: userEvent.setup({ delay: null, pointerEventsCheck: 0 }),
  };
}

/** Types into a field the way a paste does: one change, not one validation per key. */
async function fill(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

const save = () => screen.getByRole("button", { name: /save/i });

describe("SchemaForm", () => {
  it("edits a list of objects as a table: its labels in the header, a row per object, errors in its cells", async () => {
    const { onSubmit, user } = renderForm("charge_plan", {
      initial: { name: "Riverside", packages: [{ minutes: 60 }] },
    });
    const packages = document.getElementById("root_packages")!;
    const headers = within(packages)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers).toEqual(["*Minutes", "*Fee"]);
    // No stacked sub-form with a title of its own per object.
    expect(screen.queryByText(/packages-1/)).toBeNull();
    const rows = () => within(packages).getAllByRole("row").slice(1);
    expect(rows()).toHaveLength(1);
    await user.click(save());
    expect(await within(rows()[0]).findByText("Fee is required")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(within(packages.parentElement!).getByRole("button", { name: /Add item/ }));
    expect(rows()).toHaveLength(2);
    const input = (id: string) => document.getElementById(id) as HTMLInputElement;
    await user.click(input("root_packages_0_fee"));
    await user.paste("1.5");
    await user.click(input("root_packages_1_minutes"));
    await user.paste("120");
    await user.click(input("root_packages_1_fee"));
    await user.paste("2");
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      packages: [
        { minutes: 60, fee: 150 },
        { minutes: 120, fee: 200 },
      ],
    });
  });

  it("hands over the values as it loaded them, with the defaults it filled in, beside those typed", async () => {
    const { onSubmit, user } = renderForm("notice", { mode: "edit", initial: { title: "Old", content: "Body" } });
    await fill(user, "Title", " and new");
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // A notice starts enabled (status 1): filled in by the form, not typed.
    expect(onSubmit.mock.calls[0]).toEqual([
      { title: "Old and new", content: "Body", status: 1 },
      { loaded: { title: "Old", content: "Body", status: 1 } },
    ]);
  });

  it("takes values put back into it (a merge refused on a field) as the user's: shown, unsaved, submitted", async () => {
    const { onSubmit, rerender, user } = renderForm("notice", {
      mode: "edit",
      initial: { title: "Old", content: "Body" },
    });
    expect(hasUnsaved()).toBe(false);
    rerender(undefined, { title: "Merged", content: "Body", status: 1 });
    await waitFor(() => expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Merged"));
    expect(hasUnsaved()).toBe(true);
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toEqual({ title: "Merged", content: "Body", status: 1 });
  });

  it("shows translated required errors on the fields and does not submit", async () => {
    const { onSubmit, user } = renderForm("notice");
    await user.click(save());
    expect(await screen.findByText("Title is required")).toBeTruthy();
    expect(screen.getByText("Content is required")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    // The message sits on its own field.
    const title = screen.getByLabelText("Title").closest(".ant-form-item")!;
    expect(title.textContent).toContain("Title is required");
    expect(title.textContent).not.toContain("Content is required");
  });

  it("submits the typed data once the errors are fixed", async () => {
    const { onSubmit, user } = renderForm("notice");
    await user.click(save());
    await screen.findByText("Title is required");
    await fill(user, "Title", "Maintenance on Sunday");
    await fill(user, "Content", "Machines are serviced from 06:00.");
    // Errors clear as the user types (live validation after the first submit).
    await waitFor(() => expect(screen.queryByText("Title is required")).toBeNull());
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    // The status starts at its default (enabled); a sort nobody typed is not made up.
    expect(onSubmit.mock.calls[0][0]).toEqual({
      title: "Maintenance on Sunday",
      content: "Machines are serviced from 06:00.",
      status: 1,
    });
  });

  it("offers a bounded whole number's values as buttons: a page's product columns, 1 to 3", async () => {
    const { user } = renderForm("page", { mode: "edit", initial: { id: 4, name: "Lobby", goods_columns: 2 } });
    const group = screen.getByText("Product columns").closest(".ant-form-item")!;
    const choices = within(group as HTMLElement).getAllByRole("radio");
    expect(choices.map((c) => c.closest("label")!.textContent)).toEqual(["1", "2", "3"]);
    expect(choices.map((c) => (c as HTMLInputElement).checked)).toEqual([false, true, false]);
    await user.click(within(group as HTMLElement).getByText("3"));
    expect(choices.map((c) => (c as HTMLInputElement).checked)).toEqual([false, false, true]);
  });

  it("submits money typed in currency units as minor units", async () => {
    const { onSubmit, user } = renderForm("charge_pile_plan");
    await fill(user, "Plan name", "Mall chargers");
    await fill(user, "Electricity fee", "3.5");
    await fill(user, "Service fee", "0.29");
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ name: "Mall chargers", electricity_fee: 350, service_fee: 29 });
  });

  it("shows stored money in currency units", () => {
    renderForm("charge_pile_plan", { mode: "edit", initial: { name: "Plan", electricity_fee: 120, service_fee: 40 } });
    expect((screen.getByLabelText("Electricity fee") as HTMLInputElement).value).toBe("1.20");
    expect((screen.getByLabelText("Service fee") as HTMLInputElement).value).toBe("0.40");
  });

  it("shows the settings' currency and the field's unit beside the inputs, in the user's language", async () => {
    setCurrency("USD");
    renderForm("charge_pile_plan", { mode: "edit", initial: { name: "Plan", electricity_fee: 120, max_hours: 1 } });
    const beside = (field: string) =>
      [...document.querySelectorAll(`.input-affixed:has(#root_${field}) > .input-affix`)].map((a) => a.textContent);
    expect(beside("electricity_fee")).toEqual(["$", "/ kWh"]);
    expect(beside("max_hours")).toEqual(["h"]);
    // The unit's plural follows the number typed.
    const { user } = renderForm("goods_setting", { mode: "edit", initial: { goods_days: 1 } });
    expect(beside("goods_days")).toEqual(["day"]);
    await user.tripleClick(screen.getByLabelText("Goods valid days"));
    await user.keyboard("30");
    await user.tab();
    expect(beside("goods_days")).toEqual(["days"]);

    await act(() => i18n.changeLanguage("km"));
    act(() => setCurrency("KHR"));
    // Khmer puts the riel after the amount: "1.20 ៛ / kWh".
    await waitFor(() => expect(beside("electricity_fee")).toEqual(["៛ / kWh"]));
    expect(beside("max_hours")).toEqual(["ម៉ោង"]);
  });

  it("submits a fraction typed as a percentage as a fraction", async () => {
    const initial = { shelve: 1, format: 1, stock: 1, allocate: 0, is_discount: 1, three_discount: 0.5 };
    const { onSubmit, user } = renderForm("goods_setting", { mode: "edit", initial });
    // Shown as a percentage ("50 %" or "50.0"), whatever the widget's formatting.
    expect(parseFloat((screen.getByLabelText("Third-item discount") as HTMLInputElement).value)).toBe(50);
    await fill(user, "Second-item discount", "6");
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ two_discount: 0.06, three_discount: 0.5 });
  });

  it("blocks saving when a conditional rule requires a field", async () => {
    const initial = { shelve: 1, format: 1, stock: 1, allocate: 0, is_discount: 1 };
    const { onSubmit, user } = renderForm("goods_setting", { mode: "edit", initial });
    await user.click(save());
    await waitFor(() =>
      expect(document.querySelector("#root_two_discount")!.closest(".ant-form-item-has-error")).not.toBeNull(),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  // @rjsf/antd's FieldTemplate shows `help` instead of the errors when a field has help text, so help
  // texts are descriptions: a field with help must still say why it is wrong.
  it("shows the error on a field that has help text", async () => {
    const initial = { shelve: 1, format: 1, stock: 1, allocate: 0, is_discount: 1 };
    const { user } = renderForm("goods_setting", { mode: "edit", initial });
    await user.click(save());
    const field = document.querySelector("#root_two_discount")!.closest(".ant-form-item")!;
    await waitFor(() => expect(field.classList.contains("ant-form-item-has-error")).toBe(true));
    expect(field.textContent).toContain("Second-item discount is required");
  });

  it("shows the x-compare rule's message when the passwords differ, and does not submit", async () => {
    const { onSubmit, user } = renderForm("modify-password");
    await fill(user, "Current password", "s3cret-pass");
    await fill(user, "New password", "Mekong-2026!");
    await fill(user, "Confirm password", "Mekong-2027!");
    await user.click(save());
    const message = await screen.findByText("New and confirm password must be the same");
    expect(message.closest(".ant-form-item")!.querySelector("#root_confirm_password")).not.toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText("Confirm password"));
    await fill(user, "Confirm password", "Mekong-2026!");
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toEqual({
      old_password: "s3cret-pass",
      new_password: "Mekong-2026!",
      confirm_password: "Mekong-2026!",
    });
  });

  it("shows the server's errors on their fields until that field is edited", async () => {
    const serverErrors: FieldError[] = [
      { field: "title", keyword: "unique", message: "This Title is already taken" },
      { field: "content", keyword: "maxLength", message: "Content is too long" },
    ];
    const { user } = renderForm("notice", {
      mode: "edit",
      initial: { title: "Maintenance", content: "Text", sort: 1, status: 1 },
      serverErrors,
    });
    const error = await screen.findByText("This Title is already taken");
    expect(error.closest(".ant-form-item")!.querySelector("#root_title")).not.toBeNull();
    expect(screen.getByText("Content is too long")).toBeTruthy();

    await fill(user, "Title", "!");
    await waitFor(() => expect(screen.queryByText("This Title is already taken")).toBeNull());
    // The untouched field keeps its error.
    expect(screen.getByText("Content is too long")).toBeTruthy();
  });

  it("shows new server errors from a later save", async () => {
    const { rerender } = renderForm("notice", { mode: "edit", initial: { title: "A", content: "B", sort: 1 } });
    expect(screen.queryByText("This Title is already taken")).toBeNull();
    rerender([{ field: "title", keyword: "unique", message: "This Title is already taken" }]);
    expect(await screen.findByText("This Title is already taken")).toBeTruthy();
  });

  it("speaks Chinese when the language is zh", async () => {
    await i18n.changeLanguage("zh");
    const { onSubmit, user } = renderForm("notice");
    expect(screen.getByLabelText("标题")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: /保\s*存/ }));
    expect(await screen.findByText("标题不能为空")).toBeTruthy();
    expect(screen.getByText("内容不能为空")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("says its errors in the new language when the language changes, keeping what was typed", async () => {
    const { onSubmit, user } = renderForm("notice");
    await fill(user, "Content", "Machines are serviced from 06:00.");
    await user.click(save());
    expect(await screen.findByText("Title is required")).toBeTruthy();
    await act(() => i18n.changeLanguage("th"));
    // The label and its error both in Thai; nothing typed is lost, nothing submitted.
    const title = await screen.findByLabelText("หัวข้อ");
    await waitFor(() => expect(title.closest(".ant-form-item")!.textContent).toContain("กรุณาระบุหัวข้อ"));
    expect(screen.queryByText("Title is required")).toBeNull();
    expect((screen.getByLabelText("เนื้อหา") as HTMLTextAreaElement).value).toBe("Machines are serviced from 06:00.");
    expect(onSubmit).not.toHaveBeenCalled();
    // Back in English, the same error in English.
    await act(() => i18n.changeLanguage("en"));
    expect(await screen.findByText("Title is required")).toBeTruthy();
  });

  it("counts as unsaved only while its values differ from those it loaded", async () => {
    const { user } = renderForm("notice", {
      mode: "edit",
      initial: { title: "Maintenance", content: "Text", sort: 1, status: 1 },
    });
    expect(hasUnsaved()).toBe(false);
    const title = screen.getByLabelText("Title");
    await fill(user, "Title", "!");
    await user.tab();
    expect(hasUnsaved()).toBe(true);
    // The edit undone: the form holds what it loaded again, and leaving does not ask.
    await user.click(title);
    await user.keyboard("{End}{Backspace}");
    await user.tab();
    await waitFor(() => expect((title as HTMLInputElement).value).toBe("Maintenance"));
    expect(hasUnsaved()).toBe(false);
  });

  it("counts a new record's form as unsaved only while something is typed beside its defaults", async () => {
    const { user } = renderForm("notice");
    const title = screen.getByLabelText("Title");
    await fill(user, "Title", "Sunday");
    await user.tab();
    expect(hasUnsaved()).toBe(true);
    // Cleared again: the field is empty (its key left with nothing in it), the status still its default.
    await user.clear(title);
    await user.tab();
    expect(hasUnsaved()).toBe(false);
  });

  it("gives the focus to its first field when asked (a dialog's form)", async () => {
    renderForm("order-refund", { focusFirst: true });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Amount to refund")));
  });
});

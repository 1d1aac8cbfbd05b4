// @vitest-environment jsdom
// src/widgets/settled-input.tsx: what is typed stays in the field until it settles (a pause, a blur, the
// form's submit), so a keystroke does not re-render the whole form; a value set from outside wins.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { entityView } from "../../src/crud/model.ts";
import { SchemaForm, formSchema } from "../../src/crud/schema-form.tsx";
import {
  PendingInputs,
  PendingInputsContext,
  TEXT_SETTLE_MS,
  useSettledValue,
} from "../../src/widgets/settled-input.tsx";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";

beforeAll(async () => {
  await setupI18n(["common", "defs", "validation", "notice"]);
});

afterEach(() => {
  vi.useRealTimers();
});

/** A text input on useSettledValue, inside a form's pending inputs unless `alone`. */
function Field({ value, onChange }: { value: string | undefined; onChange: (v: string | undefined) => void }) {
  const settled = useSettledValue(value, onChange);
  return (
    <input
      aria-label="name"
      value={settled.value ?? ""}
      onChange={(e) => settled.change(e.target.value)}
      onBlur={() => settled.flush()}
    />
  );
}

function renderField(value: string | undefined, { alone = false } = {}) {
  const onChange = vi.fn();
  const typing = vi.fn();
  const pending = new PendingInputs(typing);
  const ui = (v: string | undefined) =>
    alone ? (
      <Field value={v} onChange={onChange} />
    ) : (
      <PendingInputsContext.Provider value={pending}>
        <Field value={v} onChange={onChange} />
      </PendingInputsContext.Provider>
    );
  const result = render(ui(value));
  const input = screen.getByLabelText("name") as HTMLInputElement;
  const type = (text: string) => fireEvent.change(input, { target: { value: text } });
  return {
    onChange,
    typing,
    pending,
    input,
    type,
    rerender: (v: string | undefined) => result.rerender(ui(v)),
    result,
  };
}

describe("useSettledValue", () => {
  it("shows each keystroke at once and hands the text to the form once, when typing has paused", () => {
    vi.useFakeTimers();
    const { onChange, typing, input, type } = renderField("Mek");
    type("Meko");
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS - 1));
    type("Mekon");
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS - 1));
    type("Mekong");
    expect(input.value).toBe("Mekong");
    expect(onChange).not.toHaveBeenCalled();
    // The form hears of the typing at once (it counts as unsaved), of the text only after the pause.
    expect(typing).toHaveBeenCalledTimes(3);
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS));
    expect(onChange.mock.calls).toEqual([["Mekong"]]);
  });

  it("hands the text over at once on blur, and on the form's flush, and only once", () => {
    vi.useFakeTimers();
    const first = renderField("");
    first.type("a");
    fireEvent.blur(first.input);
    expect(first.onChange.mock.calls).toEqual([["a"]]);
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS * 2));
    expect(first.onChange).toHaveBeenCalledTimes(1);
    first.result.unmount();

    const second = renderField("");
    second.type("b");
    act(() => second.pending.flush());
    expect(second.onChange.mock.calls).toEqual([["b"]]);
    act(() => second.pending.flush());
    expect(second.onChange).toHaveBeenCalledTimes(1);
  });

  it("takes a value set from outside (a reset, loaded data) over what was pending", () => {
    vi.useFakeTimers();
    const { onChange, input, type, rerender } = renderField("old");
    type("typed");
    rerender("from the server");
    expect(input.value).toBe("from the server");
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS * 2));
    expect(onChange).not.toHaveBeenCalled();
    // The form echoing what the field handed it is not a change from outside: typing goes on.
    type("from the server!");
    act(() => vi.advanceTimersByTime(TEXT_SETTLE_MS));
    rerender("from the server!");
    expect(input.value).toBe("from the server!");
    expect(onChange.mock.calls).toEqual([["from the server!"]]);
  });

  it("hands over what is pending when the field goes away", () => {
    const { onChange, type, result } = renderField("");
    type("last words");
    result.unmount();
    expect(onChange.mock.calls).toEqual([["last words"]]);
  });

  it("hands each change over at once outside a form that collects pending inputs", () => {
    const { onChange, type } = renderField("", { alone: true });
    type("x");
    expect(onChange.mock.calls).toEqual([["x"]]);
  });
});

describe("SchemaForm with settled text", () => {
  it("submits with Enter what was typed a moment before, without waiting for the pause", async () => {
    const view = entityView("notice");
    const onSubmit = vi.fn();
    const queries = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
    render(
      <AntdRoot>
        <QueryClientProvider client={queries}>
          <SchemaForm view={view} schema={formSchema(view, "create")} initial={{}} onSubmit={onSubmit} />
        </QueryClientProvider>
      </AntdRoot>,
    );
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await user.click(screen.getByLabelText("Content"));
    await user.paste("Machines are serviced from 06:00.");
    // Typed key by key, then Enter at once: no blur, no pause.
    await user.click(screen.getByLabelText("Title"));
    await user.keyboard("Sunday{Enter}");
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      title: "Sunday",
      content: "Machines are serviced from 06:00.",
    });
    expect(screen.queryByText("Title is required")).toBeNull();
  });
});

describe("number fields on a phone", () => {
  it("bring up the number pad: digits for a count, digits and a point for an amount", async () => {
    await setupI18n(["goods"]);
    const view = entityView("goods");
    const queries = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
    render(
      <AntdRoot>
        <QueryClientProvider client={queries}>
          <SchemaForm view={view} schema={formSchema(view, "create")} initial={{}} onSubmit={vi.fn()} />
        </QueryClientProvider>
      </AntdRoot>,
    );
    await waitFor(() => expect(document.getElementById("root_stock")?.getAttribute("inputmode")).toBe("numeric"));
    expect(document.getElementById("root_unit_price")?.getAttribute("inputmode")).toBe("decimal");
    // A text field keeps the full keyboard.
    expect(document.getElementById("root_title")?.getAttribute("inputmode")).toBeNull();
  });
});

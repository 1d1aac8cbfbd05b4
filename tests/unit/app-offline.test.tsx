// @vitest-environment jsdom
// What a user sees without a network (src/app/offline-notice.tsx, src/app/not-sent.tsx, the generated form's
// save through useSave): the notice says the console is offline and goes once it is back; a save the
// network failed keeps the form as typed, says it was not sent, and is offered again (in the form and in the
// notice) once the network is back; sent again, it carries what the form holds, once.
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../src/app/api.ts";
import { reportReached } from "../../src/app/network.ts";
import { OfflineNotice } from "../../src/app/offline-notice.tsx";
import { entityView } from "../../src/crud/model.ts";
import { useSave } from "../../src/crud/record-state.tsx";
import { SchemaForm, formSchema } from "../../src/crud/schema-form.tsx";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";
import common from "../../locales/en/common.json";

/** The offline words as English has them (written apart from the code that shows them). */
const en = common.offline;

beforeAll(async () => {
  await setupI18n(["common", "defs", "validation", "notice"]);
});

beforeEach(() => {
  act(() => reportReached(true));
});

const goOffline = () => act(() => void window.dispatchEvent(new Event("offline")));
const goOnline = () => act(() => void window.dispatchEvent(new Event("online")));

/** A notice's create form saving through `write`, with the offline notice above it, as the shell has them. */
function NoticeForm({ write }: { write: (data: Record<string, unknown>) => Promise<unknown> }) {
  const view = entityView("notice");
  const { fieldErrors, notSent, save } = useSave("messages.addSuccess", "messages.addFailed");
  return (
    <>
      <OfflineNotice />
      <SchemaForm
        view={view}
        schema={formSchema(view, "create")}
        initial={{}}
        serverErrors={fieldErrors}
        notSent={notSent}
        onSubmit={(data) => save(() => write(data))}
      />
    </>
  );
}

function renderForm(write: (data: Record<string, unknown>) => Promise<unknown>) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  return render(
    <AntdRoot>
      <QueryClientProvider client={queries}>
        <NoticeForm write={write} />
      </QueryClientProvider>
    </AntdRoot>,
  );
}

describe("the offline notice", () => {
  it("says the console is offline while it is, and nothing once it is back with nothing kept", () => {
    render(<OfflineNotice />);
    expect(screen.queryByTestId("offline-notice")).toBeNull();
    goOffline();
    expect(screen.getByTestId("offline-notice").textContent).toBe(`${en.title} ${en.text}`);
    goOnline();
    expect(screen.queryByTestId("offline-notice")).toBeNull();
    // A call the network failed counts as offline too; the next answer ends it.
    act(() => reportReached(false));
    expect(screen.getByTestId("offline-notice").textContent).toContain(en.title);
    act(() => reportReached(true));
    expect(screen.queryByTestId("offline-notice")).toBeNull();
  });
});

describe("a save the network failed", () => {
  it("keeps the form as typed, says it was not sent, and sends it again once asked, once", async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    let network = false;
    const write = vi.fn(async (_data: Record<string, unknown>) => {
      if (!network) throw new ApiError(0, "The server could not be reached");
      return { id: 1 };
    });
    renderForm(write);
    await user.click(screen.getByLabelText("Title"));
    await user.keyboard("Closed on Sunday");
    await user.click(screen.getByLabelText("Content"));
    await user.paste("All machines are serviced.");
    goOffline();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain(en.notSent));
    expect(write).toHaveBeenCalledTimes(1);
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Closed on Sunday");
    expect(screen.getByTestId("offline-notice").textContent).toContain(en.title);

    // Back online: the form and the notice offer it again.
    network = true;
    goOnline();
    expect(screen.getByRole("alert").textContent).toContain(en.notSentBack);
    expect(screen.getByTestId("offline-notice").textContent).toContain(en.back_one);
    await user.click(screen.getAllByRole("button", { name: en.sendAgain })[0]);
    await waitFor(() => expect(write).toHaveBeenCalledTimes(2));
    expect(write.mock.calls[1][0]).toMatchObject({ title: "Closed on Sunday", content: "All machines are serviced." });
    expect(write.mock.calls[1]).toEqual(write.mock.calls[0]);
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(screen.queryByTestId("offline-notice")).toBeNull();
    expect(write).toHaveBeenCalledTimes(2);
  });

  it("is sent again from the notice, with what the form holds", async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const write = vi.fn().mockRejectedValueOnce(new ApiError(0, "offline")).mockResolvedValue({ id: 2 });
    renderForm(write);
    await user.click(screen.getByLabelText("Title"));
    await user.keyboard("Holiday");
    await user.click(screen.getByLabelText("Content"));
    await user.paste("Open at noon.");
    act(() => reportReached(false));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByRole("alert")).toBeTruthy());
    goOnline();
    const notice = screen.getByTestId("offline-notice");
    await user.click(notice.querySelector("button")!);
    await waitFor(() => expect(write).toHaveBeenCalledTimes(2));
    expect(write.mock.calls[1][0]).toMatchObject({ title: "Holiday", content: "Open at noon." });
    expect(write.mock.calls[1]).toEqual(write.mock.calls[0]);
    await waitFor(() => expect(screen.queryByTestId("offline-notice")).toBeNull());
  });

  it("says a refusal as before: no offer to send again", async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const write = vi.fn().mockRejectedValue(new ApiError(409, "Someone else changed this record meanwhile"));
    renderForm(write);
    await user.click(screen.getByLabelText("Title"));
    await user.keyboard("Holiday");
    await user.click(screen.getByLabelText("Content"));
    await user.paste("Open at noon.");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(write).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByText("Someone else changed this record meanwhile")).toBeTruthy());
    expect(screen.queryByRole("button", { name: en.sendAgain })).toBeNull();
  });
});

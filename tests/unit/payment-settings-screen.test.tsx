// @vitest-environment jsdom
// The payment settings screen (src/extensions/payment-certificates/): a failed load says why in words with
// a retry, a failed refresh keeps the settings on screen and says so above them; a provider switched on
// asks for its own fields before anything is sent, one switched off asks for nothing.
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PaymentSettings } from "../../src/extensions/payment-certificates/payment-settings.tsx";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn } from "./dom-setup.ts";

beforeAll(async () => {
  await setupI18n(["common", "defs", "validation", "errors", "payment_setting"]);
  signIn(["payment_setting.get", "payment_setting.set"]);
});

afterEach(() => vi.unstubAllGlobals());

const envelope = (code: number, data: unknown, message = "") =>
  new Response(JSON.stringify({ code, message, data }), {
    status: code === 200 ? 200 : code,
    headers: { "content-type": "application/json" },
  });

/** The server as the screen meets it: settings answered by `settings` (in turn), no certificates stored. */
function serve(...settings: (() => Response)[]) {
  const sent: { url: string; body?: unknown }[] = [];
  let turn = 0;
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    sent.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url.includes("pay-setting-certificates")) return envelope(200, []);
    if (url.includes("pay-setting-get")) return settings[Math.min(turn++, settings.length - 1)]();
    return envelope(200, {});
  });
  vi.stubGlobal("fetch", fetch);
  return sent;
}

function renderScreen() {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AntdRoot>
      <QueryClientProvider client={queries}>
        <PaymentSettings />
      </QueryClientProvider>
    </AntdRoot>,
  );
  return queries;
}

const STORED = {
  version: 3,
  social_wallet_enabled: 0,
  online_wallet_enabled: 0,
  regional_enabled: 0,
  provider_a_enabled: 1,
  provider_a_mch_id: "880010023",
  provider_a_secret: "",
  provider_b_enabled: 0,
};

describe("payment settings screen", () => {
  it("says a failed load in words with a retry, and keeps the settings when a refresh fails", async () => {
    const down = () => envelope(500, null, "Internal error");
    serve(down, () => envelope(200, STORED), down);
    const queries = renderScreen();
    // English as the locale files have it (written here, apart from the screen).
    await screen.findByText("The server had a problem");
    await userEvent.click(screen.getByRole("button", { name: /Retry/ }));
    const merchant = await screen.findByDisplayValue("880010023");
    // A refresh that fails: the settings stay, the failure is said above them, with a retry.
    await act(() => queries.refetchQueries({ queryKey: ["pay-setting-get"] }));
    await screen.findByText("The server had a problem");
    expect(merchant.isConnected).toBe(true);
    expect(screen.getByRole("button", { name: /Retry/ }).isConnected).toBe(true);
  });

  it("asks for a provider's fields while it is switched on, and for nothing once it is off", async () => {
    const sent = serve(() => envelope(200, STORED));
    renderScreen();
    await screen.findByDisplayValue("880010023");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await screen.findByText("Provider A secret is required while “Provider A in use” is on");
    expect(sent.some((s) => s.url.includes("pay-setting-set"))).toBe(false);
    // Switched off: the secret is no longer asked for, and the save goes.
    await userEvent.click(screen.getByRole("switch", { name: "Provider A in use" }));
    await waitFor(() =>
      expect(screen.queryByText("Provider A secret is required while “Provider A in use” is on")).toBeNull(),
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent.find((s) => s.url.includes("pay-setting-set"))).toBeDefined());
    expect(sent.find((s) => s.url.includes("pay-setting-set"))!.body).toMatchObject({
      version: 3,
      provider_a_enabled: 0,
    });
  });
});

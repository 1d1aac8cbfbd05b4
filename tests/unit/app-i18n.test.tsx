// @vitest-environment jsdom
// src/app/i18n.ts and translation-loader.ts: a language's namespace that failed to arrive is fetched
// again, so its words replace the raw keys on screen without a reload: at once by i18next's own retries
// after a blip, or when the network is back (the browser's "online", or the next call that succeeds).
import { act, render, screen } from "@testing-library/react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { describe, expect, it } from "vitest";
import { initI18n, retryFailedTranslations } from "../../src/app/i18n.ts";
import { localeFetch } from "./dom-setup.ts";

/** A fetch whose calls for one file fail while `down` says so (or its first `failures` times), counted. */
function flakyFetch(file: string, failures = Infinity) {
  const state = {
    down: true,
    calls: 0,
    fetch: async (url: string) => {
      if (url.includes(file)) {
        state.calls++;
        if (state.down && state.calls <= failures) throw new TypeError("Failed to fetch");
      }
      return localeFetch(url);
    },
  };
  return state;
}

function SaveButton() {
  const { t } = useTranslation("common");
  return <button>{t("actions.save")}</button>;
}

describe("translations that failed to arrive", () => {
  it("are fetched again at once when a fetch fails once then succeeds", async () => {
    localStorage.setItem("lang", "en");
    const network = flakyFetch("locales/en/common.json", 1);
    const instance = await initI18n(["common"], {
      fetch: network.fetch,
      retryWait: 1,
      instance: i18next.createInstance(),
    });
    expect(network.calls).toBe(2);
    expect(instance.t("common:actions.save")).toBe("Save");
  });

  it("show their words in place of the keys once the network is back, without a reload", async () => {
    localStorage.setItem("lang", "th");
    const network = flakyFetch("locales/th/common.json");
    const english = flakyFetch("locales/en/common.json");
    const instance = await initI18n(["common"], {
      fetch: async (url) => (url.includes("/th/") ? network.fetch(url) : english.fetch(url)),
      retryWait: 1,
      instance: i18next.createInstance(),
    });
    // The first fetch and i18next's three retries all failed: the key is on screen.
    expect(network.calls).toBe(4);
    render(<SaveButton />);
    expect(screen.getByRole("button").textContent).toBe("actions.save");

    // Back online: the Thai words replace the key.
    network.down = false;
    english.down = false;
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    expect(await screen.findByRole("button", { name: "บันทึก" })).toBeTruthy();
    expect(instance.t("common:actions.save")).toBe("บันทึก");
    expect(network.calls).toBe(5);

    // Nothing is left to fetch: a later call that succeeds asks for nothing.
    retryFailedTranslations();
    expect(network.calls).toBe(5);
  });
});

// @vitest-environment jsdom
// src/crud/list/view-picker.tsx: only an agent is offered sharing a view, in "Save view" and on its own
// view's actions; an operator or an outlet manager (whom the server refuses sharing) is offered neither.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clearSession, saveSession, type Session } from "../../src/app/session.ts";
import type { SavedViewsState, StoredView } from "../../src/crud/list/saved-views.ts";
import { ViewPicker } from "../../src/crud/list/view-picker.tsx";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n } from "./dom-setup.ts";

let common: Record<string, Record<string, string>>;
beforeAll(async () => {
  const i18n = await setupI18n(["common"]);
  common = i18n.getResourceBundle("en", "common") as typeof common;
});
afterAll(() => clearSession());

const signInAs = (kind: Session["user"]["kind"]) =>
  saveSession({
    token: "test-token",
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    user: { id: 3, kind, nickname: kind, account: kind, agent_id: 2, is_admin: false },
    permissions: [],
    menu: [],
  } as Session);

const own: StoredView = {
  id: 1,
  version: 1,
  name: "Mine",
  list: "shop_list",
  filters: {},
  sort: null,
  columns: [],
  page_size: 10,
  is_default: false,
  shared: false,
  mine: true,
};
const state = (): SavedViewsState => ({
  views: [own],
  loading: false,
  current: own,
  choose: vi.fn(),
  save: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
});

describe("the view picker's share switch", () => {
  for (const [kind, offered] of [
    ["agent", true],
    ["operator", false],
    ["manager", false],
  ] as const)
    it(`is ${offered ? "" : "not "}offered to ${kind === "manager" ? "an outlet manager" : `an ${kind}`}`, async () => {
      signInAs(kind);
      const user = userEvent.setup();
      render(
        <AntdRoot>
          <ViewPicker state={state()} snapshot={() => ({})} phone={false} />
        </AntdRoot>,
      );
      await user.click(screen.getByRole("button", { name: common.views.save }));
      const dialog = await screen.findByRole("dialog");
      expect(within(dialog).getByRole("checkbox", { name: common.views.makeDefault })).toBeTruthy();
      expect(within(dialog).queryByRole("checkbox", { name: common.views.share }) !== null).toBe(offered);
      await user.click(within(dialog).getByRole("button", { name: common.actions.cancel }));
      // Closed and gone, so the words below are the menu's alone.
      await waitFor(() => expect(screen.queryByText(common.views.makeDefault)).toBeNull());

      await user.click(screen.getByRole("button", { name: common.views.more }));
      // The menu's items by their words (its popup is not yet shown to roles while it opens, in jsdom).
      await screen.findByText(common.views.delete);
      expect(screen.queryByText(common.views.share) !== null).toBe(offered);
    });
});

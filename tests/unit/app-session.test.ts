// @vitest-environment jsdom
// src/app/session.ts: what survives a logout, and when a stored session counts.
import { beforeEach, describe, expect, it } from "vitest";
import {
  clearSession,
  currentSession,
  saveSession,
  saveTabs,
  saveVersion,
  storedTabs,
  storedVersion,
  token,
  type Session,
} from "../../src/app/session.ts";

const session = (expiresIn = 3_600_000): Session => ({
  token: "tok-123",
  expires_at: new Date(Date.now() + expiresIn).toISOString(),
  user: { id: 1, kind: "agent", nickname: "Admin", account: "admin", agent_id: 1, is_admin: true },
  permissions: ["goods.list"],
  menu: [],
});

beforeEach(() => localStorage.clear());

describe("clearSession", () => {
  it("keeps the version and the language, removes the token, session and tabs", () => {
    saveSession(session());
    saveTabs([{ path: "/goods/list", route: "goods_list" }]);
    saveVersion("1.2.3");
    localStorage.setItem("lang", "zh");

    clearSession();

    expect(token()).toBeNull();
    expect(currentSession()).toBeUndefined();
    expect(storedTabs()).toEqual([]);
    expect(localStorage.getItem("merchant_session")).toBeNull();
    expect(localStorage.getItem("tabs")).toBeNull();
    expect(storedVersion()).toBe("1.2.3");
    expect(localStorage.getItem("lang")).toBe("zh");
    expect(localStorage.length).toBe(2);
  });

  it("does not invent a version or language that was never stored", () => {
    saveSession(session());
    clearSession();
    expect(localStorage.length).toBe(0);
  });
});

describe("currentSession", () => {
  it("answers the saved session while it is valid", () => {
    saveSession(session());
    expect(currentSession()?.permissions).toEqual(["goods.list"]);
    expect(token()).toBe("tok-123");
  });

  it("answers nothing once it has expired or without a token", () => {
    saveSession(session(-1000));
    expect(currentSession()).toBeUndefined();
    saveSession(session());
    localStorage.removeItem("merchant_token");
    expect(currentSession()).toBeUndefined();
  });

  it("answers nothing for a damaged record", () => {
    saveSession(session());
    localStorage.setItem("merchant_session", "{not json");
    expect(currentSession()).toBeUndefined();
  });
});

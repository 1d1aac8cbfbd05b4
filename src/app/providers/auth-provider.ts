// Refine's auth provider: login stores the session from POST login, logout (or a 401 from any call)
// clears local storage except the stored version and language, and the guard needs only a token.
import type { AuthProvider } from "@refinedev/core";
import { api, ApiError } from "../api.ts";
import { clearSession, currentSession, saveSession, token } from "../session.ts";
import { recordVersion } from "../version-check.ts";

export const authProvider: AuthProvider = {
  async login({ account, password }: { account: string; password: string }) {
    try {
      const session = await api("login", { method: "POST", body: { account, password } });
      saveSession(session);
      await recordVersion();
      return { success: true, redirectTo: "/" };
    } catch (error) {
      return { success: false, error: error as Error };
    }
  },

  async logout() {
    // The server revokes the token; the console forgets it even when the server cannot be reached.
    if (token()) await api("logout", { method: "POST", body: {} }).catch(() => undefined);
    clearSession();
    return { success: true, redirectTo: "/login" };
  },

  async check() {
    return currentSession() ? { authenticated: true } : { authenticated: false, logout: true, redirectTo: "/login" };
  },

  async onError(error: unknown) {
    if (error instanceof ApiError && error.statusCode === 401) {
      clearSession();
      return { logout: true, redirectTo: "/login", error };
    }
    return {};
  },

  async getPermissions() {
    return currentSession()?.permissions ?? [];
  },

  async getIdentity() {
    return currentSession()?.user ?? null;
  },
};

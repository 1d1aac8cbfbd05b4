// SPEC §2's version check. On navigation the console asks the server for its version; when the
// server says an update is pending (can_update 1) the expected version is the latest one, otherwise
// the installed version's digits joined with dots. If it differs from the version stored on this
// browser, the new one is recorded and the user is logged out. Login records it first, so a fresh
// session is not thrown out; configured test hosts skip the check.
import type { VersionCheckAnswer } from "../generated/types.ts";
import { api } from "./api.ts";
import { saveVersion, storedVersion } from "./session.ts";
import { checkForNewCode } from "./web-app.ts";

/** Hosts that skip the check: VITE_VERSION_CHECK_SKIP_HOSTS, comma-separated. */
const SKIP_HOSTS = new Set(
  String(import.meta.env.VITE_VERSION_CHECK_SKIP_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim())
    .filter(Boolean),
);

export const expectedVersion = (answer: VersionCheckAnswer): string =>
  answer.can_update === 1 && answer.latest ? answer.latest : answer.digits.join(".");

export const versionCheckSkipped = (host = location.hostname): boolean => SKIP_HOSTS.has(host);

/** Records the server's version after login. */
export async function recordVersion(): Promise<void> {
  const answer = await api("version-check").catch(() => undefined);
  if (answer) saveVersion(expectedVersion(answer));
}

/** True when the stored version is stale: the new one is recorded and the caller logs out. */
export async function versionChanged(): Promise<boolean> {
  if (versionCheckSkipped()) return false;
  const answer = await api("version-check").catch(() => undefined);
  if (!answer) return false; // offline: the next navigation asks again
  const expected = expectedVersion(answer);
  if (storedVersion() === expected) return false;
  saveVersion(expected);
  checkForNewCode();
  return true;
}

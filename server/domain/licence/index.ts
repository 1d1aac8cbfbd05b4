// The serial service (SPEC §7: affirmSecretKey, saveSecretKey, sn, checksn) and the licence it holds.
// The secret key the vendor gave with the system, the installed serial number and the installation's id
// live in sys_state; without a serial number that counts the system runs a trial of TRIAL_DAYS from its
// installation (its first migration). A serial number counts when one of the trusted public keys signed
// it (serial.ts: the vendor's, built in, unless the composition root is given others), for this
// installation's id and for the saved key's fingerprint. Once the licence has ended, every call but
// signing in and out, the site's name, the version calls and these answers 402 (assertLicensed, from the
// composition root's request hook) and the console shows the expired page.
import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { sqlOf } from "../../entities/context.ts";
import { badRequest, HttpError } from "../../core/errors.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { defineArea } from "../area.ts";
import { issueSerial, keyFingerprint, publicKeys, readSerial, type LicenceKeys, type Serial } from "./serial.ts";
import { VENDOR_PUBLIC_KEYS } from "./vendor-key.ts";
import * as store from "./licence-store.ts";
import type { ChecksnAnswer } from "../../../src/generated/types.ts";

export { issueSerial, keyFingerprint, VENDOR_PUBLIC_KEYS, type LicenceKeys };

declare module "fastify" {
  interface FastifyInstance {
    /** The public keys serial numbers are checked with (buildApp's licenceKeys, by default the vendor's). */
    licenceKeys: LicenceKeys;
  }
}

export const TRIAL_DAYS = 30;
const DAY = 86_400_000;
/** How long a process trusts what it last read: another process's new serial counts within this. */
export const LICENCE_REFRESH_MS = 30_000;
const KEY = "licence:secret_key";
const SERIAL = "licence:serial";
/** This installation's id, made once per database; serial numbers are issued for it. */
const INSTALLATION = "licence:installation";

/** The calls an expired system still answers: signing in and out, the login page, versions, the licence. */
export const UNLICENSED_CALLS = new Set([
  "login",
  "logout",
  "setting-no",
  "version-check",
  "version-upgrade",
  "openapi.json",
  "affirmSecretKey",
  "saveSecretKey",
  "sn",
  "checksn",
]);

/** The keys the composition root trusts: the ones given (Ed25519 public keys only), else the vendor's. */
export const licenceKeysOf = (keys: LicenceKeys = VENDOR_PUBLIC_KEYS): LicenceKeys => publicKeys(keys);

/** The licence as checksn, sn and saveSecretKey answer it (their answer schemas, one generated type). */
export type LicenceStatus = ChecksnAnswer;

interface Stored {
  key?: string;
  serial?: string;
  installation?: string;
  installed: number;
}

async function stored(db: Queryable): Promise<Stored> {
  const rows = await store.stateValues(db, [KEY, SERIAL, INSTALLATION]);
  const value = (key: string) => {
    const found = rows.find((r) => r.key === key)?.value;
    return typeof found === "string" ? found : undefined;
  };
  const first = await store.firstMigrationAt(db);
  const installed = first ? new Date(first).getTime() : Date.now();
  return { key: value(KEY), serial: value(SERIAL), installation: value(INSTALLATION), installed };
}

/**
 * Gives the database `id` as its installation's id unless it has one already, and answers the one it has:
 * made once, the same for every process (the first insert wins), never changed by any call.
 */
export async function adoptInstallation(db: Queryable, id: string): Promise<string> {
  await store.putStateOnce(db, INSTALLATION, id);
  const value = await store.stateValue(db, INSTALLATION);
  if (typeof value !== "string") throw new Error(`licence: ${INSTALLATION} is not an id`);
  return value;
}

/** This installation's id, made (at random) on first need. */
const installationOf = async (db: Queryable, known?: string): Promise<string> =>
  known ?? adoptInstallation(db, randomUUID());

/** The installed serial number when it counts here: signed with a trusted key, for this installation and key. */
function installedSerial({ key, serial, installation }: Stored, keys: LicenceKeys): Serial | undefined {
  if (!key || !serial || !installation) return undefined;
  const read = readSerial(keys, serial);
  return read && read.installation === installation && read.key_sha256 === keyFingerprint(key) ? read : undefined;
}

const untilOf = (state: Stored, read: Serial | undefined) =>
  read ? Date.parse(read.valid_until) : state.installed + TRIAL_DAYS * DAY;

/** The licence as it stands: the installed serial number if it counts here, else the trial. */
export async function licenceStatus(
  db: Queryable,
  keys: LicenceKeys = VENDOR_PUBLIC_KEYS,
  now = Date.now(),
): Promise<LicenceStatus> {
  const state = await stored(db);
  const installation = await installationOf(db, state.installation);
  const read = installedSerial({ ...state, installation }, keys);
  const until = untilOf(state, read);
  return {
    state: until <= now ? "expired" : read ? "licensed" : "trial",
    licensee: read?.licensee ?? null,
    valid_until: new Date(until).toISOString(),
    days_left: Math.ceil((until - now) / DAY),
    key_saved: state.key ? 1 : 0,
    installation,
  };
}

/** The licence's state alone, read only (what `/readyz` says): `licenceStatus` without the installation made. */
export async function licenceState(
  db: Queryable,
  keys: LicenceKeys = VENDOR_PUBLIC_KEYS,
  now = Date.now(),
): Promise<LicenceStatus["state"]> {
  const state = await stored(db);
  const read = installedSerial(state, keys);
  return untilOf(state, read) <= now ? "expired" : read ? "licensed" : "trial";
}

// Per database and keys: when a running licence ends, as last read, and when that was; a request then
// costs a comparison. An ended one is read again on every request, so a serial number installed counts at once.
const known = new WeakMap<Db, Map<LicenceKeys, { until: number; readAt: number }>>();

/** Refuses with 402 once the licence has ended (a serial number counts when one of `keys` signed it). */
export async function assertLicensed(db: Db, keys: LicenceKeys = VENDOR_PUBLIC_KEYS): Promise<void> {
  const now = Date.now();
  let byKeys = known.get(db);
  let entry = byKeys?.get(keys);
  if (!entry || now - entry.readAt > LICENCE_REFRESH_MS) {
    // Read only: the installation's id is made by the serial service's calls, not by any request.
    const state = await stored(db);
    entry = { until: untilOf(state, installedSerial(state, keys)), readAt: now };
    if (!byKeys) known.set(db, (byKeys = new Map()));
    if (entry.until > now) byKeys.set(keys, entry);
    else byKeys.delete(keys);
  }
  if (now >= entry.until) throw new HttpError(402, "common:messages.systemExpired");
}

/** This process reads the licence again on the next request (after a change made here or by hand). */
export const forgetLicence = (db: Db): void => void known.delete(db);

const put = (db: Queryable, key: typeof KEY | typeof SERIAL, value: string): Promise<void> =>
  store.putState(db, key, value);

/** Saves the key and installs a serial number in one go (the demo seed). */
export async function installLicence(db: Queryable, key: string, serial: string): Promise<void> {
  await put(db, KEY, key);
  await put(db, SERIAL, serial);
}

/** The keys the app that took the request trusts. */
const keysOf = (request: FastifyRequest): LicenceKeys => request.server.licenceKeys ?? VENDOR_PUBLIC_KEYS;

export const licence = defineArea({
  name: "licence",
  handlers: {
    async affirmSecretKey({ ctx }) {
      const db = sqlOf(ctx);
      const state = await stored(db);
      return { key_saved: state.key ? 1 : 0, installation: await installationOf(db, state.installation) };
    },
    async saveSecretKey({ ctx, input, request }) {
      const db = sqlOf(ctx);
      await put(db, KEY, input.secret_key);
      forgetLicence(ctx.db);
      return licenceStatus(db, keysOf(request));
    },
    async sn({ ctx, input, request }) {
      const db = sqlOf(ctx);
      const keys = keysOf(request);
      const state = await stored(db);
      if (!state.key) throw badRequest([fieldMessage("sn", "serialNoKey", ctx.lng)]);
      const read = readSerial(keys, input.sn);
      if (!read) throw badRequest([fieldMessage("sn", "serialInvalid", ctx.lng)]);
      const installation = await installationOf(db, state.installation);
      if (read.installation !== installation)
        throw badRequest([fieldMessage("sn", "serialOtherInstallation", ctx.lng, { installation })]);
      if (read.key_sha256 !== keyFingerprint(state.key))
        throw badRequest([fieldMessage("sn", "serialOtherKey", ctx.lng)]);
      if (Date.parse(read.valid_until) <= Date.now())
        throw badRequest([fieldMessage("sn", "serialExpired", ctx.lng, { date: read.valid_until.slice(0, 10) })]);
      await put(db, SERIAL, input.sn.trim());
      forgetLicence(ctx.db);
      return licenceStatus(db, keys);
    },
    async checksn({ ctx, request }) {
      return licenceStatus(sqlOf(ctx), keysOf(request));
    },
  },
});

// The serial service (SPEC §7: affirmSecretKey, saveSecretKey, sn, checksn) and the licence it holds.
// The vendor's secret key and the installed serial number live in sys_state; without a serial number
// the system runs a trial of TRIAL_DAYS from its installation (its first migration). Once the licence
// has ended, every call but signing in and out, the site's name, the version calls and these answers
// 402 (assertLicensed, from the composition root's request hook) and the console shows the expired page.
import type { Db, Queryable } from "../../db/db.ts";
import { sqlOf } from "../../entities/context.ts";
import { badRequest, HttpError } from "../../http/errors.ts";
import { fieldMessage } from "../../entities/validation.ts";
import { defineArea } from "../area.ts";
import { issueSerial, readSerial } from "./serial.ts";
import type { ChecksnAnswer } from "../../../src/generated/types.ts";

export { issueSerial };

export const TRIAL_DAYS = 30;
const DAY = 86_400_000;
/** How long a process trusts what it last read: another process's new serial counts within this. */
const REFRESH_MS = 30_000;
const KEY = "licence:secret_key";
const SERIAL = "licence:serial";

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

/** The licence as checksn, sn and saveSecretKey answer it (their answer schemas, one generated type). */
export type LicenceStatus = ChecksnAnswer;

async function stored(db: Queryable): Promise<{ key?: string; serial?: string; installed: number }> {
  const { rows } = await db.query<{ key: string; value: string }>(
    `select key, value from sys_state where key in ($1, $2)`,
    [KEY, SERIAL],
  );
  const value = (key: string) => rows.find((r) => r.key === key)?.value;
  const first = await db.query<{ at: Date | null }>(`select min(at) as at from sys_migration`);
  const installed = first.rows[0]?.at ? new Date(first.rows[0].at).getTime() : Date.now();
  return { key: value(KEY), serial: value(SERIAL), installed };
}

/** The licence as it stands: the installed serial number if the saved key signed it, else the trial. */
export async function licenceStatus(db: Queryable, now = Date.now()): Promise<LicenceStatus> {
  const { key, serial, installed } = await stored(db);
  const read = key && serial ? readSerial(key, serial) : undefined;
  const until = read ? Date.parse(read.valid_until) : installed + TRIAL_DAYS * DAY;
  return {
    state: until <= now ? "expired" : read ? "licensed" : "trial",
    licensee: read?.licensee ?? null,
    valid_until: new Date(until).toISOString(),
    days_left: Math.ceil((until - now) / DAY),
    key_saved: key ? 1 : 0,
  };
}

// Per database: when a running licence ends, as last read, and when that was; a request then costs a
// comparison. An ended one is read again on every request, so a serial number installed counts at once.
const known = new WeakMap<Db, { until: number; readAt: number }>();

/** Refuses with 402 once the licence has ended. */
export async function assertLicensed(db: Db): Promise<void> {
  const now = Date.now();
  let entry = known.get(db);
  if (!entry || now - entry.readAt > REFRESH_MS) {
    entry = { until: Date.parse((await licenceStatus(db, now)).valid_until), readAt: now };
    if (entry.until > now) known.set(db, entry);
    else known.delete(db);
  }
  if (now >= entry.until) throw new HttpError(402, "common:messages.systemExpired");
}

/** This process reads the licence again on the next request (after a change made here or by hand). */
export const forgetLicence = (db: Db): void => void known.delete(db);

async function put(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    `insert into sys_state (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [key, JSON.stringify(value)],
  );
}

/** Saves the key and installs a serial number in one go (the demo seed, tests). */
export async function installLicence(db: Queryable, key: string, serial: string): Promise<void> {
  await put(db, KEY, key);
  await put(db, SERIAL, serial);
}

export const licence = defineArea({
  name: "licence",
  handlers: {
    async affirmSecretKey({ ctx }) {
      const { key } = await stored(sqlOf(ctx));
      return { key_saved: key ? 1 : 0 };
    },
    async saveSecretKey({ ctx, input }) {
      const db = sqlOf(ctx);
      await put(db, KEY, input.secret_key);
      forgetLicence(ctx.db);
      return licenceStatus(db);
    },
    async sn({ ctx, input }) {
      const db = sqlOf(ctx);
      const { key } = await stored(db);
      if (!key) throw badRequest([fieldMessage("sn", "serialNoKey", ctx.lng)]);
      const read = readSerial(key, input.sn);
      if (!read) throw badRequest([fieldMessage("sn", "serialInvalid", ctx.lng)]);
      if (Date.parse(read.valid_until) <= Date.now())
        throw badRequest([fieldMessage("sn", "serialExpired", ctx.lng, { date: read.valid_until.slice(0, 10) })]);
      await put(db, SERIAL, input.sn.trim());
      forgetLicence(ctx.db);
      return licenceStatus(db);
    },
    async checksn({ ctx }) {
      return licenceStatus(sqlOf(ctx));
    },
  },
});

// The demo's devices at work: while the server runs on the demo data, the devices the seed made online
// report every minute, as real ones do over their own channel (which this console does not serve), so
// their live state (server/db/live.ts) stays online instead of every device going offline ten minutes
// after the seed. Nothing reports on a database the demo seed did not make, and a device whose hardware
// was unbound, or that was deleted, stops reporting.
import type { Queryable } from "../db/db.ts";

export const REPORT_EVERY_MS = 60_000;

/** One round of reports: the demo's reporting devices say they are there now. Answers how many did. */
export async function reportDemoDevices(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `update "machine" set last_report_at = now()
      where id in (select jsonb_array_elements_text(value::jsonb)::bigint from sys_state where key = 'demo:reporting')
        and deleted_at is null and mac_id is not null
      returning id`,
  );
  return rows.length;
}

/** Reports now and every minute until stopped; nothing when the database holds no demo devices. */
export async function startDemoDevices(db: Queryable): Promise<() => void> {
  const reported = await reportDemoDevices(db);
  if (reported === 0) return () => undefined;
  const timer = setInterval(() => void reportDemoDevices(db).catch(() => undefined), REPORT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

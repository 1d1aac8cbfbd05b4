// The uploads' statements (issue 28, step 4: a handler reads validate → store → answer): the record of
// each stored file in sys_upload (who uploaded it, whose daily quota it counts against, its size, whether
// it is private), the quota's reservations, the sweep's reads and removals, and the payment settings that
// the certificates are read with. The quota's rule is part of the statement that reserves room in it, under
// the branch's lock, so uploads arriving together cannot pass it together.
import type { EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { modelOf } from "../../model/model.ts";

/** A quota reservation's row in sys_upload, until its file is stored under its own path. */
export const RESERVED = "reserved:";

/** What a reservation asks for: its row's path, the uploader, the quota's owner and the bytes wanted. */
export interface Reservation {
  path: string;
  agentId: number;
  quotaId: number;
  bytes: number;
  /** The bytes are what the request announces (else what is left of the quota up to them is taken). */
  announced: boolean;
  isPrivate: boolean;
}

/**
 * Reserves room in the quota owner's daily quota, and one file, under the owner's lock (until the
 * transaction ends): all the bytes when announced and they fit, else what is left up to them. Answers the
 * bytes set aside, or nothing when the quota is full.
 */
export async function reserve(
  tx: Queryable,
  reservation: Reservation,
  quota: { bytesPerDay: number; filesPerDay: number },
): Promise<number | undefined> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('upload-quota'), $1::int)`, [reservation.quotaId % 2 ** 31]);
  const { rows } = await tx.query<{ size: string }>(
    `insert into sys_upload (path, agent_id, quota_id, size, private)
         select $1, $2::bigint, $3::bigint, least($4::bigint, $6::bigint - used.bytes), $5::boolean
           from (select coalesce(sum(size), 0) as bytes, count(*) as files
                   from sys_upload where quota_id = $3 and at > now() - interval '1 day') as used
          where used.files < $7::bigint
            and case when $8::boolean then used.bytes + $4::bigint <= $6::bigint else used.bytes < $6::bigint end
         returning size::text`,
    [
      reservation.path,
      reservation.agentId,
      reservation.quotaId,
      reservation.bytes,
      reservation.isPrivate,
      quota.bytesPerDay,
      quota.filesPerDay,
      reservation.announced,
    ],
  );
  return rows[0] ? Number(rows[0].size) : undefined;
}

/** A stored file takes its reservation's place, at its real size; false when the reservation is gone. */
export async function takeReservation(db: Queryable, reserved: string, path: string, size: number): Promise<boolean> {
  const { rows } = await db.query(
    `update sys_upload set path = $2, size = $3, at = now() where path = $1 returning path`,
    [reserved, path, size],
  );
  return rows.length > 0;
}

/** Gives a reservation's room back (the row of a file stored under its own path is not touched). */
export async function release(db: Queryable, path: string): Promise<void> {
  await db.query(`delete from sys_upload where path = $1`, [path]);
}

/** Gives back the room of reservations more than an hour old: uploads that never ended (a server stopped). */
export async function dropStaleReservations(db: Queryable): Promise<void> {
  await db.query(`delete from sys_upload where path like '${RESERVED}%' and at < now() - interval '1 hour'`);
}

/** The stored files recorded longer ago than the hours given, oldest first: those a sweep may remove. */
export async function sweepCandidates(db: Queryable, olderThanHours: number): Promise<string[]> {
  const { rows } = await db.query<{ path: string }>(
    `select path from sys_upload where at < now() - make_interval(hours => $1) and path not like '${RESERVED}%' order by at`,
    [olderThanHours],
  );
  return rows.map((row) => row.path);
}

/** The values (as text) a column holds, those that are not null: where upload addresses are looked for. */
export async function columnValues(db: Queryable, table: string, column: string): Promise<string[]> {
  const { rows } = await db.query<{ v: string }>(
    `select ${q(column)}::text as v from ${q(table)} where ${q(column)} is not null`,
  );
  return rows.map((row) => row.v);
}

/**
 * Removes a stored file's record if it is still older than the hours given; answers whether the file was
 * private, or nothing when another sweep removed it first.
 */
export async function removeRecord(
  db: Queryable,
  path: string,
  olderThanHours: number,
): Promise<{ private: boolean } | undefined> {
  const { rows } = await db.query<{ private: boolean }>(
    `delete from sys_upload where path = $1 and at < now() - make_interval(hours => $2) returning private`,
    [path, olderThanHours],
  );
  return rows[0];
}

/** The payment settings' merchant id of the social wallet, when it is set (the wallets lock their bundles with it). */
export async function walletMerchantId(db: Queryable): Promise<string | null | undefined> {
  const { rows } = await db.query<{ id: string | null }>(
    `select social_wallet_mch_id as id from ${q("payment_setting")} limit 1`,
  );
  return rows[0]?.id;
}

/** The payment settings, as stored (their certificates' fields hold the files' private addresses). */
export async function paymentSettings(db: Queryable): Promise<EntityRecord<"payment_setting"> | undefined> {
  const { rows } = await db.query<EntityRecord<"payment_setting">>(
    `select * from ${q(modelOf("payment_setting").table)} limit 1`,
  );
  return rows[0];
}

// What every step of the demo seed works with: the deterministic randomness, the seed's context (its
// transaction, its PRNG and its clock), inserting typed rows, and the platform admin's context for the
// server's own money functions.
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import type { TxCtx } from "../../entities/context.ts";
import { money as moneyArea } from "../../domain/money/index.ts";
import type { Rows } from "./rows.ts";

export const DAY = 86_400_000;
/** Orders, payments and withdrawals cover this many days back from now. */
export const ORDER_DAYS = 90;

// ---------------------------------------------------------------- deterministic randomness

function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    chance: (p: number): boolean => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      let r = next() * items.reduce((s, [, w]) => s + w, 0);
      for (const [item, w] of items) if ((r -= w) < 0) return item;
      return items[items.length - 1][0];
    },
    digits: (n: number): string => Array.from({ length: n }, () => String(int(0, 9))).join(""),
    hex: (n: number): string => Array.from({ length: n }, () => "0123456789ABCDEF"[int(0, 15)]).join(""),
    /** k distinct items, in a stable shuffled order. */
    sample: <T>(items: readonly T[], k: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, Math.min(k, copy.length));
    },
  };
}
export type Rng = ReturnType<typeof prng>;

// ---------------------------------------------------------------- the seed's context

/**
 * One seed at work. Every step draws from the one PRNG in turn, so the order of the steps, and of the
 * draws inside each, is part of the data: moving a draw changes every row after it.
 */
export interface Seed {
  tx: Queryable;
  rng: Rng;
  /** The anchor: the only thing that differs between two seeds. */
  now: Date;
  nowMs: number;
  /** `days` before now; given the PRNG, a random number of seconds (under a day) earlier still. */
  ago: (days: number, rng?: Rng) => Date;
  log: (line: string) => void;
  /** Orders to make over the last ORDER_DAYS days. */
  orders: number;
  /** The demo passwords' hashes (hashing is slow by design: once per password). */
  hashes: { admin: string; demo: string };
}

/** A seed in the transaction, its PRNG at the demo's fixed seed. */
export function openSeed(tx: Queryable, options: Pick<Seed, "now" | "log" | "orders" | "hashes">): Seed {
  const nowMs = options.now.getTime();
  return {
    ...options,
    tx,
    rng: prng(20261121),
    nowMs,
    ago: (days, rng) => new Date(nowMs - days * DAY - (rng ? rng.int(0, DAY / 1000 - 1) * 1000 : 0)),
  };
}

export const dateOnly = (d: Date): string => d.toISOString().slice(0, 10);

/** Epoch seconds of 00:00 UTC on today's date in the business's home time zone (UTC+7). */
export function localDayStart(now: Date): number {
  const local = new Date(now.getTime() + 7 * 3600_000);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) / 1000;
}

export const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

// ---------------------------------------------------------------- inserting

const sqlValue = (v: unknown): unknown =>
  v instanceof Date ? v.toISOString() : v !== null && typeof v === "object" ? JSON.stringify(v) : v;

/** Inserts rows (missing keys take the column default), chunked; returns the new ids in row order. */
export async function insertMany<T extends keyof Rows>(tx: Queryable, table: T, rows: Rows[T][]): Promise<number[]> {
  if (rows.length === 0) return [];
  const records: readonly object[] = rows;
  const columns = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const perChunk = Math.max(1, Math.floor(30_000 / columns.length));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += perChunk) {
    const params: unknown[] = [];
    const tuples = records.slice(i, i + perChunk).map((row) => {
      const cells = columns.map((c) => {
        const value = (row as Record<string, unknown>)[c];
        if (value === undefined) return "default";
        params.push(sqlValue(value));
        return `$${params.length}`;
      });
      return `(${cells.join(", ")})`;
    });
    const { rows: out } = await tx.query<{ id: number }>(
      `insert into ${q(table)} (${columns.map(q).join(", ")}) values ${tuples.join(", ")} returning id`,
      params,
    );
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

export async function insertOne<T extends keyof Rows>(tx: Queryable, table: T, row: Rows[T]): Promise<number> {
  return (await insertMany(tx, table, [row]))[0];
}

/** Sets a key of sys_state, the system's own values beside the entities. */
export async function setState(tx: Queryable, key: string, value: unknown): Promise<void> {
  await tx.query(
    `insert into sys_state (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [key, JSON.stringify(value)],
  );
}

// ---------------------------------------------------------------- the money functions' caller

/** The platform admin's context inside the seed's transaction, with the money area's side effects. */
export function adminContext(tx: Queryable, admin: { id: number; path: string }): TxCtx {
  return {
    db: undefined as never, // every call of the seed uses the transaction
    tx,
    lng: "en",
    principal: {
      kind: "agent",
      id: admin.id,
      agentId: admin.id,
      agentPath: admin.path,
      isAdmin: true,
      permissions: new Set(),
      name: "admin",
      account: "admin",
    },
    domain: { hooks: new Map(), effects: new Map(Object.entries(moneyArea.effects ?? {})) },
  };
}

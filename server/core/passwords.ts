// Passwords: scrypt with OWASP's parameters (N=2^17, r=8, p=1), each hash recording its own, and the
// bound on how many are worked out at once (each takes a libuv thread and 128 MiB).
import { scrypt as scryptCb, randomBytes, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { HttpError } from "./errors.ts";
import { watchHashing } from "./metrics.ts";

/** OWASP's scrypt parameters; SCRYPT_N lowers the cost for tests only (each hash records its own). */
const scryptParams = () => ({ N: Number(process.env.SCRYPT_N ?? 2 ** 17), r: 8, p: 1 });

/**
 * Hashing is bounded: at most `concurrency` hashes at once (each takes a libuv thread and 128 MiB; the
 * other threads stay free for files and the database), at most `queue` waiting; past that the call is
 * refused with 503 rather than queued without end. Tests lower the figures.
 */
export const HASHING = { concurrency: 2, queue: 32 };
let hashing = 0;
const waiting: (() => void)[] = [];
watchHashing(() => ({ busy: hashing, queued: waiting.length }));

export async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (hashing >= HASHING.concurrency) {
    if (waiting.length >= HASHING.queue) throw new HttpError(503, "busy");
    await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing hash hands its slot over
  } else hashing++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return withHashSlot(() => scryptNow(password, salt, options));
}

function scryptNow(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, 32, { ...options, maxmem: 256 * options.N! * options.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = scryptParams();
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = (stored ?? "").split("$");
  if (scheme !== "scrypt" || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

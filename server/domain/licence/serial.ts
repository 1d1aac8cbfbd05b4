// A serial number (the licence): who it is for and until when, signed with the secret key the vendor
// gives with the system (HMAC-SHA256). It is checked offline, against the saved key; whoever holds the
// key can issue one, as with the vendor's own serial service.
import { createHmac, timingSafeEqual } from "node:crypto";

const PREFIX = "VMS1";

export interface Serial {
  licensee: string;
  /** The instant the licence ends. */
  valid_until: string;
}

const sign = (key: string, payload: string) => createHmac("sha256", key).update(`${PREFIX}.${payload}`).digest();

/** A serial number for `serial`, signed with `key`. */
export function issueSerial(key: string, serial: Serial): string {
  const payload = Buffer.from(JSON.stringify(serial)).toString("base64url");
  return `${PREFIX}.${payload}.${sign(key, payload).toString("base64url")}`;
}

/** What a serial number says, when `key` signed it; undefined for anything else. */
export function readSerial(key: string, text: string): Serial | undefined {
  const [prefix, payload, signature, ...rest] = text.trim().split(".");
  if (prefix !== PREFIX || !payload || !signature || rest.length) return undefined;
  const given = Buffer.from(signature, "base64url");
  const expected = sign(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<Serial>;
    if (typeof body.licensee !== "string" || typeof body.valid_until !== "string") return undefined;
    if (Number.isNaN(Date.parse(body.valid_until))) return undefined;
    return { licensee: body.licensee, valid_until: new Date(body.valid_until).toISOString() };
  } catch {
    return undefined;
  }
}

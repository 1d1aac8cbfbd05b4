// A serial number (the licence): the vendor's statement that one installation of the system may run until
// a day. `VMS2.<payload>.<signature>`, both base64url: the payload is JSON { licensee, valid_until,
// installation, key_sha256 } (who it is for, when it ends, the id of the installation it was issued for,
// the SHA-256 of the secret key the vendor issued with it), the signature Ed25519 over "VMS2.<payload>".
// The system checks it offline against PUBLIC keys only (vendor-key.ts, or the ones the composition root
// is given); making one needs the vendor's private key, which never is in this repository (cli.ts).
// The HMAC serial numbers of old (VMS1), which whoever knew the key could make, are not serial numbers.
import { createHash, sign, verify, type KeyObject } from "node:crypto";

const PREFIX = "VMS2";
/** As the answers declare the licensee (schemas/operations/checksn.json), and the installation id. */
const MAX_TEXT = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SIGNATURE_BYTES = 64;

export interface Serial {
  licensee: string;
  /** The instant the licence ends. */
  valid_until: string;
  /** The installation it is for (licence:installation in sys_state). */
  installation: string;
  /** The SHA-256 (hex) of the secret key the vendor issued with it: keyFingerprint(key). */
  key_sha256: string;
}

/** The public keys serial numbers are checked with. */
export type LicenceKeys = readonly KeyObject[];

/** The secret key's fingerprint as a serial number carries it. */
export const keyFingerprint = (secretKey: string): string =>
  createHash("sha256").update(secretKey, "utf8").digest("hex");

const isEd25519 = (key: KeyObject, type: "public" | "private") =>
  key.type === type && key.asymmetricKeyType === "ed25519";

/** The keys, checked: Ed25519 public keys only, at least one (a private key is refused, never used). */
export function publicKeys(keys: LicenceKeys): LicenceKeys {
  if (!keys.length) throw new Error("licence: no public key to check serial numbers with");
  for (const key of keys)
    if (!isEd25519(key, "public")) throw new Error("licence: serial numbers are checked with Ed25519 public keys only");
  return Object.freeze([...keys]);
}

/** The payload as it must be, or undefined. */
function serialOf(body: unknown): Serial | undefined {
  if (!body || typeof body !== "object") return undefined;
  const { licensee, valid_until, installation, key_sha256 } = body as Partial<Record<keyof Serial, unknown>>;
  if (typeof licensee !== "string" || !licensee.trim() || licensee.length > MAX_TEXT) return undefined;
  if (typeof installation !== "string" || !installation || installation.length > MAX_TEXT) return undefined;
  if (typeof key_sha256 !== "string" || !SHA256_HEX.test(key_sha256)) return undefined;
  if (typeof valid_until !== "string" || Number.isNaN(Date.parse(valid_until))) return undefined;
  return { licensee, valid_until: new Date(valid_until).toISOString(), installation, key_sha256 };
}

/** A serial number for `serial`, signed with the vendor's Ed25519 private key (the vendor's tool; tests). */
export function issueSerial(privateKey: KeyObject, serial: Serial): string {
  if (!isEd25519(privateKey, "private"))
    throw new Error("licence: a serial number is signed with an Ed25519 private key");
  const body = serialOf(serial);
  if (!body) throw new Error("licence: a serial number needs a licensee, an end, an installation and a key's SHA-256");
  const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
  const signature = sign(null, Buffer.from(`${PREFIX}.${payload}`), privateKey);
  return `${PREFIX}.${payload}.${signature.toString("base64url")}`;
}

/** What a serial number says, when one of `keys` signed it; undefined for anything else. */
export function readSerial(keys: LicenceKeys, text: string): Serial | undefined {
  const [prefix, payload, signature, ...rest] = text.trim().split(".");
  if (prefix !== PREFIX || !payload || !signature || rest.length) return undefined;
  if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) return undefined;
  const given = Buffer.from(signature, "base64url");
  // One spelling per signature: no other text of the same bytes passes.
  if (given.length !== SIGNATURE_BYTES || given.toString("base64url") !== signature) return undefined;
  const signed = Buffer.from(`${PREFIX}.${payload}`);
  if (!keys.some((key) => isEd25519(key, "public") && verify(null, signed, key, given))) return undefined;
  try {
    return serialOf(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return undefined;
  }
}

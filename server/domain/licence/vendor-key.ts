// The vendor's public key, built into the system: a serial number counts only when the vendor signed it
// with the private half, which the vendor alone keeps (never in this repository, never on a customer's
// machine). Nothing a request, an environment variable or the database says adds a key; the tests give
// buildApp keys of their own (its licenceKeys option). A new pair: npm run licence -- --new-key-pair <dir>;
// its public key goes here (beside the old one while serial numbers signed with that still count).
import { createPublicKey } from "node:crypto";
import type { LicenceKeys } from "./serial.ts";

export const VENDOR_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEASQnR5tYBHscHdoc2xzQUHvapQeengmb4uElgEo6UP70=
-----END PUBLIC KEY-----
`;

/** The keys serial numbers are checked with, unless the composition root is given others. */
export const VENDOR_PUBLIC_KEYS: LicenceKeys = Object.freeze([createPublicKey(VENDOR_PUBLIC_KEY_PEM)]);

// Money is kept, sent and computed in minor units (MONEY_FACTOR of them to a currency unit); people read
// and type currency units. The one conversion, for the console (src/crud/format.ts) and the server.
import { MONEY_FACTOR } from "./constants.ts";

/** Minor units (what the server stores and sends) → currency units, and back. */
export const toMajor = (minor: number): number => minor / MONEY_FACTOR;
export const toMinor = (major: number): number => Math.round(major * MONEY_FACTOR);

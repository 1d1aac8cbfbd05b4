// Money on the server is kept and computed in minor units (MONEY_FACTOR of them to a currency unit, as
// in the console's src/crud/format.ts); a message or a file shows it in currency units.
import { MONEY_FACTOR } from "../../src/schema/constants.ts";

/** Minor units (as stored) → currency units: 1250 → 12.5. */
export const toMajor = (minor: number | string): number => Number(minor) / MONEY_FACTOR;

/** An amount as a message's parameter shows it, in currency units with two decimals: 1250 → "12.50". */
export const moneyText = (minor: number | string): string => toMajor(minor).toFixed(2);

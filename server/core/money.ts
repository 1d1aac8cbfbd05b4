// A message or a file shows money in currency units (the conversion is src/schema/money.ts, shared with
// the console); the server keeps and computes it in minor units.
import { toMajor } from "../../src/schema/money.ts";

export { toMajor };

/** An amount as a message's parameter shows it, in currency units with two decimals: 1250 → "12.50". */
export const moneyText = (minor: number): string => toMajor(minor).toFixed(2);

// A message shows money as an amount of the business's currency in the reader's language ("$12.50"), a
// file or a log line as a bare figure ("12.50"); both from src/schema/money.ts, shared with the console.
// The server keeps and computes money in minor units.
import { amountText, toMajor } from "../../src/schema/money.ts";

export { amountText, toMajor };

/** An amount as a file or a log line shows it, in currency units with two decimals: 1250 → "12.50". */
export const moneyText = (minor: number): string => toMajor(minor).toFixed(2);

// A number input with what its value is counted in beside it: the currency ("$", "៛") or a unit ("days",
// "/ kWh"), in the user's language (src/crud/format.ts), as lists and details show the same value.
import type { ReactNode } from "react";
import type { Affixes } from "../crud/format.ts";

export function Affixed({ affixes, children }: { affixes: Affixes; children: ReactNode }) {
  if (!affixes.before && !affixes.after) return children;
  return (
    <span className="input-affixed">
      {affixes.before && <span className="input-affix">{affixes.before}</span>}
      {children}
      {affixes.after && <span className="input-affix">{affixes.after}</span>}
    </span>
  );
}

/** Two affixes side by side: the currency's, then the unit's (an amount per kWh: "$", "/ kWh"). */
export function joinAffixes(first: Affixes, second: Affixes): Affixes {
  return {
    before: [first.before, second.before].filter(Boolean).join(" "),
    after: [first.after, second.after].filter(Boolean).join(" "),
  };
}

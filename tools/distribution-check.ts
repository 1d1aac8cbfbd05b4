// npm run distribution:check: lists the tables the distribution plan (server/db/distribution.ts) does not
// place, or places wrongly; exits 1 when there is any.
import { checkDistribution, DISTRIBUTION } from "../server/db/distribution.ts";

const problems = checkDistribution();
for (const { table, problem } of problems) console.log(`${table}: ${problem}`);
const kinds = Object.values(DISTRIBUTION).reduce<Record<string, number>>(
  (counts, placement) => ({ ...counts, [placement.kind]: (counts[placement.kind] ?? 0) + 1 }),
  {},
);
console.log(
  problems.length
    ? `${problems.length} problem(s) in the distribution plan`
    : `every table placed: ${Object.entries(kinds)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ")}`,
);
process.exit(problems.length ? 1 : 0);

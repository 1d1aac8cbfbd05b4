// npm run bench's fuzz figures: the fuzz suite's requests (tests/api/fuzz-gen.ts), many more of them,
// on a fresh in-memory database (or a throwaway schema of DATABASE_URL): requests sent and 5xx answers.
import { createTestApp } from "../api/helper.ts";
import { fuzzPool, runFuzz } from "../api/fuzz-gen.ts";

export async function benchFuzz(
  perCall: number,
  seed: number,
  log: (line: string) => void,
): Promise<[string, string][]> {
  process.env.SCRYPT_N ??= "1024";
  const t = await createTestApp();
  try {
    const report = await runFuzz(t, await fuzzPool(t), perCall, seed);
    const fivexx = [...report.statuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
    for (const problem of report.problems.slice(0, 20)) log(`  fuzz: ${problem}`);
    return [
      [`fuzz: requests sent (${report.calls} calls x 3 principals x ${perCall})`, report.sent.toLocaleString("en")],
      ["fuzz: 5xx answers or hangs", String(fivexx)],
      ["fuzz: other problems (envelope, language)", String(report.problems.length - fivexx)],
      ["fuzz: statuses", JSON.stringify(Object.fromEntries([...report.statuses].sort(([a], [b]) => a - b)))],
      ["fuzz: requests per second", (report.sent / (report.ms / 1000)).toFixed(0)],
    ];
  } finally {
    await t.close();
  }
}

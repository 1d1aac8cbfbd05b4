// server/db/db.ts: timestamps come out of both drivers as ISO 8601, exactly as Date#toISOString writes them
// (the API's and the schemas' form), whether the text took the quick way or went through a Date.
import { describe, expect, it } from "vitest";
import { toIso } from "../../server/db/db.ts";

/** What a Date makes of the text PostgreSQL gives (a timestamp without zone is UTC): the reference. */
const viaDate = (text: string) => new Date(text.endsWith("+00") ? text : `${text}Z`).toISOString();

/** Texts as PostgreSQL writes timestamps (years from 100): every fraction length, with and without the UTC offset. */
function texts(): string[] {
  let seed = 7;
  const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
  const two = (n: number) => String(n).padStart(2, "0");
  const out: string[] = [];
  for (let i = 0; i < 2_000; i++) {
    const date = `${String(100 + random(9900)).padStart(4, "0")}-${two(1 + random(12))}-${two(1 + random(28))}`;
    const time = `${two(random(24))}:${two(random(60))}:${two(random(60))}`;
    const digits = random(7);
    const fraction = digits ? `.${String(random(10 ** digits)).padStart(digits, "0")}` : "";
    out.push(`${date} ${time}${fraction}${i % 2 ? "+00" : ""}`);
  }
  return out;
}

describe("toIso", () => {
  it("writes every timestamp text as a Date would, to the millisecond, cut", () => {
    const all = texts();
    expect(all.filter((t) => /\.\d{4,6}/.test(t)).length).toBeGreaterThan(500);
    for (const text of all) expect(toIso(text), text).toBe(viaDate(text));
    expect(toIso("2026-11-26 17:40:00.9999+00")).toBe("2026-11-26T17:40:00.999Z");
    expect(toIso("2026-11-26 17:40:00")).toBe("2026-11-26T17:40:00.000Z");
    // A Date reads a year under 100 written this way as another date altogether (0005-06-15 as 2015-05-06).
    expect(toIso("0005-06-15 12:00:00+00")).toBe("0005-06-15T12:00:00.000Z");
  });

  it("takes other offsets and ISO texts through a Date", () => {
    expect(toIso("2026-11-26 07:40:00.5+07")).toBe("2026-11-26T00:40:00.500Z");
    expect(toIso("2026-11-26 07:40:00+05:30")).toBe("2026-11-26T02:10:00.000Z");
    expect(toIso("2026-11-26T17:40:00.123Z")).toBe("2026-11-26T17:40:00.123Z");
  });
});

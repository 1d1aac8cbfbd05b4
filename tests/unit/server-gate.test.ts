// The admission gate of PGlite's API calls (server/core/gate.ts): at most its limit at work, the others
// admitted in the order they came, each turn ended once however often its end is called.
import { describe, expect, it } from "vitest";
import { Gate } from "../../server/core/gate.ts";

/** Lets every promise that can settle now settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Gate", () => {
  it("admits up to its limit at once and the rest in the order they came", async () => {
    const gate = new Gate(2);
    const admitted: number[] = [];
    const leaves: (() => void)[] = [];
    for (let i = 0; i < 5; i++)
      void gate.enter().then((leave) => {
        admitted.push(i);
        leaves[i] = leave;
      });
    await settle();
    expect(admitted).toEqual([0, 1]);
    leaves[1]();
    await settle();
    expect(admitted).toEqual([0, 1, 2]);
    leaves[0]();
    leaves[2]();
    await settle();
    expect(admitted).toEqual([0, 1, 2, 3, 4]);
  });

  it("ends a turn once when its end is called twice (a response's close after its error)", async () => {
    const gate = new Gate(1);
    const first = await gate.enter();
    const admitted: string[] = [];
    void gate.enter().then(() => admitted.push("second"));
    void gate.enter().then(() => admitted.push("third"));
    first();
    first();
    await settle();
    expect(admitted).toEqual(["second"]);
  });

  it("frees its places when nobody waits, so later callers enter at once", async () => {
    const gate = new Gate(1);
    (await gate.enter())();
    let entered = false;
    void gate.enter().then(() => (entered = true));
    await settle();
    expect(entered).toBe(true);
  });
});

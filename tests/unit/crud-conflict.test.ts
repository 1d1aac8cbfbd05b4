// @vitest-environment jsdom
// src/crud/conflict.ts: a race lost, worked out. Which fields of a save at a stale version differ and who
// changed each, what each starts at, the values sent again; what a raced transition says, in words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/app/api.ts";
import {
  defaultChoice,
  fieldConflicts,
  lastChanges,
  mergeChoices,
  raceOf,
  racedText,
  whenWords,
  type HistoryEntry,
} from "../../src/crud/conflict.ts";
import { entityView } from "../../src/crud/model.ts";
import { setTimeZone } from "../../src/crud/time-zone.ts";
import { setupI18n } from "./dom-setup.ts";

let i18n: Awaited<ReturnType<typeof setupI18n>>;
beforeAll(async () => {
  i18n = await setupI18n(["common", "defs", "shop", "withdrawal"]);
  await i18n.loadLanguages(["zh", "th", "km"]);
  setTimeZone("Asia/Bangkok");
});
afterAll(() => setTimeZone(undefined));

const shop = entityView("shop");
const withdrawal = entityView("withdrawal");

/** A history entry as record-history answers it. */
const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  id: 1,
  at: "2026-11-28T07:02:00.000Z",
  action: "update",
  action_label: "Edited",
  changes: {},
  lines: [],
  actor_kind: "agent",
  actor_id: 1,
  actor_name: "Mekong Smart Retail HQ",
  ...over,
});

// The outlet as the form loaded it, as it is saved now, and as typed.
const base = {
  name: "Central Mall",
  phone: "+855 12 000 001",
  address: "1 Norodom Blvd",
  cate_id: 3,
  agent_id: 2,
  device_count: 4,
};
const theirs = { ...base, name: "Central Mall East", address: "2 Norodom Blvd", device_count: 5 };
// The form filled in a default the record did not hold (is_discount 0): not a change of anyone's.
const loaded = { ...base, is_discount: 0 };
const mine = { ...loaded, name: "Central Mall West", phone: "+855 12 000 002" };
const history = [
  entry({
    id: 9,
    changes: { name: ["Central Mall", "Central Mall East"], address: ["1 Norodom Blvd", "2 Norodom Blvd"] },
  }),
  entry({
    id: 8,
    at: "2026-11-28T06:00:00.000Z",
    action: "bind_shop",
    changes: { device_count: [4, 5] },
    actor_name: "Sok Dara",
  }),
  entry({ id: 7, at: "2026-11-27T06:00:00.000Z", changes: { name: ["Mall", "Central Mall"] }, actor_name: "Old" }),
];

describe("the fields of a save at a stale version", () => {
  const conflicts = fieldConflicts(shop, { base, loaded, theirs, mine }, history);

  it("lists each field that differs in form order: who changed it, the three values, and who saved theirs", () => {
    const hq = { actor: "Mekong Smart Retail HQ", at: "2026-11-28T07:02:00.000Z" };
    expect(conflicts).toEqual([
      {
        field: "name",
        base: "Central Mall",
        theirs: "Central Mall East",
        mine: "Central Mall West",
        changed: "both",
        fixed: false,
        by: hq,
      },
      {
        field: "phone",
        base: "+855 12 000 001",
        theirs: "+855 12 000 001",
        mine: "+855 12 000 002",
        changed: "mine",
        fixed: false,
        by: undefined,
      },
      {
        field: "address",
        base: "1 Norodom Blvd",
        theirs: "2 Norodom Blvd",
        mine: "1 Norodom Blvd",
        changed: "theirs",
        fixed: false,
        by: hq,
      },
      // A count the server keeps: theirs, no choice.
      {
        field: "device_count",
        base: 4,
        theirs: 5,
        mine: 4,
        changed: "theirs",
        fixed: true,
        by: { actor: "Sok Dara", at: "2026-11-28T06:00:00.000Z" },
      },
    ]);
  });

  it("starts each at theirs where only they changed it (or the form cannot), else at one's own", () => {
    expect(Object.fromEntries(conflicts.map((c) => [c.field, defaultChoice(c)]))).toEqual({
      name: "mine",
      phone: "mine",
      address: "theirs",
      device_count: "theirs",
    });
  });

  it("leaves out what both changed alike, and an empty field, a cleared one and none alike", () => {
    const same = fieldConflicts(
      shop,
      {
        base: { ...base, district: "Daun Penh" },
        loaded: { ...loaded, district: "Daun Penh" },
        theirs: { ...base, name: "Same", meal_url: "" },
        mine: { ...mine, name: "Same", phone: base.phone, meal_url: undefined, district: "Daun Penh" },
      },
      [],
    );
    // The district only they cleared remains; name (same change) and meal_url (empty both ways) do not.
    expect(same.map((c) => [c.field, c.changed])).toEqual([["district", "theirs"]]);
  });

  it("sends again what was typed, with theirs where it is chosen; a fixed field is theirs whatever is chosen", () => {
    expect(mergeChoices(mine, conflicts, {})).toEqual({ ...mine, address: "2 Norodom Blvd", device_count: 5 });
    expect(
      mergeChoices(mine, conflicts, { name: "theirs", phone: "mine", address: "mine", device_count: "mine" }),
    ).toEqual({ ...mine, name: "Central Mall East", address: "1 Norodom Blvd", device_count: 5 });
  });

  it("takes a value they cleared by leaving the field out (the server keeps it empty)", () => {
    const cleared = fieldConflicts(shop, { base, loaded, theirs: { ...base, phone: undefined }, mine }, []);
    expect(cleared.map((c) => [c.field, c.changed])).toEqual([
      ["name", "mine"],
      ["phone", "both"],
    ]);
    const merged = mergeChoices(mine, cleared, { phone: "theirs" });
    expect("phone" in merged).toBe(false);
    expect(merged.name).toBe("Central Mall West");
  });

  it("knows each field's last change from the history, newest first", () => {
    expect([...lastChanges(history)]).toEqual([
      ["name", { actor: "Mekong Smart Retail HQ", at: "2026-11-28T07:02:00.000Z" }],
      ["address", { actor: "Mekong Smart Retail HQ", at: "2026-11-28T07:02:00.000Z" }],
      ["device_count", { actor: "Sok Dara", at: "2026-11-28T06:00:00.000Z" }],
    ]);
  });
});

describe("a 409's race", () => {
  it("is named by the answer's data; other refusals are none", () => {
    expect(raceOf(new ApiError(409, "x", [], { conflict: "staleVersion" }))).toBe("staleVersion");
    expect(raceOf(new ApiError(409, "x", [], { conflict: "stateConflict" }))).toBe("stateConflict");
    expect(raceOf(new ApiError(409, "In use by 3 devices", [], null))).toBeUndefined();
    expect(raceOf(new ApiError(400, "x", [], { conflict: "staleVersion" }))).toBeUndefined();
    expect(raceOf(new Error("x"))).toBeUndefined();
  });
});

describe("when, in words", () => {
  const now = new Date("2026-11-28T07:02:03.000Z");
  it("says today's time at the business's clock, and how long ago, in the language", () => {
    expect(whenWords("2026-11-28T07:02:00.000Z", "en", now)).toEqual({ time: "14:02", ago: "3 seconds ago" });
    expect(whenWords("2026-11-28T07:02:00.000Z", "zh", now)).toEqual({ time: "14:02", ago: "3 秒前" });
    expect(whenWords("2026-11-28T06:30:00.000Z", "th", now)).toEqual({ time: "13:30", ago: "32 นาทีที่แล้ว" });
  });
  it("says just now for the same second, in the console's own words (Chromium has no Khmer for it)", () => {
    expect(whenWords("2026-11-28T07:02:03.000Z", "en", now).ago).toBe("just now");
    expect(whenWords("2026-11-28T07:02:03.000Z", "km", now).ago).toBe("អម្បាញ់មិញ");
    expect(whenWords("2026-11-28T07:01:02.000Z", "en", now).ago).toBe("1 minute ago");
  });
  it("says the date too for another day", () => {
    expect(whenWords("2026-11-27T07:02:00.000Z", "en", now)).toEqual({ time: "Nov 27, 2026, 14:02", ago: "1 day ago" });
    expect(whenWords("2026-11-25T07:02:00.000Z", "km", now)).toEqual({ time: "25/11/2026 14:02", ago: "3 ថ្ងៃមុន" });
  });
});

describe("a raced transition, in words", () => {
  const at = new Date("2026-11-28T07:02:03.000Z");
  const before = { id: 5, status: "pending", version: 1, updated_at: "2026-11-28T06:00:00.000Z" };
  const approved = [
    entry({
      id: 20,
      action: "approve",
      action_label: "Approve",
      changes: { status: ["pending", "approved"] },
      actor_name: "admin2",
    }),
    entry({ id: 19, at: "2026-11-28T06:00:00.000Z", action: "create", changes: { status: "pending" } }),
  ];

  it("names the state it is in now, who put it there and when", () => {
    const now = { ...before, status: "approved", version: 2 };
    expect(racedText(withdrawal, "status", before, now, approved, "en", at)).toBe(
      "Approved by admin2 at 14:02, 3 seconds ago.",
    );
  });

  it("in the caller's language", async () => {
    await i18n.changeLanguage("zh");
    try {
      const now = { ...before, status: "approved", version: 2 };
      expect(racedText(withdrawal, "status", before, now, approved, "zh", at)).toBe(
        "已由 admin2 于 14:02（3 秒前）改为“已通过”。",
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("names the last change when only the version moved on, and says when the record is gone", () => {
    const now = { ...before, remark: "checked", version: 2 };
    const edited = [entry({ id: 21, changes: { remark: [null, "checked"] }, actor_name: "Sok Dara" }), ...approved];
    expect(racedText(withdrawal, "status", before, now, edited, "en", at)).toBe(
      "Edited by Sok Dara at 14:02, 3 seconds ago.",
    );
    expect(racedText(withdrawal, "status", before, undefined, edited, "en", at)).toBe("It is no longer there.");
    // No history to tell who: the state alone.
    expect(racedText(withdrawal, "status", before, { ...before, status: "refused" }, [], "en", at)).toBe(
      "It is Refused now.",
    );
  });
});

// src/crud/format.ts: money from minor units, fractions as percentages, and back.
import { describe, expect, it } from "vitest";
import {
  formatFraction,
  formatMoney,
  fractionToPercent,
  parseMoney,
  percentToFraction,
  stateColor,
} from "../../src/crud/format.ts";

describe("formatMoney", () => {
  it("shows minor units with two decimals", () => {
    expect(formatMoney(12345)).toBe("123.45");
    expect(formatMoney(0)).toBe("0.00");
    expect(formatMoney(5)).toBe("0.05");
    expect(formatMoney(350)).toBe("3.50");
  });

  it("groups thousands in the language's way", () => {
    expect(formatMoney(123456789)).toBe("1,234,567.89");
    expect(formatMoney(123456789, "zh")).toBe("1,234,567.89");
  });
});

describe("parseMoney", () => {
  it("reads an amount into minor units", () => {
    expect(parseMoney("123.45")).toBe(12345);
    expect(parseMoney("3.5")).toBe(350);
    expect(parseMoney("7")).toBe(700);
    expect(parseMoney("1,234.56")).toBe(123456);
    expect(parseMoney(" 0.1 ")).toBe(10);
  });

  it("has no binary float noise", () => {
    // 1.15 * 100 is 114.99999999999999 in binary floating point.
    expect(parseMoney("1.15")).toBe(115);
    expect(parseMoney("0.29")).toBe(29);
  });

  it("refuses text that is not an amount with at most two decimals", () => {
    expect(parseMoney("1.234")).toBeUndefined();
    expect(parseMoney("-1")).toBeUndefined();
    expect(parseMoney("abc")).toBeUndefined();
    expect(parseMoney("")).toBeUndefined();
  });

  it("round-trips with formatMoney", () => {
    for (const minor of [0, 1, 99, 100, 12345, 987654321]) expect(parseMoney(formatMoney(minor))).toBe(minor);
  });
});

describe("fractions", () => {
  it("show as percentages", () => {
    expect(formatFraction(0.06)).toBe("6%");
    expect(formatFraction(0.125)).toBe("12.5%");
    expect(formatFraction(0.006)).toBe("0.6%");
    expect(formatFraction(1)).toBe("100%");
    expect(formatFraction(0)).toBe("0%");
  });

  it("are stored from the typed percent without float noise", () => {
    expect(percentToFraction(6)).toBe(0.06);
    expect(percentToFraction(12.5)).toBe(0.125);
    expect(percentToFraction(0.6)).toBe(0.006);
    // 7 / 100 in binary floating point would be 0.07000000000000001.
    expect(percentToFraction(7)).toBe(0.07);
  });

  it("round-trip between fraction and percent", () => {
    for (const percent of [0, 0.5, 6, 7, 12.5, 33.3, 100]) {
      expect(fractionToPercent(percentToFraction(percent))).toBe(percent);
    }
    expect(fractionToPercent(0.07)).toBe(7);
    expect(fractionToPercent(0.125)).toBe(12.5);
  });
});

describe("stateColor", () => {
  it("colours known states and on/off numbers, nothing else", () => {
    expect(stateColor("pay_status", "paid")).toBe("green");
    expect(stateColor("pay_status", "refund_requested")).toBe("orange");
    expect(stateColor("status", 1)).toBe("green");
    expect(stateColor("status", 0)).toBe("default");
    expect(stateColor("pay_type", 1)).toBeUndefined();
    expect(stateColor("type", "other")).toBeUndefined();
  });
});

// src/widgets/compress.ts: the scale SPEC §9 applies to an image before upload.
import { describe, expect, it } from "vitest";
import { compressImage, compressionScale } from "../../src/widgets/compress.ts";

const KB = 1024;
const TARGET = 800 * KB;

describe("compressionScale", () => {
  it("leaves an image at or below the target alone", () => {
    expect(compressionScale(100 * KB, TARGET)).toBe(1);
    expect(compressionScale(TARGET, TARGET)).toBe(1);
  });

  it("scales to 3/4 under 1300 KB", () => {
    expect(compressionScale(TARGET + 1, TARGET)).toBe(3 / 4);
    expect(compressionScale(1300 * KB - 1, TARGET)).toBe(3 / 4);
  });

  it("scales to 2/3 from 1300 KB to under 1800 KB", () => {
    expect(compressionScale(1300 * KB, TARGET)).toBe(2 / 3);
    expect(compressionScale(1800 * KB - 1, TARGET)).toBe(2 / 3);
  });

  it("scales to 1/2 from 1800 KB", () => {
    expect(compressionScale(1800 * KB, TARGET)).toBe(1 / 2);
    expect(compressionScale(20 * 1024 * KB, TARGET)).toBe(1 / 2);
  });

  it("follows the field's own target", () => {
    expect(compressionScale(1000 * KB, 1200 * KB)).toBe(1);
  });
});

describe("compressImage", () => {
  it("passes small images and GIFs through unchanged", async () => {
    const small = new File([new Uint8Array(10)], "a.png", { type: "image/png" });
    expect(await compressImage(small, TARGET)).toBe(small);
    const gif = new File([new Uint8Array(900 * KB)], "a.gif", { type: "image/gif" });
    expect(await compressImage(gif, TARGET)).toBe(gif);
  });
});

// The search box's pure parts: where a found record opens, and how the words typed are marked in its title.
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { detailPath, Marked } from "../../src/app/layout/search-box.tsx";

describe("detailPath", () => {
  it("opens a record on its main list's detail, not a filtered view's", () => {
    expect(detailPath("machine", 7)).toBe("/machine/list/show/7");
    expect(detailPath("goods", 3)).toBe("/goods/list/show/3");
    expect(detailPath("agent", 12)).toBe("/manage/list/show/12");
    expect(detailPath("order", 5)).toBe("/order/applicationList/show/5");
  });
  it("has no place for a kind without a detail screen", () => {
    expect(detailPath("system_setting", 1)).toBeUndefined();
  });
});

describe("Marked", () => {
  const html = (text: string, words: string) => renderToStaticMarkup(<Marked text={text} words={words} />);
  it("marks every occurrence, whatever its case", () => {
    expect(html("VM-PNH-0012", "pnh")).toBe("VM-<mark>PNH</mark>-0012");
    expect(html("a1:A1", "A1")).toBe("<mark>a1</mark>:<mark>A1</mark>");
  });
  it("marks inside words of scripts written without spaces", () => {
    expect(html("ហាងកាហ្វេសុខា", "កាហ្វេ")).toBe("ហាង<mark>កាហ្វេ</mark>សុខា");
    expect(html("ร้านกาแฟดีมาก", "กาแฟ")).toBe("ร้าน<mark>กาแฟ</mark>ดีมาก");
  });
  it("leaves the text as it is when nothing matches", () => {
    expect(html("QZ Market", "zz")).toBe("QZ Market");
  });
});

// The layout document's rules for the editor: a new module of each type, the grid cell ratio by column
// count (SPEC §9), the three-grid module at most once, and the document checked by its own schema
// (schemas/page-layout.json, the one the server checks) before it is saved.
import type { LayoutModule, PageLayout } from "../../../schemas/documents/page-layout.ts";
import { createAjv } from "../../schema/ajv.ts";
import { ONCE_PER_PAGE, pageLayoutSchema, type ModuleType } from "../../schema/page-layout.ts";

export type { LayoutModule, ModuleType, PageLayout };
export { MODULE_TYPES } from "../../schema/page-layout.ts";

/** SPEC §9: a grid's cell ratio by its number of columns (1 to 5). */
export const RATIO_BY_COLUMNS = ["2:1", "15:16", "4:5", "4:1", "2:5"] as const;
/** SPEC §9: the banner's and the page background's recommended ratios. */
export const BANNER_RATIO = "4:3";
export const BACKGROUND_RATIO = "9:5";

let serial = 0;
const newId = (type: string) => `${type}-${Date.now().toString(36)}${(serial++).toString(36)}`;

export function newModule(type: ModuleType): LayoutModule {
  const id = newId(type);
  switch (type) {
    case "banner":
      return { id, type, count: 3, interval: 4000 };
    case "grid":
      return { id, type, columns: 3, style: "plain", ratio: RATIO_BY_COLUMNS[2], items: [{ image: "" }] };
    case "goods":
      return { id, type, columns: 2, showPrice: true };
    case "notice":
      return { id, type, color: "#1677ff" };
    case "image":
      return { id, type, image: "" };
    case "spacer":
      return { id, type, height: 16 };
  }
}

/** True when another module than `except` already uses a once-per-page grid style. */
export const styleTaken = (modules: LayoutModule[], style: string, except?: string): boolean =>
  ONCE_PER_PAGE.includes(style) && modules.some((m) => m.type === "grid" && m.style === style && m.id !== except);

const ajv = createAjv();
const validate = ajv.compile(pageLayoutSchema);

/** The schema's complaints about a layout, as JSON pointers with ajv's messages; empty when valid. */
export function layoutProblems(layout: PageLayout): string[] {
  if (validate(layout)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim());
}

// The layout document's rules for the editor: a new module of each type, the grid cell ratio by column
// count (SPEC §9), the three-grid module at most once, and the document checked by its own schema
// (schemas/page-layout.json, the one the server checks) before it is saved.
import type { LayoutModule, PageLayout } from "../../../schemas/documents/page-layout.ts";
import { createAjv } from "../../schema/ajv.ts";
import { MODULE_DEFINITIONS, ONCE_PER_PAGE, pageLayoutSchema, type ModuleType } from "../../schema/page-layout.ts";

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
/** Each module type checked by its own definition, so a problem names the setting, not every branch. */
const moduleValidators = new Map(
  MODULE_DEFINITIONS.map(([type, name]) => [type, ajv.getSchema(`${pageLayoutSchema.$id}#/definitions/${name}`)!]),
);

/** What the layout's schema refuses: where (a module by its place, a setting by its name), and which rule. */
export interface LayoutProblem {
  /** The module's place on the page (from 0); absent for the page's own shape. */
  index?: number;
  /** The setting at fault, when there is one. */
  field?: string;
  /** The JSON Schema keyword refused (minimum, maxLength, required...). */
  keyword: string;
  limit?: number;
}

const lastName = (pointer: string) =>
  pointer
    .split("/")
    .filter((s) => s !== "" && !/^\d+$/.test(s))
    .pop();

/** The schema's complaints about a layout; empty when it is valid. */
export function layoutProblems(layout: PageLayout): LayoutProblem[] {
  const given = (layout as { modules?: unknown }).modules;
  if (validate(layout)) return [];
  const problems: LayoutProblem[] = [];
  const modules: unknown[] = Array.isArray(given) ? given : [];
  modules.forEach((module, index) => {
    const check = moduleValidators.get((module as { type?: ModuleType }).type!);
    if (!check) problems.push({ index, field: "type", keyword: "enum" });
    else if (!check(module))
      for (const e of check.errors ?? []) {
        const params = e.params as { missingProperty?: string; limit?: number };
        const field = e.keyword === "required" ? params.missingProperty : lastName(e.instancePath);
        problems.push({ index, field, keyword: e.keyword, limit: params.limit });
      }
  });
  for (const e of validate.errors ?? [])
    if (!e.instancePath.startsWith("/modules/"))
      problems.push({ keyword: e.keyword, limit: (e.params as { limit?: number }).limit });
  return problems.length ? problems : [{ keyword: "anyOf" }];
}

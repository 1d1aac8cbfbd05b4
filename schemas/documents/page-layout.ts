// The layout document of a mini-program page, as the layout editor builds it and the server stores it
// (page.layout). Its JSON Schema, schemas/page-layout.json, is generated from these types by
// `npm run codegen` (ts-json-schema-generator), so the server validates it with the same rules.

/** A page: its modules top to bottom. */
export interface PageLayout {
  /**
   * @minItems 0
   * @maxItems 50
   */
  modules: LayoutModule[];
}

export type LayoutModule = BannerModule | GridModule | GoodsModule | NoticeModule | ImageModule | SpacerModule;

/** A module's identity inside the layout, stable across edits (drag and drop keys). */
interface ModuleBase {
  /**
   * @pattern ^[A-Za-z0-9_-]{1,40}$
   * @maxLength 40
   */
  id: string;
}

/** Carousel of banners (recommended ratio 4:3). */
export interface BannerModule extends ModuleBase {
  type: "banner";
  /**
   * @asType integer
   * @minimum 1
   * @maximum 10
   */
  count: number;
  /**
   * @asType integer
   * @minimum 1000
   * @maximum 20000
   */
  interval: number;
}

/** Grid style; "three_grid" may be used once per page (checked by the server's page rules). */
export type GridStyle = "plain" | "card" | "three_grid";

/** Ratio of each grid cell, by column count (2:1, 15:16, 4:5, 4:1, 2:5, 6:7, 4:3). */
export type CellRatio = "2:1" | "15:16" | "4:5" | "4:1" | "2:5" | "6:7" | "4:3";

export interface GridItem {
  /**
   * @maxLength 1024
   */
  image: string;
  /**
   * @maxLength 1024
   */
  link?: string;
  /**
   * @maxLength 40
   */
  label?: string;
}

/** Image grid of 1 to 5 columns. */
export interface GridModule extends ModuleBase {
  type: "grid";
  /**
   * @asType integer
   * @minimum 1
   * @maximum 5
   */
  columns: number;
  style: GridStyle;
  ratio: CellRatio;
  /**
   * @minItems 1
   * @maxItems 20
   */
  items: GridItem[];
}

/** The device's goods, 1 to 3 per row. */
export interface GoodsModule extends ModuleBase {
  type: "goods";
  /**
   * @asType integer
   * @minimum 1
   * @maximum 3
   */
  columns: number;
  showPrice: boolean;
}

/** Scrolling line of the enabled notices. */
export interface NoticeModule extends ModuleBase {
  type: "notice";
  /**
   * @maxLength 7
   * @pattern ^#[0-9a-fA-F]{6}$
   */
  color: string;
}

/** One image with an optional link. */
export interface ImageModule extends ModuleBase {
  type: "image";
  /**
   * @maxLength 1024
   */
  image: string;
  /**
   * @maxLength 1024
   */
  link?: string;
}

/** Vertical space between modules. */
export interface SpacerModule extends ModuleBase {
  type: "spacer";
  /**
   * @asType integer
   * @minimum 0
   * @maximum 200
   */
  height: number;
}

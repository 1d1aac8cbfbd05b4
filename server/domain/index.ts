// Every domain area, in one list: the composition root pairs their handlers with the declared
// operations and hands their hooks and effects to the engine.
import type { Area } from "./area.ts";
import { accounts } from "./accounts/index.ts";
import { catalogue } from "./catalogue/index.ts";
import { goods } from "./goods/index.ts";
import { imports } from "./imports/index.ts";
import { licence } from "./licence/index.ts";
import { live } from "./live/index.ts";
import { machines } from "./machines/index.ts";
import { money } from "./money/index.ts";
import { pages } from "./pages/index.ts";
import { searchArea } from "./search/index.ts";
import { session } from "./session/index.ts";
import { shops } from "./shops/index.ts";
import { statistics } from "./statistics/index.ts";
import { system } from "./system/index.ts";
import { uploads } from "./uploads/index.ts";
import { views } from "./views/index.ts";

export interface AreaOptions {
  /** Public uploads; private ones go to its sibling private/. Default: a temporary folder. */
  uploadDir?: string;
}

export const domainAreas = (options: AreaOptions): Area[] => [
  session,
  system,
  accounts,
  catalogue,
  goods,
  imports,
  licence,
  live,
  machines,
  money,
  pages,
  searchArea,
  shops,
  statistics,
  uploads(options.uploadDir),
  views,
];

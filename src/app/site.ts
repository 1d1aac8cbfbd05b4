// The site's public name and logo (setting-no), shown on the login page and in the side bar. Asked
// once per page load; the login page has no query cache, so this keeps its own.
import { useEffect, useState } from "react";
import type { SettingNoAnswer } from "../generated/types.ts";
import { api } from "./api.ts";
import { setCurrency } from "../crud/format.ts";
import { setTimeZone } from "../crud/time-zone.ts";

/** The site's name, logo, navigation title, the currency every amount is shown in (ISO 4217) and the zone. */
export type SiteInfo = SettingNoAnswer;

let pending: Promise<SiteInfo | undefined> | undefined;

export function useSite(): SiteInfo | undefined {
  const [site, setSite] = useState<SiteInfo>();
  useEffect(() => {
    let live = true;
    pending ??= api("setting-no")
      .then((info) => {
        setCurrency(info?.currency);
        setTimeZone(info?.time_zone);
        return info;
      })
      .catch(() => undefined);
    void pending.then((info) => live && setSite(info));
    return () => {
      live = false;
    };
  }, []);
  return site;
}

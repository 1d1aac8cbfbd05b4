// A form being edited is never refreshed under the user's hands (issue 32): when the stream says that its
// record changed elsewhere (a version past the one the form was filled from), the form says so above the
// fields, naming who and when from the record's history; the user's input stays as it is, and the save
// then meets the newer version (a 409 the form answers with its comparison). And who else has the same
// record's form open is said above it too, as the stream tells it.
import { Alert } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../app/api.ts";
import { onLiveChange, onPresence, type PresenceNews } from "../app/live.ts";
import { HTML_LANG, type Language } from "../schema/constants.ts";
import { formatDateTime } from "./format.ts";

/** How often an open form renews its claim (the server lets one lapse after 70 s: live-presence). */
export const PRESENCE_BEAT_MS = 30_000;

type Editors = PresenceNews["editors"];

/**
 * Claims the record for the time its form is open (renewed every PRESENCE_BEAT_MS, let go when the form
 * closes or the tab does) and answers who else edits it: the claim's answer, then what the stream tells.
 */
export function useOtherEditors(entity: string, id: number): Editors {
  const [editors, setEditors] = useState<Editors>([]);
  useEffect(() => {
    let open = true;
    const claim = (editing: boolean) =>
      api("live-presence", { method: "POST", body: { entity, id, editing }, reads: true, keepalive: !editing });
    const beat = () =>
      void claim(true)
        .then((answer) => open && setEditors(answer.editors))
        .catch((error: unknown) => {
          // Not the caller's to change (a role that may only read): no claim, and none again.
          if (error instanceof ApiError && (error.statusCode === 403 || error.statusCode === 404)) clearInterval(timer);
        });
    const timer = setInterval(beat, PRESENCE_BEAT_MS);
    beat();
    const stop = onPresence((news) => {
      if (news.entity === entity && news.id === id) setEditors(news.editors);
    });
    const leave = () => void claim(false).catch(() => undefined);
    window.addEventListener("pagehide", leave);
    return () => {
      open = false;
      clearInterval(timer);
      stop();
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [entity, id]);
  return editors;
}

/** "Also being edited by agent_a1" above a form, while someone else has it open. */
export function AlsoEditing({ entity, id }: { entity: string; id: number }) {
  const { t, i18n } = useTranslation();
  const editors = useOtherEditors(entity, id);
  if (!editors.length) return null;
  const lng = (i18n.resolvedLanguage ?? "en") as Language;
  const names = new Intl.ListFormat(HTML_LANG[lng] ?? "en", { type: "conjunction" }).format(editors.map((e) => e.name));
  return <Alert className="also-editing" type="info" showIcon message={t("live.alsoEditing", { names })} />;
}

export function ChangedElsewhere({ entity, id, version }: { entity: string; id: number; version: unknown }) {
  const { t, i18n } = useTranslation();
  const [changed, setChanged] = useState<{ name: string | null; at: string } | null>();
  useEffect(
    () =>
      onLiveChange((news) => {
        const newer = news.changes.some(
          (c) =>
            c.entity === entity &&
            c.kind !== "added" &&
            (c.more || c.records.some((r) => r.id === id && r.version > Number(version))),
        );
        if (!newer) return;
        setChanged((was) => was ?? null);
        // Who and when: the record's latest history entry (a change without one is said without a name).
        void api("record-history", { query: { entity, id } })
          .then((history) => {
            const latest = [...history].sort((a, b) => b.at.localeCompare(a.at))[0];
            if (latest) setChanged({ name: latest.actor_name, at: latest.at });
          })
          .catch(() => undefined);
      }),
    [entity, id, version],
  );
  if (changed === undefined) return null;
  return (
    <Alert
      className="changed-elsewhere"
      type="warning"
      showIcon
      message={
        changed?.name
          ? t("live.changedBy", { name: changed.name, when: formatDateTime(changed.at, i18n.resolvedLanguage) })
          : t("live.changedElsewhere")
      }
    />
  );
}

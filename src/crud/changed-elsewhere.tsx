// A form being edited is never refreshed under the user's hands (issue 32): when the stream says that its
// record changed elsewhere (a version past the one the form was filled from), the form says so above the
// fields, naming who and when from the record's history; the user's input stays as it is, and the save
// then meets the newer version (a 409 the form answers with its comparison).
import { Alert } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../app/api.ts";
import { onLiveChange } from "../app/live.ts";
import { formatDateTime } from "./format.ts";

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

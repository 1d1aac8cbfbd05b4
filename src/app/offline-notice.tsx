// The notice that the console is offline (issue 30): said plainly at the top of every page, the sign-in
// page included, while what is on screen stays as it was (it may be out of date, and says so); once the
// network is back, the writes that could not be sent are counted and offered again here (their forms offer
// them too). Free of the UI library, like the sign-in page.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { resendKept, useKeptWrites, useOnline } from "./network.ts";
import "./offline-notice.css";

/** When the glyphs of the offline words are fetched: once the page has settled, and again later (a language's
 * font stylesheet arrives after its words). */
const GLYPHS_AFTER_MS = [2_000, 15_000];

/**
 * The offline words are shown when no font slice can be fetched any more (a page's font comes in slices of
 * the characters it shows): their glyphs are fetched ahead while the network is there, so that "您已离线"
 * is not drawn as empty boxes. Each weight the notice and the not-sent alert use.
 */
function useOfflineGlyphs(): void {
  const { t, i18n } = useTranslation();
  const online = useOnline();
  useEffect(() => {
    if (!online || typeof document === "undefined" || !document.fonts) return;
    const words = Object.values(t("offline", { returnObjects: true }) as Record<string, string>).join(" ");
    const load = () => {
      const family = getComputedStyle(document.body).fontFamily;
      for (const weight of [400, 600]) document.fonts.load(`${weight} 16px ${family}`, words).catch(() => undefined);
    };
    const timers = GLYPHS_AFTER_MS.map((ms) => setTimeout(load, ms));
    return () => timers.forEach(clearTimeout);
  }, [i18n.resolvedLanguage, online, t]);
}

export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useOnline();
  useOfflineGlyphs();
  const kept = useKeptWrites();
  const [sending, setSending] = useState(false);
  if (online && kept === 0) return null;
  const sendAgain = async () => {
    setSending(true);
    try {
      await resendKept();
    } finally {
      setSending(false);
    }
  };
  return (
    <div className={`offline-notice${online ? " offline-notice-back" : ""}`} role="status" data-testid="offline-notice">
      <span className="offline-notice-mark" aria-hidden />
      <p className="offline-notice-text">
        {online ? (
          t("offline.back", { count: kept })
        ) : (
          <>
            <strong>{t("offline.title")}</strong> {t("offline.text")}
          </>
        )}
      </p>
      {online && (
        <button type="button" className="offline-notice-send" disabled={sending} onClick={() => void sendAgain()}>
          {t("offline.sendAgain")}
        </button>
      )}
    </div>
  );
}

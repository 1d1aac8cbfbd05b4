// A write the network failed, said where it was made (its form or dialog, which keeps what was typed):
// not sent because the console is offline, and once the network is back, offered again. While it is shown
// the offline notice counts it and can send it too (src/app/network.ts). Sent again, a write carries the
// key it was first sent with, so the server applies it once however many times it arrives.
import { Alert, Button } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { keepWrite, useOnline } from "./network.ts";

/** In a form or dialog whose write was not sent: `onResend` sends what it holds now. */
export function NotSent({ onResend, busy }: { onResend: () => unknown; busy?: boolean }) {
  const { t } = useTranslation();
  const online = useOnline();
  const resend = useRef(onResend);
  resend.current = onResend;
  useEffect(() => keepWrite(() => resend.current()), []);
  return (
    <Alert
      className="not-sent"
      type={online ? "info" : "warning"}
      showIcon
      role="alert"
      message={t(online ? "offline.notSentBack" : "offline.notSent")}
      description={
        <Button
          type={online ? "primary" : "default"}
          className="not-sent-send"
          loading={busy}
          onClick={() => void resend.current()}
        >
          {t("offline.sendAgain")}
        </Button>
      }
    />
  );
}

/**
 * A write without a form (a confirmed action, "fill all") that was not sent: kept, for the offline notice
 * to offer, while its screen is shown. Answers `keep(resend)`; a write kept again replaces the last one.
 */
export function useKeptAction(): (resend: () => unknown) => void {
  const drop = useRef<() => void>(undefined);
  useEffect(() => () => drop.current?.(), []);
  return (resend) => {
    drop.current?.();
    const forget = keepWrite(() => {
      forget();
      drop.current = undefined;
      return resend();
    });
    drop.current = forget;
  };
}

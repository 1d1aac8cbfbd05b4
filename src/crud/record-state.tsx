// What the record screens (edit, settings, details) share: the state of loading their record, and
// saving with the server's answer shown, its field errors kept for the form.
import { Alert, App, Button, Card, Result, Skeleton } from "antd";
import { ReloadOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notSent, type ApiError } from "../app/api.ts";
import { forgetUnsaved } from "../app/unsaved.tsx";

/** What went wrong, in words: offline, the server's fault, no permission, or the server's own message. */
export function failureWords(error: ApiError | null | undefined, fallback: string): { title: string; text?: string } {
  const status = error?.statusCode;
  if (status === 0 || (typeof navigator !== "undefined" && navigator.onLine === false))
    return { title: "failure.offline", text: "failure.offlineText" };
  if (status !== undefined && status >= 500) return { title: "failure.server", text: "failure.serverText" };
  if (status === 403) return { title: "failure.forbidden", text: "failure.forbiddenText" };
  return { title: fallback };
}

/** A failed load said in words, with a retry where trying again can help. */
export function LoadFailure({
  error,
  onRetry,
  fallback = "failure.other",
}: {
  error?: ApiError | null;
  onRetry?: () => void;
  fallback?: string;
}) {
  const { t } = useTranslation();
  const words = failureWords(error, fallback);
  return (
    <Result
      className="load-failure"
      status={error?.statusCode === 403 ? "403" : error?.statusCode === 404 ? "404" : "warning"}
      title={t(words.title)}
      subTitle={words.text ? t(words.text) : error?.message}
      extra={
        onRetry && error?.statusCode !== 403 && error?.statusCode !== 404 ? (
          <Button type="primary" icon={<ReloadOutlined />} onClick={onRetry}>
            {t("actions.retry")}
          </Button>
        ) : undefined
      }
    />
  );
}

/** A skeleton while the record loads, the failure in words (with a retry) when it cannot be had. */
export function RecordStatus({
  loading,
  error,
  onRetry,
}: {
  loading: boolean;
  error?: ApiError | null;
  onRetry?: () => void;
}) {
  if (loading) {
    return (
      <Card className="screen-card" variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  return <LoadFailure error={error} onRetry={onRetry} fallback="messages.detailFailed" />;
}

/**
 * Saves: a success message, then `after`; on failure the server's message, and its field errors for the
 * form; a save the network failed is `notSent` (the form says so and offers it again, its input kept).
 * A failure `handled` says it has taken care of (a stale version's comparison) is not said. Answers
 * whether it saved.
 */
export function useSave(success: string, failed: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [error, setError] = useState<ApiError>();
  const save = async (
    write: () => Promise<unknown>,
    after?: () => void,
    handled?: (error: unknown) => boolean,
  ): Promise<boolean> => {
    try {
      await write();
      setError(undefined);
      forgetUnsaved(); // saved: leaving no longer asks
      message.success(t(success));
      after?.();
      return true;
    } catch (caught) {
      if (handled?.(caught)) {
        setError(undefined);
        return false;
      }
      setError(caught as ApiError);
      if (!notSent(caught)) message.error((caught as ApiError).message || t(failed));
      return false;
    }
  };
  return { fieldErrors: error?.fieldErrors, notSent: notSent(error), save };
}

/**
 * Whether a record on screen stays when its refresh failed: it does when the failure says nothing of the
 * record (the network, the server's fault, a busy server), not when it is gone or no longer the user's.
 */
export const keepsRecord = (error: ApiError | null | undefined): boolean =>
  !error || error.statusCode === 0 || error.statusCode === 408 || error.statusCode === 429 || error.statusCode >= 500;

/** A record on screen whose refresh failed: it stays for reading, and this says why above it, with a retry. */
export function RefreshFailed({ error, onRetry }: { error?: ApiError | null; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (!error) return null;
  const words = failureWords(error, "failure.other");
  return (
    <Alert
      className="load-failure-alert"
      type="warning"
      showIcon
      message={t(words.title)}
      description={words.text ? t(words.text) : error.message}
      action={
        onRetry ? (
          <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
            {t("actions.retry")}
          </Button>
        ) : undefined
      }
    />
  );
}

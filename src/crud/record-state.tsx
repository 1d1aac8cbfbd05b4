// What the record screens (edit, settings, details) share: the state of loading their record, and
// saving with the server's answer shown, its field errors kept for the form.
import { App, Card, Result, Skeleton } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../app/api.ts";

/** A skeleton while the record loads, a translated warning when it cannot be had. */
export function RecordStatus({ loading, error }: { loading: boolean; error?: ApiError | null }) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Card className="screen-card" variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  return <Result status="warning" title={t("messages.detailFailed")} subTitle={error?.message} />;
}

/** Saves: a success message, then `after`; on failure the server's message, and its field errors for the form. */
export function useSave(success: string, failed: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [error, setError] = useState<ApiError>();
  const save = async (write: () => Promise<unknown>, after?: () => void) => {
    try {
      await write();
      setError(undefined);
      message.success(t(success));
      after?.();
    } catch (caught) {
      setError(caught as ApiError);
      message.error((caught as ApiError).message || t(failed));
    }
  };
  return { fieldErrors: error?.fieldErrors, save };
}

// A settings singleton (system, goods, payment, plugin settings): one generated form over get / set.
import { useOne, useUpdate } from "@refinedev/core";
import { App, Card, Result, Skeleton } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../app/api.ts";
import { editableData } from "./form-screen.tsx";
import { useScreen } from "./resource.ts";
import { formSchema, SchemaForm } from "./schema-form.tsx";

type Data = Record<string, unknown>;
const SINGLETON = "settings";

export function SettingsScreen({ resource: identifier }: { resource: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const screen = useScreen(identifier);
  const { view } = screen;
  const { query, result } = useOne<Data, ApiError>({ resource: view.name, id: SINGLETON, errorNotification: false });
  const { mutateAsync } = useUpdate();
  const [errors, setErrors] = useState<ApiError>();
  const schema = useMemo(() => formSchema(view, "edit"), [view]);
  const editable = screen.can("set");
  if (query.isLoading)
    return (
      <Card className="screen-card" variant="borderless">
        <Skeleton active />
      </Card>
    );
  if (query.error || !result) {
    return <Result status="warning" title={t("messages.detailFailed")} subTitle={query.error?.message} />;
  }
  return (
    <Card className="screen-card form-card" variant="borderless">
      <fieldset disabled={!editable} className="settings-fieldset">
        <SchemaForm
          key={String(result.version)}
          view={view}
          schema={schema}
          mode="edit"
          initial={editableData(view, result)}
          serverErrors={errors?.fieldErrors}
          onSubmit={async (data) => {
            try {
              await mutateAsync({
                resource: view.name,
                id: SINGLETON,
                values: { ...data, version: result.version },
                successNotification: false,
                errorNotification: false,
              });
              setErrors(undefined);
              message.success(t("messages.editSuccess"));
            } catch (error) {
              setErrors(error as ApiError);
              message.error((error as ApiError).message || t("messages.editFailed"));
            }
          }}
        />
      </fieldset>
    </Card>
  );
}

// A settings singleton (system, goods, payment, plugin settings): one generated form over get / set.
import { useOne, useUpdate } from "@refinedev/core";
import { Card } from "antd";
import { useMemo } from "react";
import type { ApiError } from "../app/api.ts";
import { editableData } from "./form-screen.tsx";
import { keepsRecord, RecordStatus, RefreshFailed, useSave } from "./record-state.tsx";
import { useScreen } from "./resource.ts";
import { formSchema, SchemaForm } from "./schema-form.tsx";

type Data = Record<string, unknown>;
const SINGLETON = "settings";

export function SettingsScreen({ resource: identifier }: { resource: string }) {
  const screen = useScreen(identifier);
  const { view } = screen;
  const { query, result } = useOne<Data, ApiError>({ resource: view.name, id: SINGLETON, errorNotification: false });
  const { mutateAsync } = useUpdate();
  const { fieldErrors, notSent, save } = useSave("messages.editSuccess", "messages.editFailed");
  const schema = useMemo(() => formSchema(view, "edit"), [view]);
  const editable = screen.can("set");
  if (!result || !keepsRecord(query.error))
    return <RecordStatus loading={query.isLoading} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Card className="screen-card form-card" variant="borderless">
      <RefreshFailed error={query.error} onRetry={() => void query.refetch()} />
      <fieldset disabled={!editable} className="settings-fieldset">
        <SchemaForm
          key={String(result.version)}
          view={view}
          schema={schema}
          mode="edit"
          initial={editableData(view, result)}
          serverErrors={fieldErrors}
          notSent={notSent}
          onSubmit={(data) =>
            save(() =>
              mutateAsync({
                resource: view.name,
                id: SINGLETON,
                values: { ...data, version: result.version },
                successNotification: false,
                errorNotification: false,
              }),
            )
          }
        />
      </fieldset>
    </Card>
  );
}

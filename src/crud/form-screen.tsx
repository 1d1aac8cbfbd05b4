// The generated create and edit screens. Edit loads the record as detail answers it and sends it
// back with the version it was loaded at; the server's field errors land on their fields and nothing typed
// is lost, nor when the network fails the save (the form offers it again).
import { useCreate, useOne, useUpdate } from "@refinedev/core";
import { Card } from "antd";
import { useMemo, useRef } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { ChangedElsewhere } from "./changed-elsewhere.tsx";
import type { ApiError } from "../app/api.ts";
import { formSchema, SchemaForm } from "./schema-form.tsx";
import { keepsRecord, RecordStatus, RefreshFailed, useSave } from "./record-state.tsx";
import { useScreen, type ScreenContext } from "./resource.ts";
import type { EntityView } from "./model.ts";
import { pageDone, usePageTitle } from "../app/page-title.ts";
import { recordTitle } from "./action-sources.tsx";

type Data = Record<string, unknown>;

/** The record's own fields for the form: system columns and masked secrets are left out. */
export function editableData(view: EntityView, record: Data): Data {
  const data: Data = {};
  for (const field of view.fields) {
    const value = record[field.name];
    if (value === null || value === undefined) continue;
    if (field.writeOnly) continue; // the server answers a mask; empty means unchanged
    data[field.name] = value;
  }
  return data;
}

export function FormScreen({ resource: identifier, action }: { resource: string; action: "create" | "edit" }) {
  const screen = useScreen(identifier);
  const { id } = useParams();
  return action === "edit" ? <EditForm key={id} screen={screen} id={Number(id)} /> : <CreateForm screen={screen} />;
}

function CreateForm({ screen }: { screen: ScreenContext }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { mutateAsync } = useCreate();
  const { fieldErrors, notSent, save } = useSave("messages.addSuccess", "messages.addFailed");
  const { view, resource } = screen;
  const fixed = resource.meta.filter ?? {};
  const schema = useMemo(() => formSchema(view, "create"), [view]);
  return (
    <Card className="screen-card form-card" variant="borderless">
      <SchemaForm
        view={view}
        schema={schema}
        initial={{ ...fixed }}
        fixed={Object.keys(fixed)}
        serverErrors={fieldErrors}
        notSent={notSent}
        onCancel={() => navigate(screen.listPath)}
        onSubmit={(data) =>
          save(
            () =>
              mutateAsync({ resource: view.name, values: data, successNotification: false, errorNotification: false }),
            () => {
              pageDone(pathname);
              navigate(screen.listPath);
            },
          )
        }
      />
    </Card>
  );
}

function EditForm({ screen, id }: { screen: ScreenContext; id: number }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { view } = screen;
  const { query, result } = useOne<Data, ApiError>({
    resource: view.name,
    id,
    errorNotification: false,
    // Never read again under the user's hands: a change elsewhere is said instead (changed-elsewhere.tsx).
    queryOptions: { staleTime: 0, gcTime: 0, meta: { live: "own" } },
  });
  const { mutateAsync } = useUpdate();
  const { fieldErrors, notSent, save } = useSave("messages.editSuccess", "messages.editFailed");
  const schema = useMemo(() => formSchema(view, "edit"), [view]);
  // The version the form was filled from: a refresh meanwhile (the network back) does not make the user's
  // older input overwrite a newer record, and a save sent again is the same save (the same key).
  const version = useRef<unknown>(undefined);
  if (result && version.current === undefined) version.current = result.version;
  usePageTitle(result ? recordTitle(view, result) : undefined);
  // A form on screen stays when a refresh fails: what is typed in it is the user's.
  if (!result || !keepsRecord(query.error))
    return <RecordStatus loading={query.isLoading} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Card className="screen-card form-card" variant="borderless">
      <RefreshFailed error={query.error} />
      <ChangedElsewhere entity={view.name} id={id} version={version.current} />
      <SchemaForm
        view={view}
        schema={schema}
        mode="edit"
        initial={editableData(view, result)}
        serverErrors={fieldErrors}
        notSent={notSent}
        onCancel={() => navigate(screen.listPath)}
        onSubmit={(data) =>
          save(
            () =>
              mutateAsync({
                resource: view.name,
                id,
                values: { ...data, version: version.current },
                successNotification: false,
                errorNotification: false,
              }),
            () => {
              pageDone(pathname);
              navigate(screen.listPath);
            },
          )
        }
      />
    </Card>
  );
}

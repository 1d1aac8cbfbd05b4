// The generated create and edit screens. Edit loads the record as detail answers it and sends it
// back with the version it was loaded at; the server's field errors land on their fields and nothing typed
// is lost, nor when the network fails the save (the form offers it again), nor when someone else saved the
// record first: the comparison opens (conflict-dialog.tsx), and its merge is sent at the current version.
import { useCreate, useOne, useUpdate } from "@refinedev/core";
import { App, Card } from "antd";
import { useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router";
import { AlsoEditing, ChangedElsewhere } from "./changed-elsewhere.tsx";
import { api, type ApiError } from "../app/api.ts";
import { dataProvider } from "../app/providers/data-provider.ts";
import { fieldConflicts, mergeChoices, raceOf, type Choice, type FieldConflict } from "./conflict.ts";
import { ConflictDialog } from "./conflict-dialog.tsx";
import { formSchema, SchemaForm } from "./schema-form.tsx";
import { keepsRecord, RecordStatus, RefreshFailed, useSave } from "./record-state.tsx";
import { useScreen, type ScreenContext } from "./resource.ts";
import type { EntityView } from "./model.ts";
import { pageDone, usePageTitle } from "../app/page-title.ts";
import { recordTitle } from "./action-sources.tsx";

type Data = Record<string, unknown>;

/** A save someone else's got ahead of: what was typed, the form as loaded, the record now, the fields that differ. */
interface Comparison {
  mine: Data;
  loaded: Data;
  theirs: Data;
  conflicts: FieldConflict[];
}

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
  const { message } = App.useApp();
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
  // The version the form was filled from, and the record as it was then: a refresh meanwhile (the network
  // back) does not make the user's older input overwrite a newer record, and a save sent again is the same
  // save (the same key). A save someone else's got ahead of compares against it (conflict.ts).
  const version = useRef<unknown>(undefined);
  const started = useRef<Data>({});
  if (result && version.current === undefined) {
    version.current = result.version;
    started.current = result;
  }
  const [conflict, setConflict] = useState<Comparison>();
  const [saving, setSaving] = useState(false);
  // A merge the server refused on a field goes back into the form, to be fixed there.
  const [replace, setReplace] = useState<Data>();
  usePageTitle(result ? recordTitle(view, result) : undefined);

  const done = () => {
    pageDone(pathname);
    navigate(screen.listPath);
  };
  const write = (values: Data, at: unknown) => () =>
    mutateAsync({
      resource: view.name,
      id,
      values: { ...values, version: at },
      successNotification: false,
      errorNotification: false,
    });
  /** Someone else saved first: what they saved, who and when, beside what the form started from and holds. */
  const compare = async (mine: Data, loaded: Data) => {
    try {
      const [{ data: theirs }, history] = await Promise.all([
        dataProvider.getOne<Data>({ resource: view.name, id }),
        api("record-history", { query: { entity: view.name, id } }).catch(() => []),
      ]);
      const base = editableData(view, started.current);
      const now = editableData(view, theirs);
      setConflict({
        mine,
        loaded,
        theirs,
        conflicts: fieldConflicts(view, { base, loaded, theirs: now, mine }, history),
      });
    } catch (error) {
      setConflict(undefined);
      void message.error((error as ApiError).message);
    }
  };
  const stale = (mine: Data, loaded: Data) => (error: unknown) => {
    if (raceOf(error) !== "staleVersion") return false;
    void compare(mine, loaded);
    return true;
  };
  const saveAgain = async (comparison: Comparison, choices: Record<string, Choice>) => {
    const merged = mergeChoices(comparison.mine, comparison.conflicts, choices);
    // From now on the form stands on the record as it is: a later race compares against it.
    version.current = comparison.theirs.version;
    started.current = comparison.theirs;
    const loaded = { ...comparison.loaded, ...editableData(view, comparison.theirs) };
    setSaving(true);
    let raced = false;
    const saved = await save(write(merged, version.current), done, (error) => (raced = stale(merged, loaded)(error)));
    setSaving(false);
    // Raced again: the comparison is made anew. Refused otherwise (a field, the network): the merge goes
    // into the form, where its field errors show, or the save not sent is offered again.
    if (saved || raced) return;
    setConflict(undefined);
    setReplace(merged);
  };

  // A form on screen stays when a refresh fails: what is typed in it is the user's.
  if (!result || !keepsRecord(query.error))
    return <RecordStatus loading={query.isLoading} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Card className="screen-card form-card" variant="borderless">
      <RefreshFailed error={query.error} />
      <AlsoEditing entity={view.name} id={id} />
      <ChangedElsewhere entity={view.name} id={id} version={version.current} />
      <SchemaForm
        view={view}
        schema={schema}
        mode="edit"
        initial={editableData(view, result)}
        serverErrors={fieldErrors}
        notSent={notSent}
        replace={replace}
        onCancel={() => navigate(screen.listPath)}
        onSubmit={(data, { loaded }) => save(write(data, version.current), done, stale(data, loaded))}
      />
      {conflict && (
        <ConflictDialog
          key={String(conflict.theirs.version)}
          view={view}
          conflicts={conflict.conflicts}
          saving={saving}
          onSave={(choices) => void saveAgain(conflict, choices)}
          onCancel={() => setConflict(undefined)}
        />
      )}
    </Card>
  );
}

// Saving the page from the layout editor: the layout is checked first (from the first try on, its problems
// are listed), then the page's fields and its modules go to the server together, whose refusals are kept
// for the fields (and the layout) to show; a saved page is shown again as the server stored it.
import { App } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, type ApiError } from "../../app/api.ts";
import { forgetUnsaved } from "../../app/unsaved.tsx";
import type { LayoutModule, LayoutProblem } from "./layout.ts";

type Data = Record<string, unknown>;

/** `record`: the page being edited (none for a new page); `problems`: its layout's, as it stands. */
export function usePageSave(record: Data | undefined, modules: LayoutModule[], problems: LayoutProblem[]) {
  const { t } = useTranslation("common");
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [serverErrors, setServerErrors] = useState<ApiError["fieldErrors"]>([]);
  const [triedSave, setTriedSave] = useState(false);

  const save = async (fields: Data) => {
    const layout = { modules };
    setTriedSave(true);
    if (problems.length) return;
    const body = { ...fields, layout, ...(record ? { id: record.id, version: record.version } : {}) };
    try {
      const saved = await api<Data>(record ? "renovation-update" : "renovation-add", { method: "POST", body });
      forgetUnsaved();
      setServerErrors([]);
      void message.success(t(record ? "common:messages.editSuccess" : "common:messages.addSuccess"));
      if (!record) navigate(`/page/edit/${String(saved.id)}`, { replace: true });
      else navigate(0);
    } catch (error) {
      const failed = error as ApiError;
      setServerErrors(failed.fieldErrors ?? []);
      void message.error(failed.message);
    }
  };

  return { save, serverErrors, triedSave };
}

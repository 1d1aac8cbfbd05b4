// What a list does to its records by itself (not a declared action): move them to the recycle bin or
// destroy them, restore them, one or the selected ones, each bulk command asked first. Afterwards the
// selection clears and every list, detail and title reloads.
import { useCustomMutation, useDeleteMany } from "@refinedev/core";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../app/api.ts";
import type { EntityView } from "../model.ts";
import { useRefreshAfterAction } from "../refresh.ts";

export function useListCommands(view: EntityView, recycle: boolean, clearSelection: () => void) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const refresh = useRefreshAfterAction();
  const { mutateAsync: deleteMany } = useDeleteMany();
  const { mutateAsync: recover } = useCustomMutation();

  const done = async (key: string, count: number) => {
    message.success(t(key, { count }));
    clearSelection();
    await refresh();
  };
  const fail = (error: ApiError) => message.error(error.message);

  /** To the recycle bin, or for good (destroy: in the recycle bin). */
  const remove = (ids: number[], destroy: boolean) =>
    deleteMany({
      resource: view.name,
      ids,
      meta: { call: destroy ? "destroy" : "delete" },
      successNotification: false,
      errorNotification: false,
    }).then(() => done("messages.deleteSuccess", ids.length), fail);

  const restore = (ids: number[]) =>
    recover({
      url: view.x.calls.recover!,
      method: "post",
      values: { id: ids },
      successNotification: false,
      errorNotification: false,
    }).then(() => done("messages.restoreSuccess", ids.length), fail);

  const confirmBulk = (kind: "delete" | "destroy" | "restore", ids: number[]) => {
    modal.confirm({
      title: t("confirm.title"),
      content: t(`confirm.${kind}`, { count: ids.length }),
      okText: t(`actions.${kind}`),
      cancelText: t("actions.cancel"),
      okButtonProps: { danger: kind !== "restore" },
      onOk: () => (kind === "restore" ? restore(ids) : remove(ids, recycle)),
    });
  };

  return { remove, restore, confirmBulk };
}

export type ListCommands = ReturnType<typeof useListCommands>;

// Change password (SPEC §3): current, new and confirm, validated by the modify-password operation's
// schema (new must equal confirm); on success every session ends on the server, so the user signs in again.
import { useLogout } from "@refinedev/core";
import { App, Modal } from "antd";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, type ApiError } from "../api.ts";
import { clearSession } from "../session.ts";
import { operationView } from "../../crud/model.ts";
import { operationSchemas } from "../../generated/operations.ts";
import { formSchema, SchemaForm } from "../../crud/schema-form.tsx";
import { focusFirstField } from "../../crud/first-field.ts";

export function ChangePassword({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(["operations", "common"]);
  const { message } = App.useApp();
  const { mutate: logout } = useLogout();
  const [errors, setErrors] = useState<ApiError>();
  const body = useRef<HTMLDivElement>(null);
  const view = operationView(operationSchemas["modify-password"]);
  const schema = useMemo(() => formSchema(view, "create"), [view]);
  return (
    <Modal
      open={open}
      title={t("operations:modify-password.name")}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      afterOpenChange={(opened) => opened && focusFirstField(body.current)}
    >
      <div ref={body}>
        <SchemaForm
          view={view}
          schema={schema}
          initial={{}}
          focusFirst
          serverErrors={errors?.fieldErrors}
          onCancel={onClose}
          onSubmit={async (data) => {
            try {
              await api("modify-password", { method: "POST", body: data });
              message.success(t("common:messages.passwordChanged"));
              onClose();
              // The server has ended every session, this one included: nothing to revoke any more.
              clearSession();
              logout();
            } catch (error) {
              setErrors(error as ApiError);
              message.error((error as ApiError).message);
            }
          }}
        />
      </div>
    </Modal>
  );
}

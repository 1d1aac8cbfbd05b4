// SPEC §4: an expired system tells the user to contact the administrator; they can only sign out.
import { useLogout } from "@refinedev/core";
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";

export function ExpiredPage() {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout();
  return (
    <Result
      status="warning"
      title={t("messages.systemExpired")}
      extra={<Button onClick={() => logout()}>{t("actions.logout")}</Button>}
    />
  );
}

// SPEC §4: an expired system tells the user to contact the administrator; they can only sign out. Whoever
// may manage the system finds this installation's id here (to copy and send to the vendor), installs the
// serial number the vendor issued for it, and goes on at once.
import { useLogout } from "@refinedev/core";
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { LicencePanel } from "../../extensions/system-upgrade/licence.tsx";
import { allowed } from "../providers/access-control.ts";

export function ExpiredPage() {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const manage = allowed("version.upgrade");
  return (
    <>
      <Result
        status="warning"
        title={t("messages.systemExpired")}
        subTitle={manage ? t("licence.expiredAdmin") : undefined}
        extra={<Button onClick={() => logout()}>{t("actions.logout")}</Button>}
      />
      {manage && (
        <div style={{ maxWidth: 720, margin: "0 auto" }}>
          <LicencePanel onLicensed={() => void navigate("/", { replace: true })} />
        </div>
      )}
    </>
  );
}

// The device import (SPEC /machine/import, issue 11): the import wizard (../import/import-wizard.tsx) with
// the device import's own calls and words; its headers are matched by name only.
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ImportWizard } from "../import/import-wizard.tsx";

export function MachineImport() {
  const { t } = useTranslation("machine_import");
  return (
    <ImportWizard
      className="machine-import"
      calls={{ template: "machine-import-template", check: "machine-import-check", confirm: "machine-import-confirm" }}
      permission="machine.import"
      ns="machine_import"
      back={
        <Link to="/machine/list">
          <Button type="primary">{t("wizard.toDevices")}</Button>
        </Link>
      }
    />
  );
}

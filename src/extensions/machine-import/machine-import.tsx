// The device import (SPEC /machine/import, issue 11): the import wizard (../import/import-wizard.tsx) with
// the device import's own calls and words; a header no name matches is mapped by hand to one of its fields
// (the server remembers the choice once an import is confirmed).
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ImportWizard } from "../import/import-wizard.tsx";
import { entityKeyBase, fieldLabelKey } from "../../schema/keys.ts";
import { DEVICE_IMPORT_FIELDS } from "../../schema/imports.ts";

export function MachineImport() {
  const { t } = useTranslation(["machine_import", "machine"]);
  const fields = DEVICE_IMPORT_FIELDS.map((field) => ({
    field,
    label: t(fieldLabelKey(entityKeyBase("machine"), field)),
  }));
  return (
    <ImportWizard
      className="machine-import"
      calls={{ template: "machine-import-template", check: "machine-import-check", confirm: "machine-import-confirm" }}
      permission="machine.import"
      ns="machine_import"
      fields={fields}
      back={
        <Link to="/machine/list">
          <Button type="primary">{t("wizard.toDevices")}</Button>
        </Link>
      }
    />
  );
}

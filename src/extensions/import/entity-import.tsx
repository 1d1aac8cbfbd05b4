// The import of an entity that declares x-import (issue 33), opened from its list's toolbar: the import
// wizard with the entity's generated calls (src/schema/imports.ts), the generic words (entity_import) and
// its columns offered for the headers a file names in words of its own.
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import type { EntityView } from "../../crud/model.ts";
import { importCalls, importPermission } from "../../schema/imports.ts";
import { entityKeyBase, fieldLabelKey } from "../../schema/keys.ts";
import { ImportWizard } from "./import-wizard.tsx";

export function EntityImport({ view, onBack }: { view: EntityView; onBack: () => void }) {
  const { t } = useTranslation([view.name, "entity_import", "common"]);
  const fields = (view.schema["x-import"]?.columns ?? []).map((field) => ({
    field,
    label: t(fieldLabelKey(entityKeyBase(view.name), field)),
  }));
  return (
    <ImportWizard
      calls={importCalls(view.name)}
      permission={importPermission(view.name)}
      words={{ entity: t(`${view.name}:name`) }}
      fields={fields}
      back={
        <Button type="primary" onClick={onBack}>
          {t("entity_import:wizard.toList")}
        </Button>
      }
    />
  );
}

// The list toolbar's "Import", for an entity that declares x-import: the import wizard in a dialog
// (loaded when first opened); closing it refreshes the list.
import { UploadOutlined } from "@ant-design/icons";
import { Button, Modal } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EntityView } from "../model.ts";

const EntityImport = lazy(() =>
  import("../../extensions/import/entity-import.tsx").then((m) => ({ default: m.EntityImport })),
);

export function ImportButton({ view, onClosed }: { view: EntityView; onClosed: () => void }) {
  const { t } = useTranslation("entity_import");
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    onClosed();
  };
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)}>
        {t("wizard.open")}
      </Button>
      {open && (
        <Modal open footer={null} width="min(960px, calc(100vw - 16px))" onCancel={close} className="import-dialog">
          <Suspense fallback={null}>
            <EntityImport view={view} onBack={close} />
          </Suspense>
        </Modal>
      )}
    </>
  );
}

// The comparison a save at a stale version opens (form-screen.tsx): for each field that differs, the value
// the form started from, the one saved meanwhile (who saved it, when) and the one typed, shown as the
// detail screen shows them, with a choice per field between keeping one's own and taking theirs (conflict.ts
// says which each starts at). "Save again" hands the choices back; closing leaves the form as it was typed.
import { Alert, Button, Radio, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldValue } from "./field-value.tsx";
import { defaultChoice, whenWords, type Choice, type FieldConflict } from "./conflict.ts";
import type { EntityView } from "./model.ts";
import { PageModal } from "./page-modal.tsx";
import { useRelationTitles } from "./relations.ts";
import "./conflict-dialog.css";

interface Props {
  view: EntityView;
  conflicts: FieldConflict[];
  saving?: boolean;
  onSave: (choices: Record<string, Choice>) => void;
  onCancel: () => void;
}

const TAG_COLOR = { theirs: "blue", mine: "green", both: "orange" } as const;

export function ConflictDialog({ view, conflicts, saving, onSave, onCancel }: Props) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? "en";
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(conflicts.map((c) => [c.field, defaultChoice(c)])),
  );
  // Every related record any side names, titled as the detail screen titles them.
  const sides = (["base", "theirs", "mine"] as const).map((side) =>
    Object.fromEntries(conflicts.map((c) => [c.field, c[side]])),
  );
  const titles = useRelationTitles(view.fields, sides);
  const shown = conflicts.filter((c) => !view.byName.get(c.field)?.ui.hidden);

  return (
    <PageModal
      className="conflict-dialog"
      title={t("conflict.title")}
      width={960}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="back" onClick={onCancel}>
          {t("conflict.back")}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => onSave(choices)}>
          {t("conflict.saveAgain")}
        </Button>,
      ]}
    >
      <Alert
        className="conflict-intro"
        type="info"
        showIcon
        message={shown.length ? t("conflict.intro") : t("conflict.same")}
      />
      {shown.map((conflict) => {
        const field = view.byName.get(conflict.field)!;
        const choice = conflict.fixed ? "theirs" : choices[conflict.field];
        const value = (side: "base" | "theirs" | "mine") => (
          <FieldValue field={field} value={conflict[side]} titles={titles} detail />
        );
        const by = conflict.by && { actor: conflict.by.actor, ...whenWords(conflict.by.at, lng) };
        return (
          <section key={conflict.field} className="conflict-field" data-field={conflict.field}>
            <div className="conflict-field-head">
              <Typography.Text strong>{t(field.label)}</Typography.Text>
              <Tag bordered={false} color={conflict.fixed ? "default" : TAG_COLOR[conflict.changed]}>
                {t(conflict.fixed ? "conflict.changed.fixed" : `conflict.changed.${conflict.changed}`)}
              </Tag>
            </div>
            <div className="conflict-sides">
              <div className="conflict-side" data-side="base">
                <div className="conflict-side-name">{t("conflict.started")}</div>
                {value("base")}
              </div>
              <div className={`conflict-side${choice === "theirs" ? " conflict-chosen" : ""}`} data-side="theirs">
                <div className="conflict-side-name">{t("conflict.theirs")}</div>
                {value("theirs")}
                {by && <div className="conflict-by">{t("conflict.by", by)}</div>}
              </div>
              {!conflict.fixed && (
                <div className={`conflict-side${choice === "mine" ? " conflict-chosen" : ""}`} data-side="mine">
                  <div className="conflict-side-name">{t("conflict.mine")}</div>
                  {value("mine")}
                </div>
              )}
            </div>
            {!conflict.fixed && (
              <Radio.Group
                className="conflict-choice"
                optionType="button"
                value={choice}
                aria-label={t(field.label)}
                onChange={(event) => setChoices({ ...choices, [conflict.field]: event.target.value as Choice })}
                options={[
                  { value: "mine", label: t("conflict.keepMine") },
                  { value: "theirs", label: t("conflict.takeTheirs") },
                ]}
              />
            )}
          </section>
        );
      })}
    </PageModal>
  );
}

// What an empty list says: what is missing ("No order yet"), and when the user's filters hid the rows,
// that they did ("No order found for these filters"), with the button that clears them.
import { Button, Empty } from "antd";
import { ClearOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { entityNameKey } from "../../schema/keys.ts";

interface Props {
  entity: string;
  recycle: boolean;
  /** Filters of the user's hide rows (the screen's own fixed ones do not count). */
  filtered: boolean;
  onClearFilters: () => void;
}

/** A name inside an English sentence: "order", but "WIFI" as it is. Other languages have no capitals. */
const inSentence = (name: string, lng: string | undefined) =>
  lng === "en" && /^[A-Z][^A-Z]/.test(name) ? name[0].toLowerCase() + name.slice(1) : name;

export function ListEmpty({ entity, recycle, filtered, onClearFilters }: Props) {
  const { t, i18n } = useTranslation();
  const name = inSentence(t(entityNameKey(entity)), i18n.resolvedLanguage);
  const words = filtered
    ? t("list.emptyFiltered", { entity: name })
    : recycle
      ? t("list.emptyRecycle")
      : t("list.emptyNone", { entity: name });
  return (
    <Empty className="list-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={words}>
      {filtered && (
        <Button icon={<ClearOutlined />} onClick={onClearFilters}>
          {t("list.clearFilters")}
        </Button>
      )}
    </Empty>
  );
}

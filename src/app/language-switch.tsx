// The language switcher: each language in its own name; the choice is kept in local storage.
import { Select } from "antd";
import { GlobalOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "./i18n.ts";

export function LanguageSwitch({ variant = "borderless" }: { variant?: "borderless" | "outlined" }) {
  const { t, i18n } = useTranslation();
  return (
    <Select<Language>
      className="language-switch"
      aria-label={t("language.label")}
      variant={variant}
      value={(i18n.resolvedLanguage ?? "en") as Language}
      onChange={(lng) => void i18n.changeLanguage(lng)}
      prefix={<GlobalOutlined />}
      popupMatchSelectWidth={false}
      options={LANGUAGES.map((lng) => ({ value: lng, label: LANGUAGE_NAMES[lng] }))}
    />
  );
}
